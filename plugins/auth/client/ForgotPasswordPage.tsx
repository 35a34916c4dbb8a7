// /auth/forgot-password: an e-mail address → POST /api/user/auth/forgot. The answer is the same
// whether or not an account uses the address (nothing reveals who has an account), so the page
// always shows the same message.
import { Alert, AuthLayout, Button, Form, http, TextField, useTranslation, type FormValues } from '@orepanel/sdk';
import { useState } from 'react';
import { AuthFooter } from './AuthFooter';
import { CaptchaField, captchaToken } from './CaptchaField';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from './registration-rules';

const FORGOT_API = '/api/user/auth/forgot';

export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [sent, setSent] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function send(values: FormValues) {
    const email = (values.email ?? '').trim();
    if (email === '') return setProblem(t('validation.required'));
    if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) return setProblem(t('validation.email'));
    await http.post(FORGOT_API, { email, ...captchaToken(values) });
    setSent(true);
  }

  const footer = <AuthFooter switchTo={{ question: t('forgot.remembered'), label: t('forgot.login'), to: '/auth/login' }} />;

  return (
    <AuthLayout title={t('forgot.heading')} subtitle={sent ? undefined : t('forgot.subtitle')} footer={footer}>
      {sent ? (
        <Alert tone="success">{t('forgot.sent')}</Alert>
      ) : (
        <Form onSubmit={send} noValidate aria-label={t('forgot.title')}>
          <TextField
            label={t('forgot.email')}
            name="email"
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={EMAIL_MAX_LENGTH}
            autoFocus
            error={problem}
            onChange={() => setProblem(null)}
          />
          <CaptchaField action="forgot" />
          <Button type="submit" size="lg" fullWidth>
            {t('forgot.submit')}
          </Button>
        </Form>
      )}
    </AuthLayout>
  );
}
