// Ban with a reason (the server ends every session of the account at once) or lift the ban.
import { Alert, Button, Card, dialogs, Form, http, TextArea, theme, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { usersUrl, type AdminUser } from './users-api';

const MAX_REASON = 255;

export function BanCard({ user, onSaved }: { user: AdminUser; onSaved(user: AdminUser): void }) {
  const { t } = useTranslation('admin-users');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  async function ban() {
    const text = reason.trim();
    if (text === '') return setProblem(t('validation.required'));
    if (text.length > MAX_REASON) return setProblem(t('validation.tooLong'));
    setProblem(null);
    const answer = await http.patch<{ user: AdminUser }>(usersUrl.user(user.uuid), { banned: true, ban_reason: text });
    setReason('');
    onSaved(answer.user);
    void dialogs.toast(t('userEdit.ban.banned'));
  }

  async function unban() {
    const answer = await http.patch<{ user: AdminUser }>(usersUrl.user(user.uuid), { banned: false });
    onSaved(answer.user);
    void dialogs.toast(t('userEdit.ban.unbanned'));
  }

  return (
    <Card title={t('userEdit.ban.title')}>
      {user.banned ? (
        <Form onSubmit={unban} aria-label={t('userEdit.ban.unban')}>
          <Alert tone="warning" title={t('userEdit.ban.isBanned')}>
            <span css={{ overflowWrap: 'anywhere' }}>{user.ban_reason ?? ''}</span>
          </Alert>
          <div>
            <Button type="submit" variant="secondary">
              {t('userEdit.ban.unban')}
            </Button>
          </div>
        </Form>
      ) : (
        <Form onSubmit={ban} aria-label={t('userEdit.ban.ban')} noValidate>
          <p css={{ margin: 0, color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('userEdit.ban.explain')}</p>
          <TextArea label={t('userEdit.ban.reason')} name="ban_reason" value={reason} onChange={setReason} error={problem} maxLength={MAX_REASON} rows={3} />
          <div>
            <Button type="submit" variant="danger">
              {t('userEdit.ban.ban')}
            </Button>
          </div>
        </Form>
      )}
    </Card>
  );
}
