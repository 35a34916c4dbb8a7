// /auth/reset-password?token=…: the link of the reset mail. The token is checked first (GET
// /api/user/auth/reset), then the new password twice → POST /api/user/auth/reset; every session of
// the account ends, so the user signs in again with the new password.
import { Alert, AuthLayout, Button, Form, http, PasswordField, Spinner, theme, useApi, useErrorText, useSearchParams, useTranslation, type FormValues } from '@orepanel/sdk';
import { useState, type FormEvent } from 'react';
import { AuthFooter } from './AuthFooter';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './registration-rules';

const RESET_API = '/api/user/auth/reset';

type Problems = Partial<Record<'password' | 'password_confirm', string>>;

function checkNewPassword(values: FormValues): Problems {
  const problems: Problems = {};
  const password = values.password ?? '';
  const confirm = values.password_confirm ?? '';
  if (password === '') problems.password = 'validation.required';
  else if (password.length < PASSWORD_MIN_LENGTH) problems.password = 'validation.passwordLength';
  else if (password.length > PASSWORD_MAX_LENGTH) problems.password = 'validation.passwordTooLong';
  if (confirm === '') problems.password_confirm = 'validation.required';
  else if (confirm !== password) problems.password_confirm = 'validation.passwordMismatch';
  return problems;
}

function InvalidLink() {
  const { t } = useTranslation('auth');
  return (
    <div css={{ display: 'grid', gap: 16 }}>
      <Alert tone="error">{t('reset.invalid')}</Alert>
      <Button to="/auth/forgot-password" fullWidth>
        {t('reset.requestNew')}
      </Button>
    </div>
  );
}

export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const check = useApi<{ success: boolean }>(token ? `${RESET_API}?${new URLSearchParams({ token }).toString()}` : null);
  const [problems, setProblems] = useState<Problems>({});
  const [done, setDone] = useState(false);

  async function reset(values: FormValues, event: FormEvent<HTMLFormElement>) {
    const found = checkNewPassword(values);
    setProblems(found);
    const first = (['password', 'password_confirm'] as const).find((name) => found[name]);
    if (first) {
      const input = event.currentTarget.elements.namedItem(first);
      if (input instanceof HTMLElement) input.focus();
      return;
    }
    await http.post(RESET_API, { token, password: values.password });
    setDone(true);
  }

  const footer = <AuthFooter switchTo={{ question: t('forgot.remembered'), label: t('forgot.login'), to: '/auth/login' }} />;
  const shown = (name: keyof Problems) => (problems[name] ? t(problems[name]) : undefined);
  const clear = (name: keyof Problems) => () => setProblems((current) => (current[name] ? { ...current, [name]: undefined } : current));

  let body;
  if (!token) body = <InvalidLink />;
  else if (done) {
    body = (
      <div css={{ display: 'grid', gap: 16 }}>
        <Alert tone="success">{t('reset.done')}</Alert>
        <Button to="/auth/login" size="lg" fullWidth>
          {t('reset.toLogin')}
        </Button>
      </div>
    );
  } else if (check.loading && !check.data) {
    body = (
      <div css={{ display: 'flex', alignItems: 'center', gap: 12, color: theme.colors.muted }}>
        <Spinner size={22} label={t('reset.checking')} />
        <span aria-hidden>{t('reset.checking')}</span>
      </div>
    );
  } else if (check.error) {
    // RESET_TOKEN_INVALID is the expected failure; anything else (network) gets its own text
    body = check.error.code === 'RESET_TOKEN_INVALID' || check.error.status === 400 ? <InvalidLink /> : <Alert tone="error">{errorText(check.error)}</Alert>;
  } else {
    body = (
      <Form onSubmit={reset} noValidate aria-label={t('reset.title')}>
        <PasswordField
          label={t('reset.password')}
          name="password"
          autoComplete="new-password"
          hint={t('register.passwordHint')}
          autoFocus
          error={shown('password')}
          onChange={clear('password')}
        />
        <PasswordField
          label={t('reset.passwordConfirm')}
          name="password_confirm"
          autoComplete="new-password"
          error={shown('password_confirm')}
          onChange={clear('password_confirm')}
        />
        <Button type="submit" size="lg" fullWidth>
          {t('reset.submit')}
        </Button>
      </Form>
    );
  }

  return (
    <AuthLayout title={t('reset.heading')} subtitle={done ? undefined : t('reset.subtitle')} footer={footer}>
      {body}
    </AuthLayout>
  );
}
