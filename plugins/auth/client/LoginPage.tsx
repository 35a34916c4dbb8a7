// /auth/login: username or email + password → POST /api/user/auth/login, then the sdk's completeLogin()
// (session refresh, then the after-login route: spec §2 rule 4). Server errors show at the top of the
// form, translated by their code (INVALID_CREDENTIALS …) in this plugin's catalogue.
import { AuthLayout, Button, completeLogin, Form, http, isSettingEnabled, Link, PasswordField, TextField, theme, useSetting, useTranslation, type FormValues } from '@orepanel/sdk';
import { AuthFooter } from './AuthFooter';
import { OAuthButtons } from './OAuthButtons';
import { CaptchaField, captchaToken } from './CaptchaField';

const LOGIN_API = '/api/user/auth/login';

const forgotLinkStyle = {
  justifySelf: 'end',
  marginTop: -8,
  color: theme.colors.primaryHover,
  fontSize: theme.font.size.sm,
  textDecoration: 'none',
  '&:hover': { textDecoration: 'underline' },
  '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing, borderRadius: 4 },
} as const;

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const registrationOpen = isSettingEnabled(useSetting('registration_enabled', true));

  async function logIn(values: FormValues) {
    await http.post(LOGIN_API, { login: (values.login ?? '').trim(), password: values.password ?? '', ...captchaToken(values) });
    await completeLogin();
  }

  return (
    <AuthLayout
      title={t('login.heading')}
      subtitle={t('login.subtitle')}
      footer={<AuthFooter switchTo={registrationOpen ? { question: t('login.noAccount'), label: t('login.register'), to: '/auth/register' } : null} />}
    >
      <Form onSubmit={logIn} aria-label={t('login.title')}>
        <TextField label={t('login.login')} name="login" autoComplete="username" autoCapitalize="none" autoCorrect="off" spellCheck={false} required autoFocus />
        <PasswordField label={t('login.password')} name="password" autoComplete="current-password" required />
        <Link to="/auth/forgot-password" css={forgotLinkStyle}>
          {t('login.forgot')}
        </Link>
        <CaptchaField action="login" />
        <Button type="submit" size="lg" fullWidth>
          {t('login.submit')}
        </Button>
      </Form>
      <OAuthButtons />
    </AuthLayout>
  );
}
