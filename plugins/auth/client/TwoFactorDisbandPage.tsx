// /auth/2fa/setup/disband (spec §2, login needed): sends the browser to the server path
// /api/auth/2fa/setup/kill, which turns 2FA off only for a session that proved a code within the
// last minutes; otherwise it sends the browser to /auth/2fa/verify?next=disband first.
import { AuthLayout, Spinner, theme, useSession, useTranslation } from '@orepanel/sdk';
import { useEffect, useRef } from 'react';
import { goToServerPath } from './server-navigation';
import { TWO_FA_KILL_PATH } from './two-factor-code';

export default function TwoFactorDisbandPage() {
  const { t } = useTranslation('auth');
  // once per visit, also under StrictMode's double effects
  const started = useRef(false);
  // The kill route gives this session a fresh token and revokes the old one. A session request the
  // kernel still has in flight with the old token would come back "invalid" after that, and the
  // kernel would sign the browser out (clearing the fresh cookies too): leave only once it answered.
  const { status } = useSession();
  useEffect(() => {
    if (started.current || status !== 'ready') return;
    started.current = true;
    goToServerPath(TWO_FA_KILL_PATH);
  }, [status]);
  return (
    <AuthLayout title={t('twoFactor.disbandTitle')}>
      <div css={{ display: 'flex', alignItems: 'center', gap: 12, color: theme.colors.muted }}>
        <Spinner size={22} label={t('twoFactor.disbandProgress')} />
        <span aria-hidden>{t('twoFactor.disbandProgress')}</span>
      </div>
    </AuthLayout>
  );
}
