// /mc-admin/locations: every location by name, paged and searched (name or panel id) on the server,
// with its status, slots, VIP and enabled markers, and the import from the panel.
import { Button, Page, PagedList, PermissionGate, RowActions, useHasPermission, usePagedList, useTranslation, type DataColumn } from '@orepanel/sdk';
import { useMemo } from 'react';
import { adminPath, apiUrl, PERMISSIONS, type Location } from '../api';
import { NameCell, StatusBadge } from '../CatalogMarkers';
import { SyncFromPanel } from '../SyncFromPanel';

export default function LocationsPage() {
  const { t } = useTranslation('server-catalog');
  const list = usePagedList<Location>(apiUrl.locations, { perPage: 20 });
  const mayEdit = useHasPermission(PERMISSIONS.locations.edit);
  const mayDelete = useHasPermission(PERMISSIONS.locations.delete);

  const columns = useMemo<DataColumn<Location>[]>(() => {
    const out: DataColumn<Location>[] = [
      {
        id: 'name',
        header: t('columns.name'),
        primary: true,
        cell: (l) => <NameCell name={l.name} image={l.image} vipOnly={l.vip_only} enabled={l.enabled} brokenFields={l.broken_fields} icon="database" />,
      },
      { id: 'status', header: t('columns.status'), cell: (l) => <StatusBadge status={l.status} /> },
      { id: 'slots', header: t('locations.columns.slots'), align: 'end', cell: (l) => t('number', { value: l.slots }) },
      { id: 'panel', header: t('locations.columns.panel'), align: 'end', cell: (l) => `#${l.panel_location_id}` },
    ];
    if (mayEdit || mayDelete) {
      out.push({
        id: 'actions',
        header: t('columns.actions'),
        align: 'end',
        cell: (l) => (
          <RowActions
            actions={[
              mayEdit && { to: adminPath.locations.edit(l.id), text: t('edit'), label: t('editNamed', { name: l.name }) },
              mayDelete && { to: adminPath.locations.delete(l.id), text: t('delete'), label: t('deleteNamed', { name: l.name }), variant: 'ghost' },
            ]}
          />
        ),
      });
    }
    return out;
  }, [t, mayEdit, mayDelete]);

  return (
    <Page
      title={t('locations.titles.list')}
      description={t('locations.description')}
      actions={
        <PermissionGate permission={PERMISSIONS.locations.create}>
          <Button icon="database" to={adminPath.locations.create}>
            {t('locations.create')}
          </Button>
        </PermissionGate>
      }
    >
      <SyncFromPanel kind="locations" onSynced={list.reload} />
      <PagedList
        list={list}
        caption={t('locations.titles.list')}
        columns={columns}
        rowKey={(l) => l.id}
        searchLabel={t('locations.search')}
        empty={{ icon: 'database', title: t('locations.empty'), text: t('emptyText') }}
      />
    </Page>
  );
}
