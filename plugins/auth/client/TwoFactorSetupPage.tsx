// /auth/2fa/setup (login needed): GET /api/user/auth/2fa/setup gives a new secret and its otpauth://
// address; the user adds it to an authenticator app (scanning the QR code, opening the link on a
// phone, or typing the secret), confirms with a code (POST), and sees the ten recovery codes once.
import {
  Alert,
  Button,
  Card,
  CopyButton,
  Form,
  http,
  Icon,
  Page,
  Skeleton,
  TextField,
  theme,
  type FormValues,
  useApi,
  useErrorText,
  useSession,
  useTranslation,
} from '@orepanel/sdk';
import { useState } from 'react';
import { QrCodeImage } from './QrCodeImage';
import { groupSecret, normaliseTwoFactorCode, TWO_FA_CODE_MAX_LENGTH } from './two-factor-code';

const SETUP_API = '/api/user/auth/2fa/setup';

interface SetupSecret {
  secret: string;
  otpauth_url: string;
  issuer?: string;
  account_name?: string;
  digits?: number;
  period?: number;
}

const appLinkStyle = {
  display: 'inline-flex',
  alignItems: 'center',
  gap: 8,
  padding: '8px 14px',
  borderRadius: theme.radii.md,
  border: `1px solid ${theme.colors.border}`,
  color: theme.colors.primaryHover,
  fontWeight: theme.font.weight.medium,
  textDecoration: 'none',
  '&:hover': { borderColor: theme.colors.borderStrong, textDecoration: 'underline' },
  '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
} as const;

const mono = { fontFamily: theme.font.mono, overflowWrap: 'anywhere', color: theme.colors.text } as const;

function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const { t } = useTranslation('auth');
  return (
    <Card title={t('twoFactor.recoveryTitle')}>
      <div css={{ display: 'grid', gap: 16 }}>
        <Alert tone="success">{t('twoFactor.enabled')}</Alert>
        <Alert tone="warning">{t('twoFactor.recoveryText')}</Alert>
        <ul
          aria-label={t('twoFactor.recoveryTitle')}
          css={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))', gap: 8, margin: 0, padding: 0, listStyle: 'none' }}
        >
          {codes.map((code) => (
            <li
              key={code}
              css={[
                mono,
                { padding: '8px 10px', background: theme.colors.background, border: `1px solid ${theme.colors.border}`, borderRadius: theme.radii.md, textAlign: 'center' },
              ]}
            >
              {code}
            </li>
          ))}
        </ul>
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <CopyButton text={codes.join('\n')} label={t('twoFactor.copyCodes')} />
          <Button to="/account?two_fa=enabled">{t('twoFactor.done')}</Button>
        </div>
      </div>
    </Card>
  );
}

export default function TwoFactorSetupPage() {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  const { user, refresh } = useSession();
  const setup = useApi<SetupSecret>(user?.two_fa_enabled ? null : SETUP_API);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function confirm(values: FormValues) {
    const code = normaliseTwoFactorCode(values.code ?? '');
    if (!code || !/^\d{6}$/.test(code.replace(/\s/g, ''))) return setProblem(t('twoFactor.invalidSetupCode'));
    const answer = await http.post<{ success: boolean; recovery_codes: string[] }>(SETUP_API, { code });
    setCodes(answer.recovery_codes);
    await refresh();
  }

  let body;
  if (codes) body = <RecoveryCodes codes={codes} />;
  else if (user?.two_fa_enabled || setup.error?.code === 'TWO_FA_ALREADY_ENABLED') {
    body = (
      <Card>
        <div css={{ display: 'grid', gap: 16, justifyItems: 'start' }}>
          <Alert tone="info">{t('twoFactor.alreadyOn')}</Alert>
          <Button to="/account">{t('twoFactor.backToAccount')}</Button>
        </div>
      </Card>
    );
  } else if (setup.error && !setup.data) {
    body = (
      <Alert tone="error">
        <div css={{ display: 'grid', gap: 10, justifyItems: 'start' }}>
          <span>{errorText(setup.error)}</span>
          <Button size="sm" variant="secondary" onClick={setup.reload}>
            {t('twoFactor.retry')}
          </Button>
        </div>
      </Alert>
    );
  } else if (!setup.data) {
    body = (
      <Card>
        <Skeleton lines={4} label={t('twoFactor.loading')} />
      </Card>
    );
  } else {
    const secret = setup.data;
    body = (
      <Card title={t('twoFactor.setupCard')}>
        <div css={{ display: 'grid', gap: 20, maxWidth: 640 }}>
          <ol css={{ margin: 0, paddingLeft: 20, display: 'grid', gap: 6, color: theme.colors.muted }}>
            <li>{t('twoFactor.step1')}</li>
            <li>{t('twoFactor.step2')}</li>
            <li>{t('twoFactor.step3')}</li>
          </ol>
          <div css={{ display: 'grid', gap: 12, justifyItems: 'start' }}>
            <QrCodeImage text={secret.otpauth_url} label={t('twoFactor.qrLabel')} />
            {/* otpauth:// opens the authenticator app registered on this device (phones) */}
            <a href={secret.otpauth_url} css={appLinkStyle}>
              <Icon name="link" size={16} />
              {t('twoFactor.openApp')}
            </a>
          </div>
          <div css={{ display: 'grid', gap: 8 }}>
            <div css={{ fontSize: theme.font.size.sm, color: theme.colors.muted }}>{t('twoFactor.secretLabel')}</div>
            <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 10 }}>
              <code
                aria-label={t('twoFactor.secretLabel')}
                css={[
                  mono,
                  {
                    fontSize: theme.font.size.lg,
                    letterSpacing: '0.08em',
                    padding: '8px 12px',
                    background: theme.colors.background,
                    border: `1px solid ${theme.colors.border}`,
                    borderRadius: theme.radii.md,
                  },
                ]}
              >
                {groupSecret(secret.secret)}
              </code>
              <CopyButton text={secret.secret} label={t('twoFactor.copySecret')} />
            </div>
            <div css={{ fontSize: theme.font.size.sm, color: theme.colors.subtle }}>
              {t('twoFactor.secretDetails', { account: secret.account_name ?? user?.username ?? '', digits: String(secret.digits ?? 6), period: String(secret.period ?? 30) })}
            </div>
            <details>
              <summary css={{ cursor: 'pointer', fontSize: theme.font.size.sm, color: theme.colors.muted }}>{t('twoFactor.showUri')}</summary>
              <div css={[mono, { marginTop: 8, fontSize: theme.font.size.sm }]}>{secret.otpauth_url}</div>
            </details>
          </div>
          <Form onSubmit={confirm} noValidate aria-label={t('twoFactor.setupTitle')}>
            <TextField
              label={t('twoFactor.setupCode')}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={TWO_FA_CODE_MAX_LENGTH}
              error={problem}
              onChange={() => setProblem(null)}
            />
            <div>
              <Button type="submit">{t('twoFactor.setupSubmit')}</Button>
            </div>
          </Form>
        </div>
      </Card>
    );
  }

  return (
    <Page title={t('twoFactor.setupTitle')} description={t('twoFactor.setupDescription')}>
      {body}
    </Page>
  );
}
