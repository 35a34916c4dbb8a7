// Linked accounts: the Discord and GitHub accounts the user can log in with (the auth plugin's
// OAuth API). Linking is a full page load of the server's start path, which goes to the provider
// and comes back to /account?oauth_linked=<id> (or ?oauth_error=<code>&provider=<id>) — the notice
// for that return shows at the top of the page. A provider an administrator turned off is not
// offered, but an existing link to it can still be removed. Hidden when there is nothing to show.
import { Alert, Badge, Button, Card, confirmAction, http, LoadError, theme, useApi, useReturnParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';

export const LINKED_ACCOUNTS_API = '/api/user/auth/oauth/accounts';

export const linkPath = (provider: string) => `/api/user/auth/callback/${encodeURIComponent(provider)}/link`;
export const unlinkPath = (provider: string) => `/api/user/auth/callback/${encodeURIComponent(provider)}/unlink`;

interface LinkedAccount {
  provider: string;
  provider_user_id: string;
  provider_username: string;
  linked_at: string;
}

interface ProviderState {
  id: string;
  name: string;
  available: boolean;
}

export interface LinkedAccountsResponse {
  data: LinkedAccount[];
  providers: ProviderState[];
}

const RETURN_PARAMS = ['oauth_linked', 'oauth_error', 'provider'] as const;
/** names for the return notice, shown before the API answers (the products' own spelling) */
const PROVIDER_NAMES: Readonly<Record<string, string>> = { discord: 'Discord', github: 'GitHub' };

/** The notice for a browser coming back from a provider (placed at the top of the page). */
export function LinkedAccountsNotice() {
  const { t, i18n } = useTranslation('account');
  const [params, dismiss] = useReturnParams(RETURN_PARAMS);
  const linked = params.get('oauth_linked');
  const code = params.get('oauth_error');
  const nameOf = (id: string | null) => (id ? (PROVIDER_NAMES[id] ?? id) : '');
  if (linked) {
    return (
      <Alert tone="success" onClose={dismiss}>
        {t('linked.linkedNotice', { provider: nameOf(linked) })}
      </Alert>
    );
  }
  if (code) {
    const key = i18n.exists(`linked.errors.${code}`, { ns: 'account' }) ? `linked.errors.${code}` : 'linked.errors.generic';
    return (
      <Alert tone="error" onClose={dismiss}>
        {t(key, { provider: nameOf(params.get('provider')) })}
      </Alert>
    );
  }
  return null;
}

export function LinkedAccountsSection() {
  const { t } = useTranslation('account');
  const { data, error, reload } = useApi<LinkedAccountsResponse>(LINKED_ACCOUNTS_API);
  const [busy, setBusy] = useState(false);

  if (error && !data) {
    return (
      <Card title={t('linked.title')}>
        <LoadError error={error} onRetry={reload} />
      </Card>
    );
  }
  if (!data) return null;
  const rows = data.providers
    .map((provider) => ({ provider, link: data.data.find((l) => l.provider === provider.id) ?? null }))
    .filter(({ provider, link }) => provider.available || link);
  if (rows.length === 0) return null;

  const unlink = async (provider: ProviderState) => {
    setBusy(true);
    const result = await confirmAction({
      title: t('linked.unlinkTitle', { provider: provider.name }),
      text: t('linked.unlinkText', { provider: provider.name }),
      confirmText: t('linked.unlink'),
      cancelText: t('common.cancel'),
      danger: true,
      action: () => http.post(unlinkPath(provider.id)),
      successText: t('linked.unlinked', { provider: provider.name }),
    });
    setBusy(false);
    if (result.status !== 'cancelled') reload();
  };

  return (
    <Card title={t('linked.title')}>
      <div css={{ display: 'grid', gap: 14 }}>
        <p css={{ margin: 0, color: theme.colors.muted }}>{t('linked.text')}</p>
        <ul aria-label={t('linked.title')} css={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 10 }}>
          {rows.map(({ provider, link }) => (
            <li key={provider.id} css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 10 }}>
              <span css={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
                <span css={{ fontWeight: theme.font.weight.semibold }}>{provider.name}</span>
                {link ? <Badge tone="success">{t('linked.linkedAs', { name: link.provider_username })}</Badge> : <Badge>{t('linked.notLinked')}</Badge>}
              </span>
              {link ? (
                <Button size="sm" variant="ghost" disabled={busy} onClick={() => void unlink(provider)} aria-label={t('linked.unlinkOne', { provider: provider.name })}>
                  {t('linked.unlink')}
                </Button>
              ) : (
                <Button size="sm" variant="secondary" to={linkPath(provider.id)} reloadDocument disabled={busy}>
                  {t('linked.link', { provider: provider.name })}
                </Button>
              )}
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
