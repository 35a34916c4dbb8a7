// /mc-admin/eggs: every egg by category then name, paged and searched (name or panel id) on the
// server, optionally of one category (?category=), with its markers and the import from the panel.
import {
  Button,
  Page,
  PagedList,
  PermissionGate,
  RowActions,
  Select,
  useApi,
  useHasPermission,
  usePagedList,
  useSearchParams,
  useTranslation,
  type DataColumn,
} from '@orepanel/sdk';
import { useMemo } from 'react';
import { adminPath, apiUrl, PERMISSIONS, type CategoryChoice, type Egg } from '../api';
import { NameCell } from '../CatalogMarkers';
import { SyncFromPanel } from '../SyncFromPanel';

const CATEGORY_PARAM = 'category';

export default function EggsPage() {
  const { t } = useTranslation('server-catalog');
  const [params, setParams] = useSearchParams();
  const categoryId = /^\d+$/.test(params.get(CATEGORY_PARAM) ?? '') ? params.get(CATEGORY_PARAM)! : '';
  const list = usePagedList<Egg>(categoryId ? `${apiUrl.eggs}?category_id=${categoryId}` : apiUrl.eggs, { perPage: 20 });
  const categories = useApi<{ categories: CategoryChoice[] }>(apiUrl.categoryChoices);
  const mayEdit = useHasPermission(PERMISSIONS.eggs.edit);
  const mayDelete = useHasPermission(PERMISSIONS.eggs.delete);

  const chooseCategory = (value: string) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        if (value) out.set(CATEGORY_PARAM, value);
        else out.delete(CATEGORY_PARAM);
        out.delete('page');
        return out;
      },
      { replace: true },
    );

  const columns = useMemo<DataColumn<Egg>[]>(() => {
    const out: DataColumn<Egg>[] = [
      {
        id: 'name',
        header: t('columns.name'),
        primary: true,
        cell: (e) => <NameCell name={e.name} image={e.image} vipOnly={e.vip_only} enabled={e.enabled} brokenFields={e.broken_fields} icon="cpu" />,
      },
      { id: 'category', header: t('eggs.columns.category'), cell: (e) => e.category_name },
      { id: 'panel', header: t('eggs.columns.panel'), align: 'end', cell: (e) => t('eggs.panelIds', { nest: e.panel_nest_id, egg: e.panel_egg_id }) },
    ];
    if (mayEdit || mayDelete) {
      out.push({
        id: 'actions',
        header: t('columns.actions'),
        align: 'end',
        cell: (e) => (
          <RowActions
            actions={[
              mayEdit && { to: adminPath.eggs.edit(e.id), text: t('edit'), label: t('editNamed', { name: e.name }) },
              mayDelete && { to: adminPath.eggs.delete(e.id), text: t('delete'), label: t('deleteNamed', { name: e.name }), variant: 'ghost' },
            ]}
          />
        ),
      });
    }
    return out;
  }, [t, mayEdit, mayDelete]);

  return (
    <Page
      title={t('eggs.titles.list')}
      description={t('eggs.description')}
      actions={
        <PermissionGate permission={PERMISSIONS.eggs.create}>
          <Button icon="cpu" to={categoryId ? `${adminPath.eggs.create}?${CATEGORY_PARAM}=${categoryId}` : adminPath.eggs.create}>
            {t('eggs.create')}
          </Button>
        </PermissionGate>
      }
    >
      <SyncFromPanel kind="eggs" onSynced={list.reload} />
      <PagedList
        list={list}
        caption={t('eggs.titles.list')}
        columns={columns}
        rowKey={(e) => e.id}
        searchLabel={t('eggs.search')}
        toolbar={
          <div css={{ minWidth: 220 }}>
            <Select
              label={t('eggs.filter')}
              name="category"
              value={categoryId}
              onChange={chooseCategory}
              options={[{ value: '', label: t('eggs.allCategories') }, ...(categories.data?.categories ?? []).map((c) => ({ value: String(c.id), label: c.name }))]}
            />
          </div>
        }
        empty={{ icon: 'cpu', title: t('eggs.empty'), text: t('emptyText') }}
      />
    </Page>
  );
}
