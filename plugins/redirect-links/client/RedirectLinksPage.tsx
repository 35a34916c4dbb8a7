// /mc-admin/redirect-links: the links of the navigation in the order the sidebar shows them, paged on
// the server.
import { Button, Icon, isIconName, Page, PagedList, PermissionGate, theme, useHasPermission, usePagedList, useTranslation, type DataColumn } from '@orepanel/sdk';
import { useMemo } from 'react';
import { RowActions } from '@orepanel/sdk';
import { linksPath, linksUrl, type RedirectLink, LINK_PERMISSIONS } from './redirect-links-api';

export default function RedirectLinksPage() {
  const { t } = useTranslation('redirect-links');
  const list = usePagedList<RedirectLink>(linksUrl.redirectLinks(), { perPage: 20, searchable: false });
  const mayEdit = useHasPermission(LINK_PERMISSIONS.redirectLinksEdit);
  const mayDelete = useHasPermission(LINK_PERMISSIONS.redirectLinksDelete);

  const columns = useMemo<DataColumn<RedirectLink>[]>(() => {
    const out: DataColumn<RedirectLink>[] = [
      {
        id: 'link',
        header: t('redirectLinks.columns.link'),
        primary: true,
        cell: (link) => (
          <span css={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
            <Icon name={link.icon && isIconName(link.icon) ? link.icon : 'link'} size={16} />
            <span css={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{link.name}</span>
          </span>
        ),
      },
      {
        id: 'url',
        header: t('redirectLinks.columns.url'),
        cell: (link) => (
          <a
            href={link.url}
            target="_blank"
            rel="noopener noreferrer"
            css={{ color: theme.colors.primaryHover, overflowWrap: 'anywhere', fontFamily: theme.font.mono, fontSize: theme.font.size.sm }}
          >
            {link.url}
          </a>
        ),
      },
      { id: 'order', header: t('redirectLinks.columns.order'), align: 'end', cell: (link) => t('common.count', { value: link.order }) },
    ];
    if (mayEdit || mayDelete) {
      out.push({
        id: 'actions',
        header: t('common.actions'),
        align: 'end',
        cell: (link) => (
          <RowActions
            actions={[
              mayEdit && { to: linksPath.redirectLinkEdit(link.id), text: t('common.edit'), label: t('redirectLinks.editLink', { name: link.name }) },
              mayDelete && { to: linksPath.redirectLinkDelete(link.id), text: t('common.delete'), label: t('redirectLinks.deleteLink', { name: link.name }), variant: 'ghost' },
            ]}
          />
        ),
      });
    }
    return out;
  }, [t, mayEdit, mayDelete]);

  return (
    <Page
      title={t('redirectLinks.title')}
      description={t('redirectLinks.description')}
      actions={
        <PermissionGate permission={LINK_PERMISSIONS.redirectLinksCreate}>
          <Button icon="link" to={linksPath.redirectLinkCreate}>
            {t('redirectLinks.create')}
          </Button>
        </PermissionGate>
      }
    >
      <PagedList
        list={list}
        caption={t('redirectLinks.title')}
        columns={columns}
        rowKey={(link) => link.id}
        empty={{ icon: 'link', title: t('redirectLinks.empty'), text: t('redirectLinks.emptyText') }}
      />
    </Page>
  );
}
