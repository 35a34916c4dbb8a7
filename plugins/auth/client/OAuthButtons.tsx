// "Log in with Discord / GitHub" under the login form: one button per provider an administrator
// turned on (the public settings <id>_enabled and <id>_client_id). Each is a full page load of the
// server's start path, which sends the browser on to the provider. Only an account already linked
// on /account signs in this way. A flow that fails comes back to /auth/login?oauth_error=<code>
// &provider=<id>, and the reason shows here.
import { Alert, Button, isSettingEnabled, theme, useSearchParams, useSettings, useTranslation } from '@orepanel/sdk';

export const OAUTH_PROVIDERS = [
  { id: 'discord', name: 'Discord' },
  { id: 'github', name: 'GitHub' },
] as const;

export function oauthStartPath(provider: string, action: 'login' | 'link'): string {
  return `/api/user/auth/callback/${provider}/${action}`;
}

const dividerStyle = {
  display: 'flex',
  alignItems: 'center',
  gap: 12,
  color: theme.colors.subtle,
  fontSize: theme.font.size.sm,
  '&::before, &::after': { content: '""', flex: 1, borderTop: `1px solid ${theme.colors.border}` },
} as const;

export function OAuthButtons() {
  const { t, i18n } = useTranslation('auth');
  const settings = useSettings();
  const [params, setParams] = useSearchParams();
  const available = OAUTH_PROVIDERS.filter(({ id }) => {
    const clientId = settings[`${id}_client_id`];
    return isSettingEnabled(settings[`${id}_enabled`]) && typeof clientId === 'string' && clientId.trim() !== '';
  });

  const code = params.get('oauth_error');
  const provider = OAUTH_PROVIDERS.find(({ id }) => id === params.get('provider'))?.name ?? '';
  // a code this catalogue does not know (a newer server's) still gets a readable sentence
  const problem = code ? t(i18n.exists(`oauth.errors.${code}`, { ns: 'auth' }) ? `oauth.errors.${code}` : 'oauth.errors.generic', { provider }) : null;
  const dismiss = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('oauth_error');
        next.delete('provider');
        return next;
      },
      { replace: true },
    );

  if (available.length === 0 && !problem) return null;
  return (
    <div css={{ display: 'grid', gap: 12, marginTop: 16 }}>
      {problem && (
        <Alert tone="error" onClose={dismiss}>
          {problem}
        </Alert>
      )}
      {available.length > 0 && (
        <>
          <div css={dividerStyle}>{t('oauth.or')}</div>
          {available.map(({ id, name }) => (
            <Button key={id} to={oauthStartPath(id, 'login')} reloadDocument variant="secondary" size="lg" fullWidth>
              {t('oauth.continueWith', { provider: name })}
            </Button>
          ))}
        </>
      )}
    </div>
  );
}
