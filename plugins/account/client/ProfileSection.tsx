// Profile: first and last name, e-mail, avatar and background addresses → POST
// /api/user/session/info/update. A new e-mail address needs the current password (the field shows
// once the address differs) and is unverified until its mailed link is followed; while it is, the
// card offers to send the link again.
import {
  Alert,
  Badge,
  Button,
  Card,
  Form,
  Grid,
  http,
  PasswordField,
  TextField,
  theme,
  useErrorText,
  useSession,
  useTranslation,
  type FormValues,
  type SessionUser,
} from '@orepanel/sdk';
import { useState, type FormEvent } from 'react';
import {
  changesAddress,
  checkProfile,
  EMAIL_MAX_LENGTH,
  IMAGE_URL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PROFILE_FIELDS,
  profileBody,
  profileFromUser,
  type ProfileField,
  type ProfileInput,
} from './profile-rules';

export const PROFILE_API = '/api/user/session/info/update';
export const RESEND_VERIFICATION_API = '/api/user/auth/verify/resend';

interface ProfileAnswer {
  success: boolean;
  verification_sent: boolean;
}

function VerificationNotice() {
  const { t } = useTranslation('account');
  const errorText = useErrorText();
  const [state, setState] = useState<{ status: 'idle' | 'sending' | 'sent' } | { status: 'failed'; text: string }>({ status: 'idle' });
  const resend = async () => {
    setState({ status: 'sending' });
    try {
      await http.post(RESEND_VERIFICATION_API);
      setState({ status: 'sent' });
    } catch (error) {
      setState({ status: 'failed', text: errorText(error) });
    }
  };
  return (
    <Alert tone={state.status === 'failed' ? 'error' : state.status === 'sent' ? 'success' : 'warning'}>
      <div css={{ display: 'grid', gap: 10, justifyItems: 'start' }}>
        <span>{state.status === 'sent' ? t('profile.verificationResent') : state.status === 'failed' ? state.text : t('profile.unverified')}</span>
        {state.status !== 'sent' && (
          <Button size="sm" variant="secondary" loading={state.status === 'sending'} onClick={() => void resend()}>
            {t('profile.resendVerification')}
          </Button>
        )}
      </div>
    </Alert>
  );
}

export function ProfileSection({ user }: { user: SessionUser }) {
  const { t } = useTranslation('account');
  const { refresh } = useSession();
  const [values, setValues] = useState<ProfileInput>(() => profileFromUser(user));
  const [checked, setChecked] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [passwordProblem, setPasswordProblem] = useState<string | null>(null);
  const problems = checkProfile(values);
  const needsPassword = changesAddress(values, user);
  const shown = (name: ProfileField) => (checked && problems[name] ? t(problems[name]) : undefined);

  const field = (name: ProfileField) => ({
    name,
    value: values[name],
    error: shown(name),
    onChange: (value: string) => {
      setSaved(null);
      setValues((current) => ({ ...current, [name]: value }));
    },
  });

  async function save(formValues: FormValues, event: FormEvent<HTMLFormElement>) {
    setSaved(null);
    const focus = (name: string) => {
      const input = event.currentTarget.elements.namedItem(name);
      if (input instanceof HTMLElement) input.focus();
    };
    const first = PROFILE_FIELDS.find((name) => problems[name]);
    if (first) {
      setChecked(true);
      focus(first);
      return;
    }
    const currentPassword = formValues.current_password ?? '';
    if (needsPassword && currentPassword === '') {
      setPasswordProblem(t('validation.required'));
      focus('current_password');
      return;
    }
    const answer = await http.post<ProfileAnswer>(PROFILE_API, needsPassword ? { ...profileBody(values), current_password: currentPassword } : profileBody(values));
    await refresh();
    setSaved(answer.verification_sent ? t('profile.savedVerify') : t('profile.saved'));
  }

  const avatar = values.avatar.trim();
  return (
    <Card title={t('profile.title')} actions={user.verified ? <Badge tone="success">{t('profile.verified')}</Badge> : <Badge tone="warning">{t('profile.notVerified')}</Badge>}>
      <div css={{ display: 'grid', gap: 16 }}>
        <div css={{ display: 'flex', alignItems: 'center', gap: 14, minWidth: 0 }}>
          {avatar && !problems.avatar ? (
            <img
              src={avatar}
              alt={t('profile.avatarPreview')}
              width={56}
              height={56}
              referrerPolicy="no-referrer"
              css={{ borderRadius: '50%', objectFit: 'cover', flex: 'none', background: theme.colors.surfaceRaised }}
            />
          ) : null}
          <div css={{ minWidth: 0 }}>
            <div css={{ fontWeight: theme.font.weight.semibold, overflowWrap: 'anywhere' }}>{user.username}</div>
            <div css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{user.role_name}</div>
          </div>
        </div>
        {!user.verified && <VerificationNotice />}
        {saved && (
          <Alert tone="success" onClose={() => setSaved(null)}>
            {saved}
          </Alert>
        )}
        <Form onSubmit={save} noValidate aria-label={t('profile.title')}>
          <Grid min={160} gap={16}>
            <TextField label={t('profile.firstName')} autoComplete="given-name" maxLength={NAME_MAX_LENGTH} {...field('first_name')} />
            <TextField label={t('profile.lastName')} autoComplete="family-name" maxLength={NAME_MAX_LENGTH} {...field('last_name')} />
          </Grid>
          <TextField
            label={t('profile.email')}
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={EMAIL_MAX_LENGTH}
            hint={t('profile.emailHint')}
            {...field('email')}
          />
          {needsPassword && (
            <PasswordField
              label={t('profile.currentPassword')}
              name="current_password"
              autoComplete="current-password"
              hint={t('profile.currentPasswordHint')}
              error={passwordProblem}
              onChange={() => setPasswordProblem(null)}
            />
          )}
          <TextField
            label={t('profile.avatar')}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            maxLength={IMAGE_URL_MAX_LENGTH}
            hint={t('profile.imageHint')}
            {...field('avatar')}
          />
          <TextField
            label={t('profile.background')}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            maxLength={IMAGE_URL_MAX_LENGTH}
            hint={t('profile.imageHint')}
            {...field('background')}
          />
          <div>
            <Button type="submit">{t('profile.submit')}</Button>
          </div>
        </Form>
      </div>
    </Card>
  );
}
