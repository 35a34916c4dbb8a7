// /auth/logout: the sdk's logout() revokes the session on the server, clears the local session and
// goes to the login page; this page only shows that it is happening.
import { AuthLayout, logout, Spinner, theme, useTranslation } from '@orepanel/sdk';
import { useEffect, useRef } from 'react';

export default function LogoutPage() {
  const { t } = useTranslation('auth');
  // once per visit, also under StrictMode's double effects
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout();
  }, []);

  return (
    <AuthLayout title={t('logout.title')}>
      <div css={{ display: 'flex', alignItems: 'center', gap: 12, color: theme.colors.muted }}>
        <Spinner size={22} label={t('logout.progress')} />
        <span aria-hidden>{t('logout.progress')}</span>
      </div>
    </AuthLayout>
  );
}
