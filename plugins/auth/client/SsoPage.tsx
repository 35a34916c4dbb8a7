// /auth/sso?token=… (spec §2: an auth page): a host's site sends the browser here with a sign-in
// token its back end got from the admin API. The token is exchanged once (POST /api/user/auth/sso —
// a POST, so link previewers that only fetch the page cannot use it up), then completeLogin() goes
// on as after a password login: to the dashboard, or to /auth/2fa/verify when 2FA is on.
import { Alert, AuthLayout, Button, completeLogin, http, Spinner, theme, useErrorText, useSearchParams, useTranslation } from '@orepanel/sdk';
import { useEffect, useRef, useState } from 'react';
import { AuthFooter } from './AuthFooter';

export const SSO_API = '/api/user/auth/sso';

export default function SsoPage() {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [failure, setFailure] = useState<string | null>(null);
  // a token works once: exchange it once per visit, also under StrictMode's double effects
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    http
      .post(SSO_API, { token })
      .then(() => completeLogin())
      .catch((error: unknown) => setFailure(errorText(error)));
  }, [token, errorText]);

  const problem = token ? failure : t('sso.missing');
  return (
    <AuthLayout title={problem ? t('sso.failedHeading') : t('sso.heading')} footer={<AuthFooter />}>
      {problem ? (
        <div css={{ display: 'grid', gap: 16 }}>
          <Alert tone="error">{problem}</Alert>
          <Button to="/auth/login" size="lg" fullWidth>
            {t('sso.toLogin')}
          </Button>
        </div>
      ) : (
        <div css={{ display: 'flex', alignItems: 'center', gap: 12, color: theme.colors.muted }}>
          <Spinner size={22} label={t('sso.progress')} />
          <span aria-hidden>{t('sso.progress')}</span>
        </div>
      )}
    </AuthLayout>
  );
}
