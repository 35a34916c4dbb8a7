// Picks the user a queue entry is for: search by username or email (the admin user list), or paste
// a UUID. The chosen user shows with a way to change it.
import { Alert, Avatar, Button, http, InlineSearchForm, initialsOf, theme, useErrorText, useTranslation, type PagedResponse, type UserProfile } from '@orepanel/sdk';
import { useState } from 'react';
import { adminApi } from '../paths';

export interface PickedUser {
  uuid: string;
  username: string;
  avatar?: string | null;
  email?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESULTS = 6;

export function UserPicker({ picked, onPick }: { picked: PickedUser | null; onPick(user: PickedUser | null): void }) {
  const { t } = useTranslation('servers');
  const errorText = useErrorText();
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<UserProfile[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (picked) {
    return (
      <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 12 }}>
        <Avatar src={picked.avatar ?? null} initials={initialsOf(null, null, picked.username)} size={36} />
        <div css={{ display: 'grid', minWidth: 0 }}>
          <strong aria-label={t('admin.create.pickedUser')}>{picked.username}</strong>
          <code css={{ fontFamily: theme.font.mono, color: theme.colors.subtle, fontSize: theme.font.size.xs, overflowWrap: 'anywhere' }}>{picked.uuid}</code>
        </div>
        <Button size="sm" variant="secondary" onClick={() => onPick(null)}>
          {t('admin.create.changeUser')}
        </Button>
      </div>
    );
  }

  const search = async () => {
    const wanted = query.trim();
    setFailure(null);
    if (!wanted) return;
    if (UUID.test(wanted)) {
      onPick({ uuid: wanted.toLowerCase(), username: wanted });
      return;
    }
    try {
      const answer = await http.get<PagedResponse<UserProfile>>(adminApi.users, { query: { search: wanted, per_page: RESULTS, page: 1 } });
      setResults(answer.data);
    } catch (error) {
      setResults(null);
      setFailure(errorText(error));
    }
  };

  return (
    <div css={{ display: 'grid', gap: 12 }}>
      <InlineSearchForm
        formLabel={t('admin.create.userSearch')}
        name="user_query"
        label={t('admin.create.userQuery')}
        hint={t('admin.create.userQueryHint')}
        value={query}
        onChange={setQuery}
        onSubmit={search}
        submitLabel={t('admin.create.find')}
        autoComplete="off"
      />
      {failure && <Alert tone="error">{failure}</Alert>}
      {results && results.length === 0 && <p css={{ margin: 0, color: theme.colors.muted }}>{t('admin.create.noUsers')}</p>}
      {results && results.length > 0 && (
        <ul aria-label={t('admin.create.userResults')} css={{ margin: 0, padding: 0, listStyle: 'none', display: 'grid', gap: 8 }}>
          {results.map((user) => (
            <li key={user.uuid} css={{ display: 'flex', alignItems: 'center', gap: 12, padding: '8px 10px', borderRadius: theme.radii.md, background: theme.colors.surfaceRaised }}>
              <Avatar src={user.avatar} initials={initialsOf(user.first_name, user.last_name, user.username)} size={32} />
              <div css={{ display: 'grid', flex: 1, minWidth: 0 }}>
                <strong css={{ overflowWrap: 'anywhere' }}>{user.username}</strong>
                <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>{user.email}</span>
              </div>
              <Button
                size="sm"
                onClick={() => onPick({ uuid: user.uuid, username: user.username, avatar: user.avatar, email: user.email })}
                aria-label={t('admin.create.chooseUser', { name: user.username })}
              >
                {t('admin.create.choose')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
