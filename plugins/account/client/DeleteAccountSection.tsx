// Delete account: the password, then a confirmation dialog → POST /api/user/session/delete-account.
// The server ends the session and clears the cookies; the browser then signs out locally.
import { Button, Card, dialogs, Form, http, logout, PasswordField, theme, useTranslation, type FormValues } from '@orepanel/sdk';
import { useState } from 'react';

export const DELETE_ACCOUNT_API = '/api/user/session/delete-account';

export function DeleteAccountSection() {
  const { t } = useTranslation('account');
  const [problem, setProblem] = useState<string | null>(null);

  async function remove(values: FormValues) {
    const password = values.password ?? '';
    if (password === '') {
      setProblem(t('validation.required'));
      return;
    }
    const confirmed = await dialogs.confirm({
      title: t('delete.confirmTitle'),
      text: t('delete.confirmText'),
      icon: 'warning',
      danger: true,
      confirmText: t('delete.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    await http.post(DELETE_ACCOUNT_API, { password });
    void dialogs.toast(t('delete.done'));
    await logout();
  }

  return (
    <Card title={t('delete.title')}>
      <div css={{ display: 'grid', gap: 14 }}>
        <p css={{ margin: 0, color: theme.colors.muted }}>{t('delete.text')}</p>
        <Form onSubmit={remove} noValidate aria-label={t('delete.title')}>
          <div css={{ maxWidth: 420 }}>
            <PasswordField label={t('delete.password')} name="password" autoComplete="current-password" error={problem} onChange={() => setProblem(null)} />
          </div>
          <div>
            <Button type="submit" variant="danger">
              {t('delete.submit')}
            </Button>
          </div>
        </Form>
      </div>
    </Card>
  );
}
