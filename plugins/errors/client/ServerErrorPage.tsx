// /errors/500 — the server failed; "Try again" returns to the page that failed.
import { ErrorLayout, useTranslation } from '@orepanel/sdk';
import { ErrorActions } from './ErrorActions';

export default function ServerErrorPage() {
  const { t } = useTranslation('errors');
  return <ErrorLayout code={500} title={t('serverError.title')} text={t('serverError.text')} actions={<ErrorActions retry />} />;
}
