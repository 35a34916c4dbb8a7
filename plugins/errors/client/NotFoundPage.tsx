// Any path no route matches (the "*" route).
import { ErrorLayout, useTranslation } from '@orepanel/sdk';
import { ErrorActions } from './ErrorActions';

export default function NotFoundPage() {
  const { t } = useTranslation('errors');
  return <ErrorLayout code={404} title={t('notFound.title')} text={t('notFound.text')} actions={<ErrorActions />} />;
}
