// /mc-admin/egg-categories: every category (the panel's nests) by name, paged and searched on the
// server, with how many eggs each holds, its markers, and the import from the panel.
import { Button, Link, Page, PagedList, PermissionGate, RowActions, useHasPermission, usePagedList, useTranslation, type DataColumn } from '@orepanel/sdk';
import { useMemo } from 'react';
import { adminPath, apiUrl, PERMISSIONS, type Category } from '../api';
import { NameCell } from '../CatalogMarkers';
import { SyncFromPanel } from '../SyncFromPanel';

export default function CategoriesPage() {
  const { t } = useTranslation('server-catalog');
  const list = usePagedList<Category>(apiUrl.categories, { perPage: 20 });
  const mayEdit = useHasPermission(PERMISSIONS.categories.edit);
  const mayDelete = useHasPermission(PERMISSIONS.categories.delete);
  const mayListEggs = useHasPermission(PERMISSIONS.eggs.list);

  const columns = useMemo<DataColumn<Category>[]>(() => {
    const out: DataColumn<Category>[] = [
      {
        id: 'name',
        header: t('columns.name'),
        primary: true,
        cell: (c) => <NameCell name={c.name} image={c.image} vipOnly={c.vip_only} enabled={c.enabled} brokenFields={c.broken_fields} icon="archive" />,
      },
      {
        id: 'eggs',
        header: t('categories.columns.eggs'),
        align: 'end',
        cell: (c) =>
          mayListEggs ? <Link to={`${adminPath.eggs.list}?category=${c.id}`}>{t('categories.eggCount', { count: c.eggs })}</Link> : t('categories.eggCount', { count: c.eggs }),
      },
      { id: 'panel', header: t('categories.columns.panel'), align: 'end', cell: (c) => `#${c.panel_nest_id}` },
    ];
    if (mayEdit || mayDelete) {
      out.push({
        id: 'actions',
        header: t('columns.actions'),
        align: 'end',
        cell: (c) => (
          <RowActions
            actions={[
              mayEdit && { to: adminPath.categories.edit(c.id), text: t('edit'), label: t('editNamed', { name: c.name }) },
              mayDelete && { to: adminPath.categories.delete(c.id), text: t('delete'), label: t('deleteNamed', { name: c.name }), variant: 'ghost' },
            ]}
          />
        ),
      });
    }
    return out;
  }, [t, mayEdit, mayDelete, mayListEggs]);

  return (
    <Page
      title={t('categories.titles.list')}
      description={t('categories.description')}
      actions={
        <PermissionGate permission={PERMISSIONS.categories.create}>
          <Button icon="archive" to={adminPath.categories.create}>
            {t('categories.create')}
          </Button>
        </PermissionGate>
      }
    >
      <SyncFromPanel kind="categories" onSynced={list.reload} />
      <PagedList
        list={list}
        caption={t('categories.titles.list')}
        columns={columns}
        rowKey={(c) => c.id}
        searchLabel={t('categories.search')}
        empty={{ icon: 'archive', title: t('categories.empty'), text: t('emptyText') }}
      />
    </Page>
  );
}
