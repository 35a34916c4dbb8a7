// /account: the signed-in user's own account, one card per concern — profile, password, two-factor,
// linked Discord/GitHub accounts, support PIN, active sessions, activity log and account deletion.
// The server's e-mail verification link and the 2FA "kill" route come back here with
// ?email_verified=1|0 and ?two_fa=disabled; an OAuth link with ?oauth_linked= or ?oauth_error=.
import { Alert, Page, Spinner, theme, useSearchParams, useSession, useTranslation } from '@orepanel/sdk';
import { ActivitySection } from './ActivitySection';
import { DeleteAccountSection } from './DeleteAccountSection';
import { LinkedAccountsNotice, LinkedAccountsSection } from './LinkedAccountsSection';
import { MailSection } from './MailSection';
import { PasswordSection } from './PasswordSection';
import { ProfileSection } from './ProfileSection';
import { SecuritySection } from './SecuritySection';
import { SessionsSection } from './SessionsSection';
import { SupportPinSection } from './SupportPinSection';

const NOTICE_PARAMS = ['email_verified', 'two_fa'] as const;

function ReturnNotice() {
  const { t } = useTranslation('account');
  const [params, setParams] = useSearchParams();
  const verified = params.get('email_verified');
  const twoFa = params.get('two_fa');
  const dismiss = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of NOTICE_PARAMS) next.delete(name);
        return next;
      },
      { replace: true },
    );
  if (verified === '1')
    return (
      <Alert tone="success" onClose={dismiss}>
        {t('notices.emailVerified')}
      </Alert>
    );
  if (verified === '0')
    return (
      <Alert tone="error" onClose={dismiss}>
        {t('notices.emailVerifyFailed')}
      </Alert>
    );
  if (twoFa === 'disabled')
    return (
      <Alert tone="success" onClose={dismiss}>
        {t('notices.twoFaDisabled')}
      </Alert>
    );
  if (twoFa === 'enabled')
    return (
      <Alert tone="success" onClose={dismiss}>
        {t('notices.twoFaEnabled')}
      </Alert>
    );
  return null;
}

const columns = { display: 'grid', gap: 20, alignItems: 'start', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 380px), 1fr))' } as const;

export default function AccountPage() {
  const { t } = useTranslation('account');
  const { user } = useSession();

  if (!user) {
    return (
      <Page title={t('title')}>
        <div css={{ display: 'flex', justifyContent: 'center', padding: 48, color: theme.colors.muted }}>
          <Spinner size={28} label={t('loading')} />
        </div>
      </Page>
    );
  }

  return (
    <Page title={t('title')} description={t('description')}>
      <ReturnNotice />
      <LinkedAccountsNotice />
      <div css={columns}>
        <ProfileSection user={user} />
        <div css={{ display: 'grid', gap: 20, minWidth: 0 }}>
          <PasswordSection />
          <SecuritySection user={user} />
          <LinkedAccountsSection />
          <SupportPinSection />
          <MailSection />
        </div>
      </div>
      <SessionsSection />
      <ActivitySection />
      <DeleteAccountSection />
    </Page>
  );
}
