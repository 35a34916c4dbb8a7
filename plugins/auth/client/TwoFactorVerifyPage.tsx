// /auth/2fa/verify (spec §2: an auth page open without login): after a login with 2FA on, the
// session answers TW0_FA_BLOCKED until a code passes — a 6-digit code from the authenticator app or
// a recovery code → POST /api/user/auth/2fa/verify, then completeLogin(). With ?next=disband (where
// the server's kill route sends a session that has not proved its code recently) the code is
// re-verified (POST /api/user/auth/2fa/reverify) and the browser goes back to the kill route.
import { AuthLayout, Button, completeLogin, Form, http, isApiError, Link, TextField, theme, useSearchParams, useTranslation, type FormValues } from '@orepanel/sdk';
import { useState } from 'react';
import { goToServerPath } from './server-navigation';
import { normaliseTwoFactorCode, TWO_FA_CODE_MAX_LENGTH, TWO_FA_KILL_PATH } from './two-factor-code';

const VERIFY_API = '/api/user/auth/2fa/verify';
const REVERIFY_API = '/api/user/auth/2fa/reverify';

export default function TwoFactorVerifyPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const disband = params.get('next') === 'disband';
  const [problem, setProblem] = useState<string | null>(null);

  async function verify(values: FormValues) {
    const code = normaliseTwoFactorCode(values.code ?? '');
    if (!code) return setProblem(t('twoFactor.invalidCode'));
    if (disband) {
      await http.post(REVERIFY_API, { code });
      // spec §2: the server turns 2FA off and sends the browser on
      goToServerPath(TWO_FA_KILL_PATH);
      return;
    }
    try {
      await http.post(VERIFY_API, { code });
    } catch (error) {
      // verified meanwhile (another tab): the session is already usable
      if (!(isApiError(error) && error.code === 'TWO_FA_NOT_PENDING')) throw error;
    }
    await completeLogin();
  }

  return (
    <AuthLayout
      title={disband ? t('twoFactor.reverifyHeading') : t('twoFactor.verifyHeading')}
      subtitle={disband ? t('twoFactor.reverifySubtitle') : t('twoFactor.verifySubtitle')}
      footer={
        <p css={{ margin: 0 }}>
          {disband ? (
            <Link to="/account" css={{ color: theme.colors.primaryHover }}>
              {t('twoFactor.backToAccount')}
            </Link>
          ) : (
            <Link to="/auth/logout" css={{ color: theme.colors.primaryHover }}>
              {t('twoFactor.otherAccount')}
            </Link>
          )}
        </p>
      }
    >
      <Form onSubmit={verify} noValidate aria-label={t('twoFactor.verifyTitle')}>
        <TextField
          label={t('twoFactor.code')}
          name="code"
          hint={t('twoFactor.codeHint')}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          maxLength={TWO_FA_CODE_MAX_LENGTH}
          autoFocus
          error={problem}
          onChange={() => setProblem(null)}
        />
        <Button type="submit" size="lg" fullWidth>
          {disband ? t('twoFactor.reverifySubmit') : t('twoFactor.verifySubmit')}
        </Button>
      </Form>
    </AuthLayout>
  );
}
