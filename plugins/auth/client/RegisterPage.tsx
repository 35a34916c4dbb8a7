// /auth/register: the new customer's names, email, username and password (twice), and the referral
// code of an invitation link (?ref=). Every rule is checked here first (registration-rules.ts mirrors
// the server), so all mistakes show at once; what only the server knows (a taken username or email)
// comes back as an ApiError with `field` and the Form puts it on that input.
import {
  Alert,
  AuthLayout,
  Button,
  completeLogin,
  Form,
  Grid,
  http,
  isSettingEnabled,
  PasswordField,
  TextField,
  useSearchParams,
  useSetting,
  useTranslation,
  type FormValues,
} from '@orepanel/sdk';
import { useState, type FormEvent } from 'react';
import { AuthFooter } from './AuthFooter';
import { CaptchaField, captchaToken } from './CaptchaField';
import { checkRegistration, NAME_MAX_LENGTH, REFERRAL_MAX_LENGTH, registrationBody, type RegistrationField, type RegistrationInput } from './registration-rules';

const REGISTER_API = '/api/user/auth/register';

/** Fields in the order they appear, so the first one with a problem gets the focus. */
const FIELD_ORDER: readonly RegistrationField[] = ['first_name', 'last_name', 'email', 'username', 'password', 'password_confirm', 'ref'];

export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const registrationOpen = isSettingEnabled(useSetting('registration_enabled', true));
  const [values, setValues] = useState<RegistrationInput>(() => ({
    first_name: '',
    last_name: '',
    email: '',
    username: '',
    password: '',
    password_confirm: '',
    ref: searchParams.get('ref')?.trim() ?? '',
  }));
  // Problems show once the customer tried to submit; from then on they update as they type.
  const [checked, setChecked] = useState(false);
  const problems = checkRegistration(values);
  const shownProblem = (field: RegistrationField) => (checked && problems[field] ? t(problems[field]) : undefined);

  const field = (name: RegistrationField) => ({
    name,
    value: values[name],
    error: shownProblem(name),
    onChange: (value: string) => setValues((current) => ({ ...current, [name]: value })),
  });

  async function register(formValues: FormValues, event: FormEvent<HTMLFormElement>) {
    const first = FIELD_ORDER.find((name) => problems[name]);
    if (first) {
      setChecked(true);
      const input = event.currentTarget.elements.namedItem(first);
      if (input instanceof HTMLElement) input.focus();
      return;
    }
    await http.post(REGISTER_API, { ...registrationBody(values), ...captchaToken(formValues) });
    await completeLogin();
  }

  const footer = <AuthFooter switchTo={{ question: t('register.haveAccount'), label: t('register.login'), to: '/auth/login' }} />;

  if (!registrationOpen) {
    return (
      <AuthLayout title={t('register.closedTitle')} footer={footer}>
        <Alert tone="info">{t('register.closedText')}</Alert>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('register.heading')} subtitle={t('register.subtitle')} footer={footer}>
      <Form onSubmit={register} noValidate aria-label={t('register.title')}>
        <Grid min={150} gap={16}>
          <TextField label={t('register.firstName')} autoComplete="given-name" maxLength={NAME_MAX_LENGTH} autoFocus {...field('first_name')} />
          <TextField label={t('register.lastName')} autoComplete="family-name" maxLength={NAME_MAX_LENGTH} {...field('last_name')} />
        </Grid>
        <TextField label={t('register.email')} type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} {...field('email')} />
        <TextField
          label={t('register.username')}
          hint={t('register.usernameHint')}
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          maxLength={32}
          {...field('username')}
        />
        <PasswordField label={t('register.password')} hint={t('register.passwordHint')} autoComplete="new-password" {...field('password')} />
        <PasswordField label={t('register.passwordConfirm')} autoComplete="new-password" {...field('password_confirm')} />
        <TextField
          label={t('register.referral')}
          hint={t('register.referralHint')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={REFERRAL_MAX_LENGTH}
          {...field('ref')}
        />
        <CaptchaField action="register" />
        <Button type="submit" size="lg" fullWidth>
          {t('register.submit')}
        </Button>
      </Form>
    </AuthLayout>
  );
}
