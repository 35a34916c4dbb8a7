// /auth/forgot-password: an e-mail address → POST /api/user/auth/forgot, then the page that says a
// link is on its way (/auth/forgot-password/sent). The answer is the same whether or not an account
// uses the address (nothing reveals who has an account). Posted before the page's script runs, the
// server relays the form to the same route and sends the browser to the same page (plugin.json).
import { AuthLayout, Button, Form, http, TextField, useNavigate, useTranslation, type FormValues } from '@orepanel/sdk';
import { useState } from 'react';
import { CaptchaField, captchaToken } from './CaptchaField';
import { ForgotPasswordFooter } from './ForgotPasswordFooter';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from './registration-rules';

const FORGOT_API = '/api/user/auth/forgot';
const SENT_PATH = '/auth/forgot-password/sent';

export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);

  async function send(values: FormValues) {
    const email = (values.email ?? '').trim();
    if (email === '') return setProblem(t('validation.required'));
    if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) return setProblem(t('validation.email'));
    await http.post(FORGOT_API, { email, ...captchaToken(values) });
    navigate(SENT_PATH);
  }

  return (
    <AuthLayout title={t('forgot.heading')} subtitle={t('forgot.subtitle')} footer={<ForgotPasswordFooter />}>
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
    </AuthLayout>
  );
}
