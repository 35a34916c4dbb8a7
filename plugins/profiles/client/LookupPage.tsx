// /lookup: find people by name (at least 3 characters, at most 10 results) to open their profiles;
// staff holding the support permission also find an account by the 6-digit support PIN its owner
// reads out to them. Searches run on submit, not on every keystroke: each one counts against the
// lookup rate limit.
import {
  Alert,
  Avatar,
  Badge,
  Button,
  Card,
  EmptyState,
  InlineSearchForm,
  Link,
  Page,
  PermissionGate,
  RoleBadge,
  http,
  initialsOf,
  isSettingEnabled,
  theme,
  useHasPermission,
  useRouteAvailable,
  useSetting,
  useTranslation,
} from '@orepanel/sdk';
import { useState, type ReactNode } from 'react';
import { NAME_SEARCH, SUPPORT_PIN_PATTERN, type PersonMatch } from '../shared/people';
import { SEARCH_URL, SUPPORT_PIN_PERMISSION, supportPinUrl, type PinMatch } from './api';

const c = theme.colors;

function ResultRow({ children }: { children: ReactNode }) {
  return (
    <li css={{ display: 'flex', alignItems: 'center', gap: 12, padding: '10px 0', borderBottom: `1px solid ${c.border}`, '&:last-of-type': { borderBottom: 0 }, minWidth: 0 }}>
      {children}
    </li>
  );
}

function PersonName({ uuid, username }: { uuid: string; username: string }) {
  const path = `/profile/${uuid}`;
  const linkable = useRouteAvailable(path);
  const style = { fontWeight: theme.font.weight.semibold, overflowWrap: 'anywhere' as const };
  return linkable ? (
    <Link to={path} css={{ ...style, color: c.text }}>
      {username}
    </Link>
  ) : (
    <span css={style}>{username}</span>
  );
}

function NameSearch() {
  const { t } = useTranslation('profiles');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<{ query: string; data: PersonMatch[] } | null>(null);

  async function search() {
    const query = text.trim();
    if (query.length < NAME_SEARCH.minLength) {
      setProblem(t('lookup.name.tooShort', { min: NAME_SEARCH.minLength }));
      return;
    }
    const answer = await http.get<{ data: PersonMatch[] }>(SEARCH_URL, { query: { query } });
    setResult({ query, data: answer.data });
  }

  return (
    <Card title={t('lookup.name.title')}>
      <div css={{ display: 'grid', gap: 16 }}>
        <InlineSearchForm
          formLabel={t('lookup.name.title')}
          submitLabel={t('lookup.search')}
          onSubmit={search}
          minFieldWidth={220}
          label={t('lookup.name.label')}
          name="query"
          value={text}
          onChange={(value) => {
            setText(value);
            setProblem(null);
          }}
          error={problem}
          hint={t('lookup.name.hint', { min: NAME_SEARCH.minLength, max: NAME_SEARCH.maxResults })}
          maxLength={NAME_SEARCH.maxLength}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        {result &&
          (result.data.length === 0 ? (
            <EmptyState icon="search" title={t('lookup.name.none', { query: result.query })} />
          ) : (
            <ul aria-label={t('lookup.name.results')} css={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {result.data.map((person) => (
                <ResultRow key={person.uuid}>
                  <Avatar src={person.avatar} initials={initialsOf(null, null, person.username)} size={36} />
                  <PersonName uuid={person.uuid} username={person.username} />
                  <RoleBadge name={person.role.name} color={person.role.color} />
                </ResultRow>
              ))}
            </ul>
          ))}
      </div>
    </Card>
  );
}

function PinMatchRow({ account }: { account: PinMatch }) {
  const { t } = useTranslation('profiles');
  const editPath = `/mc-admin/users/${account.uuid}/edit`;
  const canEdit = useRouteAvailable(editPath);
  return (
    <ResultRow>
      <Avatar src={null} initials={initialsOf(account.first_name, account.last_name, account.username)} size={36} />
      <div css={{ display: 'grid', gap: 2, flex: 1, minWidth: 0 }}>
        <span css={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
          {account.banned ? <strong>{account.username}</strong> : <PersonName uuid={account.uuid} username={account.username} />}
          <Badge>{account.role_name}</Badge>
          {account.banned && <Badge tone="danger">{t('lookup.pin.banned')}</Badge>}
        </span>
        <span css={{ color: c.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>
          {t('lookup.pin.identity', { name: `${account.first_name} ${account.last_name}`.trim(), email: account.email })}
        </span>
      </div>
      {canEdit && (
        <Button to={editPath} size="sm" variant="secondary" icon="settings">
          {t('lookup.pin.manage')}
        </Button>
      )}
    </ResultRow>
  );
}

function PinSearch() {
  const { t } = useTranslation('profiles');
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<PinMatch[] | null>(null);

  async function search() {
    const typed = pin.trim();
    if (!SUPPORT_PIN_PATTERN.test(typed)) {
      setProblem(t('lookup.pin.format'));
      return;
    }
    const answer = await http.get<{ users: PinMatch[] }>(supportPinUrl(typed));
    setResult(answer.users);
  }

  return (
    <Card title={t('lookup.pin.title')}>
      <div css={{ display: 'grid', gap: 16 }}>
        <InlineSearchForm
          formLabel={t('lookup.pin.title')}
          submitLabel={t('lookup.search')}
          onSubmit={search}
          minFieldWidth={160}
          label={t('lookup.pin.label')}
          name="pin"
          value={pin}
          onChange={(value) => {
            setPin(value);
            setProblem(null);
          }}
          error={problem}
          hint={t('lookup.pin.hint')}
          maxLength={6}
          inputMode="numeric"
          autoComplete="off"
        />
        {result &&
          (result.length === 0 ? (
            <EmptyState icon="search" title={t('lookup.pin.none')} />
          ) : (
            <ul aria-label={t('lookup.pin.results')} css={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {result.map((account) => (
                <PinMatchRow key={account.uuid} account={account} />
              ))}
            </ul>
          ))}
      </div>
    </Card>
  );
}

export default function LookupPage() {
  const { t } = useTranslation('profiles');
  const profilesOn = isSettingEnabled(useSetting('allow_public_profiles'));
  const staff = useHasPermission(SUPPORT_PIN_PERMISSION);
  return (
    <Page title={t('lookup.title')} description={t('lookup.description')}>
      <div css={{ display: 'grid', gap: 16, maxWidth: 760 }}>
        {profilesOn ? <NameSearch /> : !staff && <Alert tone="info">{t('lookup.off')}</Alert>}
        <PermissionGate permission={SUPPORT_PIN_PERMISSION}>
          <PinSearch />
        </PermissionGate>
      </div>
    </Page>
  );
}
