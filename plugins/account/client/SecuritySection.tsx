// Two-factor authentication: its state, and the way to turn it on (/auth/2fa/setup) or off
// (/auth/2fa/setup/disband, which asks the server; spec §2).
import { Badge, Button, Card, theme, useTranslation, type SessionUser } from '@orepanel/sdk';

export function SecuritySection({ user }: { user: SessionUser }) {
  const { t } = useTranslation('account');
  const on = user.two_fa_enabled;
  return (
    <Card title={t('security.title')} actions={on ? <Badge tone="success">{t('security.on')}</Badge> : <Badge tone="warning">{t('security.off')}</Badge>}>
      <div css={{ display: 'grid', gap: 14, justifyItems: 'start' }}>
        <p css={{ margin: 0, color: theme.colors.muted }}>{on ? t('security.onText') : t('security.offText')}</p>
        {on ? (
          <Button variant="danger" to="/auth/2fa/setup/disband">
            {t('security.disable')}
          </Button>
        ) : (
          <Button to="/auth/2fa/setup">{t('security.enable')}</Button>
        )}
      </div>
    </Card>
  );
}
