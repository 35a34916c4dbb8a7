// The account's anti-abuse review flags on /mc-admin/users/:uuid/edit: a second account in the same
// browser or on the same address, a VPN address, a VPN check that could not be made. Nothing was
// blocked — an administrator with admin.users.edit looks, then clears the flag with an optional note
// (the evidence cleared does not raise it again).
import {
  Badge,
  Button,
  Card,
  dialogs,
  Form,
  http,
  LoadError,
  Link,
  PermissionGate,
  Skeleton,
  TextField,
  theme,
  useApi,
  useTranslation,
  type FormValues,
  ADMIN_PATHS,
  ADMIN_PERMISSIONS,
  useDateTime,
} from '@orepanel/sdk';
import { useState } from 'react';
import { CLEAR_NOTE_MAX, reasonKey, reviewFlagUrl, type ReviewFlag } from './review-flags';

const muted = { margin: 0, color: theme.colors.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' } as const;
const line = { margin: 0, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' } as const;

function FlagItem({ uuid, flag, onCleared }: { uuid: string; flag: ReviewFlag; onCleared(flag: ReviewFlag): void }) {
  const { t } = useTranslation('admin-users');
  const dateTime = useDateTime();
  const open = flag.status === 'open';

  async function clear(values: FormValues) {
    const note = (values.note ?? '').trim();
    const answer = await http.post<{ flag: ReviewFlag }>(reviewFlagUrl.clear(uuid, flag.id), note ? { note } : {});
    onCleared(answer.flag);
    void dialogs.toast(t('reviewFlags.clearedToast'));
  }

  return (
    <li
      aria-label={t(reasonKey(flag.reason))}
      css={{ display: 'grid', gap: 6, padding: '12px 0', borderTop: `1px solid ${theme.colors.border}`, '&:first-of-type': { borderTop: 'none', paddingTop: 0 } }}
    >
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
        <Badge tone={open ? 'warning' : 'neutral'}>{t(open ? 'reviewFlags.open' : 'reviewFlags.cleared')}</Badge>
        <strong css={{ fontSize: theme.font.size.md }}>{t(reasonKey(flag.reason))}</strong>
      </div>
      {flag.linked_accounts.length > 0 && (
        <p css={line}>
          {t('reviewFlags.linkedAccounts')}{' '}
          {flag.linked_accounts.map((account, index) => (
            <span key={account.uuid}>
              {index > 0 && ', '}
              <Link to={ADMIN_PATHS.userEdit(account.uuid)}>{account.username}</Link>
            </span>
          ))}
        </p>
      )}
      {flag.addresses.length > 0 && <p css={line}>{t('reviewFlags.addresses', { list: flag.addresses.join(', ') })}</p>}
      {flag.linked_accounts.length > 0 && flag.ip && <p css={line}>{t('reviewFlags.lastAddress', { ip: flag.ip })}</p>}
      {flag.detail && <p css={line}>{t('reviewFlags.detail', { detail: flag.detail })}</p>}
      <p css={muted}>{t('reviewFlags.seen', { first: dateTime(flag.created_at), last: dateTime(flag.updated_at) })}</p>
      {!open && (
        <p css={muted}>
          {t('reviewFlags.clearedBy', { name: flag.cleared_by?.username ?? t('reviewFlags.someone'), when: dateTime(flag.cleared_at ?? flag.updated_at) })}
          {flag.clear_note ? ` — ${flag.clear_note}` : ''}
        </p>
      )}
      {open && (
        <PermissionGate permission={ADMIN_PERMISSIONS.usersEdit}>
          <Form onSubmit={clear} aria-label={t('reviewFlags.clearFlag', { reason: t(reasonKey(flag.reason)) })}>
            <TextField label={t('reviewFlags.note')} name="note" maxLength={CLEAR_NOTE_MAX} autoComplete="off" />
            <div>
              <Button type="submit" variant="secondary">
                {t('reviewFlags.clear')}
              </Button>
            </div>
          </Form>
        </PermissionGate>
      )}
    </li>
  );
}

export function ReviewFlagsCard({ uuid }: { uuid: string }) {
  const { t } = useTranslation('admin-users');
  const loaded = useApi<{ data: ReviewFlag[] }>(reviewFlagUrl.list(uuid));
  // flags cleared here, by id: shown from the server's answer without reloading the list
  const [cleared, setCleared] = useState<Record<number, ReviewFlag>>({});
  const flags = loaded.data?.data.map((flag) => cleared[flag.id] ?? flag);

  let body;
  if (flags === undefined) {
    body =
      loaded.error && !loaded.loading ? (
        <LoadError title={t('common.loadFailed')} error={loaded.error} onRetry={loaded.reload} />
      ) : (
        <Skeleton lines={2} height={18} label={t('common.loading')} />
      );
  } else if (flags.length === 0) {
    body = <p css={muted}>{t('reviewFlags.none')}</p>;
  } else {
    body = (
      <ul css={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {flags.map((flag) => (
          <FlagItem key={flag.id} uuid={uuid} flag={flag} onCleared={(next) => setCleared((current) => ({ ...current, [next.id]: next }))} />
        ))}
      </ul>
    );
  }

  return (
    <Card title={t('reviewFlags.title')}>
      <div css={{ display: 'grid', gap: 12 }}>
        <p css={muted}>{t('reviewFlags.explain')}</p>
        {body}
      </div>
    </Card>
  );
}
