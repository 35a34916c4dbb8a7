// Restoring a backup (admin.root only): the dialog says what happens, then asks for the panel's name
// typed exactly, the password, and the authenticator code when the account has two-factor
// authentication; the server checks all three and starts the restore as a job.
import { Alert, Button, Form, http, PasswordField, TextField, theme, useDateTime, useSession, useSetting, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { backupsUrl, useBackupErrorText, type BackupJob, type BackupRow } from './backups-api';
import { Modal } from './Modal';

export interface RestoreDialogProps {
  archive: BackupRow;
  onClose(): void;
  onStarted(job: BackupJob): void;
}

export function RestoreDialog({ archive, onClose, onStarted }: RestoreDialogProps) {
  const { t } = useTranslation('backups');
  const dateTime = useDateTime();
  const errorText = useBackupErrorText();
  const { user } = useSession();
  const panelName = String(useSetting('app_name') ?? '');
  const [panelTyped, setPanelTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const twoFa = user?.two_fa_enabled === true;

  const submit = async (values: Record<string, string>) => {
    setBusy(true);
    try {
      const body: Record<string, string> = { panel_name: values.panel_name ?? '', password: values.password ?? '' };
      if (twoFa) body.code = (values.code ?? '').trim();
      const { job } = await http.post<{ job: BackupJob }>(backupsUrl.restore(archive.name), body);
      onStarted(job);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('restore.title')} onClose={onClose} busy={busy}>
      <p css={{ margin: 0, color: theme.colors.muted, lineHeight: 1.5, overflowWrap: 'anywhere' }}>
        {t('restore.what', { name: archive.name, date: dateTime(archive.created_at) })}
      </p>
      <Alert tone="warning">{t('restore.signOut')}</Alert>
      <Form onSubmit={submit} errorText={errorText} aria-label={t('restore.title')}>
        <TextField
          name="panel_name"
          label={t('restore.panelName', { name: panelName })}
          value={panelTyped}
          onChange={setPanelTyped}
          autoComplete="off"
          spellCheck={false}
          required
        />
        <PasswordField name="password" label={t('restore.password')} required />
        {twoFa && <TextField name="code" label={t('restore.code')} hint={t('restore.codeHint')} inputMode="numeric" autoComplete="one-time-code" maxLength={24} required />}
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'flex-end' }}>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('restore.cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={panelTyped !== panelName}>
            {t('restore.confirm')}
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
