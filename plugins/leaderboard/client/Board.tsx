// One board: the signed-in user's place, then the top N with avatar, name (a link to the profile when
// profiles are on), the Early Supporter badge of one of the panel's first accounts, role and value.
import {
  Avatar,
  Badge,
  Card,
  DataTable,
  EarlySupporterBadge,
  Grid,
  Link,
  RoleBadge,
  StatCard,
  initialsOf,
  theme,
  useApi,
  useRouteAvailable,
  useSession,
  useTranslation,
  type DataColumn,
} from '@orepanel/sdk';
import type { BoardType, LeaderboardAnswer, RankedUser } from '../shared/boards';

export const leaderboardUrl = (type: BoardType) => `/api/user/leaderboard/${type}`;

const ICONS = { coins: 'coins', servers: 'server', minutes_afk: 'clock', referrals: 'users', links: 'link' } as const satisfies Record<BoardType, string>;

function PersonCell({ row, isMe }: { row: RankedUser; isMe: boolean }) {
  const { t } = useTranslation('leaderboard');
  const profilePath = `/profile/${row.uuid}`;
  const linkable = useRouteAvailable(profilePath);
  return (
    <span css={{ display: 'inline-flex', alignItems: 'center', gap: 10, minWidth: 0 }}>
      <Avatar src={row.avatar} initials={initialsOf(null, null, row.username)} size={28} />
      {linkable ? (
        <Link to={profilePath} css={{ color: theme.colors.text, fontWeight: theme.font.weight.semibold, overflowWrap: 'anywhere' }}>
          {row.username}
        </Link>
      ) : (
        <span css={{ fontWeight: theme.font.weight.semibold, overflowWrap: 'anywhere' }}>{row.username}</span>
      )}
      {row.early_supporter && <EarlySupporterBadge />}
      {isMe && <Badge tone="primary">{t('you')}</Badge>}
    </span>
  );
}

export function Board({ type }: { type: BoardType }) {
  const { t } = useTranslation('leaderboard');
  const { user } = useSession();
  const { data, error, loading, reload } = useApi<LeaderboardAnswer>(leaderboardUrl(type));

  const columns: DataColumn<RankedUser>[] = [
    { id: 'rank', header: t('columns.rank'), cell: (row) => <strong>{t('rank', { rank: row.rank })}</strong> },
    { id: 'user', header: t('columns.user'), primary: true, cell: (row) => <PersonCell row={row} isMe={row.uuid === user?.uuid} /> },
    { id: 'role', header: t('columns.role'), cell: (row) => <RoleBadge name={row.role.name} color={row.role.color} /> },
    { id: 'value', header: t(`boards.${type}.value`), align: 'end', cell: (row) => t('number', { value: row.value }) },
  ];

  return (
    <div css={{ display: 'grid', gap: 16 }}>
      {data && (
        <Grid min={220}>
          <StatCard
            icon="trophy"
            label={t('me.rank')}
            value={data.me.rank === null ? t('me.unranked') : t('rank', { rank: data.me.rank })}
            hint={data.me.rank !== null && data.me.rank > data.limit ? t('me.outsideTop', { limit: data.limit }) : undefined}
          />
          <StatCard icon={ICONS[type]} label={t(`boards.${type}.mine`)} value={t('number', { value: data.me.value })} />
        </Grid>
      )}
      <Card title={data ? t('top', { limit: data.limit }) : t(`boards.${type}.caption`)} flush>
        <DataTable
          caption={t(`boards.${type}.caption`)}
          columns={columns}
          rows={data?.data}
          rowKey={(row) => row.uuid}
          loading={loading}
          error={error}
          onRetry={reload}
          empty={{ icon: 'trophy', title: t('empty.title'), text: t(`boards.${type}.empty`) }}
        />
      </Card>
    </div>
  );
}
