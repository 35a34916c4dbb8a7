// /errors/403 — spec §6: a failed permission check shows 'Access Denied', then comes here.
import { ErrorLayout, useTranslation } from '@orepanel/sdk';
import { ErrorActions } from './ErrorActions';

export default function ForbiddenPage() {
  const { t } = useTranslation('errors');
  return <ErrorLayout code={403} title={t('forbidden.title')} text={t('forbidden.text')} actions={<ErrorActions />} />;
}
