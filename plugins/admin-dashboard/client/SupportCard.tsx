// The support component. The panel has no ticket system yet, so it shows no ticket count (an
// invented zero would be a lie); it does what support needs today: find the account behind the
// 6-digit support PIN a user reads out to staff (issue 3: the PIN identifies a user to staff).
import { Alert, Badge, Card, http, InlineSearchForm, Link, theme, useHasPermission, useTranslation, ADMIN_PATHS, ADMIN_PERMISSIONS } from '@orepanel/sdk';
import { useState } from 'react';
import { dashboardUrl, type SupportPinMatch } from './dashboard-api';

const PIN = /^\d{6}$/;

export function SupportCard() {
  const { t } = useTranslation('admin-dashboard');
  const mayEditUsers = useHasPermission(ADMIN_PERMISSIONS.usersEdit);
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [found, setFound] = useState<{ pin: string; users: SupportPinMatch[] } | null>(null);

  async function lookUp() {
    const wanted = pin.trim();
    if (!PIN.test(wanted)) {
      setProblem(t('validation.pin'));
      return;
    }
    const answer = await http.get<{ users: SupportPinMatch[] }>(dashboardUrl.dashboardSupportPin(wanted));
    setFound({ pin: wanted, users: answer.users });
  }

  return (
    <Card title={t('dashboard.support.title')}>
      <div css={{ display: 'grid', gap: 14 }}>
        <p css={{ margin: 0, color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('dashboard.support.noTickets')}</p>
        <InlineSearchForm
          formLabel={t('dashboard.support.lookup')}
          submitLabel={t('dashboard.support.find')}
          onSubmit={lookUp}
          label={t('dashboard.support.pin')}
          name="pin"
          value={pin}
          onChange={(value) => {
            setPin(value);
            setProblem(null);
          }}
          error={problem}
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          hint={t('dashboard.support.pinHint')}
        />
        {found &&
          (found.users.length === 0 ? (
            <Alert tone="info">{t('dashboard.support.none', { pin: found.pin })}</Alert>
          ) : (
            <ul aria-label={t('dashboard.support.results')} css={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 8 }}>
              {found.users.map((user) => (
                <li key={user.uuid} css={{ display: 'grid', gap: 2, padding: '8px 10px', borderRadius: theme.radii.md, background: theme.colors.surfaceRaised }}>
                  <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
                    {mayEditUsers ? (
                      <Link to={ADMIN_PATHS.userEdit(user.uuid)} css={{ color: theme.colors.primaryHover, fontWeight: 600 }}>
                        {user.username}
                      </Link>
                    ) : (
                      <strong>{user.username}</strong>
                    )}
                    <Badge tone="neutral">{user.role_name}</Badge>
                    {user.banned && <Badge tone="danger">{t('users.status.banned')}</Badge>}
                  </div>
                  <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>
                    {t('dashboard.support.who', { name: `${user.first_name} ${user.last_name}`.trim(), email: user.email })}
                  </span>
                </li>
              ))}
            </ul>
          ))}
      </div>
    </Card>
  );
}
