// /earn/j4r: the Discord servers to join (icon, name, reward, an invite that opens in a new tab),
// which of them paid already, and "Check my servers" — a full page load of the server's check,
// which goes to Discord (the user allows the panel to see their servers) and comes back here with
// ?j4r_paid=&j4r_coins= or ?j4r_error=<code>; the notice for that return is at the top.
import { Alert, Button, EmptyStateCard, Grid, Page, ResourceState, Slot, StatCard, theme, useApi, useTranslation } from '@orepanel/sdk';
import { J4R_API, type J4rGuild, type J4rStatus } from './api';
import { CheckNotice } from './CheckNotice';
import { GuildTile } from './GuildTile';

export default function J4rPage() {
  const { t } = useTranslation('earn-j4r');
  const status = useApi<J4rStatus>(J4R_API.status);
  const list = useApi<{ data: J4rGuild[] }>(J4R_API.list);
  const current = status.data;
  const canCheck = current !== undefined && current.discord_available && current.guilds_total > 0;

  return (
    <Page
      title={t('title')}
      description={t('description')}
      actions={
        <Button icon="check" to={J4R_API.check} reloadDocument disabled={!canCheck}>
          {t('check.button')}
        </Button>
      }
    >
      <CheckNotice />
      {current && !current.discord_available && <Alert tone="warning">{t('check.unavailable')}</Alert>}
      {current && (
        <Grid min={220}>
          <StatCard icon="coins" label={t('stats.earned')} value={t('coinsValue', { value: current.coins_earned })} />
          <StatCard
            icon="users"
            label={t('stats.joined')}
            value={t('stats.joinedValue', { claimed: current.guilds_claimed, total: current.guilds_total })}
            hint={current.discord_available ? (current.discord_account ? t('check.linkedAs', { name: current.discord_account.username }) : t('check.notLinked')) : undefined}
          />
        </Grid>
      )}
      <ResourceState data={list.data?.data} loading={list.loading} error={list.error} reload={list.reload} errorTitle={t('loadError')}>
        {(guilds) =>
          guilds.length === 0 ? (
            <EmptyStateCard icon="users" title={t('empty.title')} text={t('empty.text')} />
          ) : (
            <ul
              aria-label={t('listLabel')}
              css={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 16, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 280px), 1fr))', minWidth: 0 }}
            >
              {guilds.map((guild) => (
                <GuildTile key={guild.guild_id} guild={guild} />
              ))}
            </ul>
          )
        }
      </ResourceState>
      <p css={{ margin: 0, color: theme.colors.subtle, fontSize: theme.font.size.sm, lineHeight: 1.5 }}>{t('howItWorks')}</p>
      <Slot name="earn.ads" loading={false} />
    </Page>
  );
}
