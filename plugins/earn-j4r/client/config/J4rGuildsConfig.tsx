// The join-for-rewards server list, on this plugin's configuration page (the admin plugin's
// /mc-admin/plugins/earn-j4r/config renders the slot admin.plugin-config.earn-j4r under the
// settings form, where j4r_enabled is). A list of guilds is no setting a settings form can hold,
// so it is its own small editor: the servers with their reward and how many users each paid, a
// form to add or edit one, and removal after a confirmation.
import { Avatar, Badge, Button, Card, confirmAction, DataTable, http, initialsOf, theme, useApi, useTranslation, type DataColumn } from '@orepanel/sdk';
import { useMemo, useState } from 'react';
import { adminUrl, type AdminGuild } from '../api';
import { formOf } from './guild-form';
import { GuildForm } from './GuildForm';

export default function J4rGuildsConfig() {
  const { t } = useTranslation('earn-j4r');
  const guilds = useApi<{ data: AdminGuild[] }>(adminUrl.guilds());
  const [editing, setEditing] = useState<AdminGuild | 'new' | null>(null);

  const columns = useMemo<DataColumn<AdminGuild>[]>(() => {
    const remove = async (guild: AdminGuild) => {
      const result = await confirmAction({
        title: t('config.delete.title', { name: guild.name }),
        text: t('config.delete.text'),
        confirmText: t('config.delete.confirm'),
        cancelText: t('config.form.cancel'),
        danger: true,
        action: () => http.delete(adminUrl.guild(guild.id)),
        successText: t('config.delete.done', { name: guild.name }),
      });
      if (result.status === 'done') {
        setEditing((current) => (current !== 'new' && current?.id === guild.id ? null : current));
        guilds.reload();
      }
    };
    return [
      {
        id: 'name',
        header: t('config.columns.server'),
        primary: true,
        cell: (guild) => (
          <span css={{ display: 'inline-flex', alignItems: 'center', gap: 10, flexWrap: 'wrap', minWidth: 0 }}>
            <Avatar src={guild.icon_url} initials={initialsOf(null, null, guild.name)} size={28} />
            <span css={{ fontWeight: theme.font.weight.semibold, overflowWrap: 'anywhere' }}>{guild.name}</span>
            {!guild.enabled && <Badge>{t('config.disabled')}</Badge>}
          </span>
        ),
      },
      { id: 'guild_id', header: t('config.columns.guildId'), cell: (guild) => <code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.sm }}>{guild.guild_id}</code> },
      { id: 'coins', header: t('config.columns.coins'), align: 'end', cell: (guild) => t('number', { value: guild.coins }) },
      { id: 'claims', header: t('config.columns.claims'), align: 'end', cell: (guild) => t('number', { value: guild.claims }) },
      {
        id: 'actions',
        header: t('config.columns.actions'),
        align: 'end',
        cell: (guild) => (
          <span css={{ display: 'inline-flex', gap: 6, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
            <Button size="sm" variant="secondary" onClick={() => setEditing(guild)} aria-label={t('config.editNamed', { name: guild.name })}>
              {t('config.edit')}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => void remove(guild)} aria-label={t('config.deleteNamed', { name: guild.name })}>
              {t('config.delete.button')}
            </Button>
          </span>
        ),
      },
    ];
  }, [t, guilds]);

  const save = async (body: Record<string, unknown>) => {
    if (editing === 'new') await http.post(adminUrl.guilds(), body);
    else if (editing) await http.patch(adminUrl.guild(editing.id), body);
    setEditing(null);
    guilds.reload();
  };

  return (
    <div css={{ display: 'grid', gap: 16 }}>
      <Card
        title={t('config.title')}
        actions={
          editing === null && (
            <Button size="sm" icon="users" onClick={() => setEditing('new')}>
              {t('config.add')}
            </Button>
          )
        }
      >
        <p css={{ margin: 0, color: theme.colors.muted, lineHeight: 1.5 }}>{t('config.text')}</p>
      </Card>
      {editing !== null && (
        <GuildForm key={editing === 'new' ? 'new' : editing.id} initial={editing === 'new' ? null : formOf(editing)} onSubmit={save} onCancel={() => setEditing(null)} />
      )}
      <DataTable
        caption={t('config.title')}
        columns={columns}
        rows={guilds.data?.data}
        rowKey={(guild) => guild.id}
        loading={guilds.loading}
        error={guilds.error}
        onRetry={guilds.reload}
        empty={{ icon: 'users', title: t('config.empty') }}
      />
    </div>
  );
}
