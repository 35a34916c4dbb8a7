// An error the server put inside an answer (a transfer's, a test step's, the remote list's): its code
// in the reader's language, and under it the storage's own words (which address, which answer), the
// detail an administrator needs to fix a bucket setting.
import { theme, useTranslation } from '@orepanel/sdk';
import { useCodedErrorText } from './cloud-api';

export function CodedError({ error }: { error: { code: string; message: string } }) {
  const { t } = useTranslation('backups-cloud');
  const text = useCodedErrorText()(error);
  return (
    <span css={{ display: 'grid', gap: 2 }}>
      <span>{text}</span>
      {text !== error.message && error.message && (
        <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>{t('errorDetail', { detail: error.message })}</span>
      )}
    </span>
  );
}
