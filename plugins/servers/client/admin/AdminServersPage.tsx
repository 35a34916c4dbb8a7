// /mc-admin/servers: every server with its owner, resources, state and expiry; searched (name,
// identifier, owner) and paged on the server. Suspending, unsuspending and deleting ask first and act
// on the panel before anything changes here (the API's rule); each needs its own permission.
import { confirmAction, http, Page, PagedList, RowActions, theme, useHasPermission, useTranslation, type DataColumn } from '@orepanel/sdk';
import { useMemo } from 'react';
import type { AdminServerResponse, AdminServersResponse, AdminServerView, OkResponse } from '../../shared/api';
import { OwnerLink } from './OwnerLink';
import { adminApi, PERMISSIONS } from '../paths';
import { ResourceSummary } from '../ResourceSummary';
import { ExpiryText, ServerStatusBadge } from '../server-status';
import { PanelLink } from '../PanelLink';
import { useAdminList } from './admin-list';

export default function AdminServersPage() {
  const { t } = useTranslation('servers');
  const list = useAdminList<AdminServersResponse, AdminServerView>(adminApi.servers, (a) => a.servers);
  const mayEdit = useHasPermission(PERMISSIONS.serversEdit);
  const mayDelete = useHasPermission(PERMISSIONS.serversDelete);
  const { reload } = list;

  const columns = useMemo<DataColumn<AdminServerView>[]>(() => {
    const suspend = (server: AdminServerView) =>
      confirmAction({
        title: t('admin.servers.suspendTitle', { name: server.name }),
        text: t('admin.servers.suspendText'),
        confirmText: t('admin.servers.suspend'),
        cancelText: t('common.cancel'),
        danger: true,
        action: () => http.post<AdminServerResponse>(adminApi.suspend(server.id)),
        successText: t('admin.servers.suspended', { name: server.name }),
      }).then((r) => r.status === 'done' && reload());
    const unsuspend = (server: AdminServerView) =>
      confirmAction({
        title: t('admin.servers.unsuspendTitle', { name: server.name }),
        confirmText: t('admin.servers.unsuspend'),
        cancelText: t('common.cancel'),
        action: () => http.post<AdminServerResponse>(adminApi.unsuspend(server.id)),
        successText: t('admin.servers.unsuspended', { name: server.name }),
      }).then((r) => r.status === 'done' && reload());
    const remove = (server: AdminServerView) =>
      confirmAction({
        title: t('admin.servers.deleteTitle', { name: server.name }),
        text: t('admin.servers.deleteText', { owner: server.owner.username }),
        confirmText: t('admin.servers.delete'),
        cancelText: t('common.cancel'),
        danger: true,
        action: () => http.post<OkResponse>(adminApi.remove(server.id)),
        successText: t('admin.servers.deleted', { name: server.name }),
      }).then((r) => r.status === 'done' && reload());

    const out: DataColumn<AdminServerView>[] = [
      {
        id: 'server',
        header: t('admin.columns.server'),
        primary: true,
        cell: (s) => (
          <span css={{ display: 'grid', gap: 4 }}>
            <span css={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
              <strong css={{ overflowWrap: 'anywhere' }}>{s.name}</strong>
              <ServerStatusBadge server={s} />
            </span>
            <code css={{ fontFamily: theme.font.mono, color: theme.colors.subtle, fontSize: theme.font.size.xs }}>{s.identifier}</code>
          </span>
        ),
      },
      { id: 'owner', header: t('admin.columns.owner'), cell: (s) => <OwnerLink owner={s.owner} /> },
      {
        id: 'where',
        header: t('admin.columns.where'),
        cell: (s) => <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{[s.location?.name, s.egg?.name].filter(Boolean).join(' · ') || '—'}</span>,
      },
      { id: 'resources', header: t('admin.columns.resources'), cell: (s) => <ResourceSummary resources={s.resources} broken={s.broken_fields} /> },
      {
        id: 'expires',
        header: t('admin.columns.expires'),
        cell: (s) => (
          <span css={{ fontSize: theme.font.size.sm }}>
            <ExpiryText expiresAt={s.expires_at} />
          </span>
        ),
      },
      {
        id: 'actions',
        header: t('admin.columns.actions'),
        align: 'end',
        cell: (s) => (
          <span css={{ display: 'inline-flex', flexWrap: 'wrap', gap: 6, justifyContent: 'flex-end' }}>
            {s.panel_url && <PanelLink url={s.panel_url} name={s.name} />}
            <RowActions
              actions={[
                mayEdit &&
                  (s.status === 'active'
                    ? { text: t('admin.servers.suspend'), label: t('admin.servers.suspendServer', { name: s.name }), onClick: () => void suspend(s) }
                    : { text: t('admin.servers.unsuspend'), label: t('admin.servers.unsuspendServer', { name: s.name }), onClick: () => void unsuspend(s) }),
                mayDelete && { text: t('admin.servers.delete'), label: t('admin.servers.deleteServer', { name: s.name }), variant: 'ghost', onClick: () => void remove(s) },
              ]}
            />
          </span>
        ),
      },
    ];
    return out;
  }, [t, mayEdit, mayDelete, reload]);

  return (
    <Page title={t('admin.titles.servers')} description={t('admin.servers.description')}>
      <PagedList
        list={list}
        caption={t('admin.titles.servers')}
        columns={columns}
        rowKey={(s) => s.id}
        searchLabel={t('admin.servers.search')}
        empty={{ icon: 'server', title: t('admin.servers.empty') }}
      />
    </Page>
  );
}
