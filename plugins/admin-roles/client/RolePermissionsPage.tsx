// /mc-admin/roles/:id/permissions: the catalogue grouped by area, a checkbox per permission. Viewing
// needs admin.permissions.list; saving needs admin.permissions.edit (spec §6): without it the
// checkboxes are read-only and there is no save button. The server refuses to grant or remove what
// the administrator does not hold (PERMISSION_ESCALATION) and keeps admin.root on roles 7 and 8.
// A permission whose plugin is switched off is marked so, and stays grantable: a role keeps it, and
// it applies again when the plugin is enabled.
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  dialogs,
  Form,
  Grid,
  http,
  Page,
  theme,
  useApi,
  useHasPermission,
  useParams,
  useTranslation,
  ADMIN_PATHS,
  type AdminRole,
  ADMIN_PERMISSIONS,
  ResourceState,
  SaveBar,
} from '@orepanel/sdk';
import { useMemo, useState } from 'react';
import { groupPermissions, unlistedPermissions } from './permission-groups';
import { rolesUrl, type CatalogueEntry } from './roles-api';

interface RolePermissions {
  role_id: number;
  permissions: string[];
}

export default function RolePermissionsPage() {
  const { t } = useTranslation('admin-roles');
  const { id = '' } = useParams();
  const catalogue = useApi<{ data: CatalogueEntry[] }>(rolesUrl.permissions());
  const held = useApi<RolePermissions>(rolesUrl.rolePermissions(id));
  // the role's name needs the role list permission; without it the page names the role by its id
  const mayListRoles = useHasPermission(ADMIN_PERMISSIONS.rolesList);
  const role = useApi<{ role: AdminRole }>(mayListRoles ? rolesUrl.role(id) : null);
  const both = catalogue.data && held.data ? { catalogue: catalogue.data.data, held: held.data.permissions } : undefined;
  const name = role.data?.role.real_name ?? `#${id}`;

  return (
    <Page
      title={t('rolePermissions.title', { name })}
      description={t('rolePermissions.description')}
      actions={
        <Button variant="secondary" to={ADMIN_PATHS.roles}>
          {t('roles.back')}
        </Button>
      }
    >
      <ResourceState
        data={both}
        loading={catalogue.loading || held.loading}
        error={catalogue.error ?? held.error}
        reload={() => {
          catalogue.reload();
          held.reload();
        }}
      >
        {(data) => <PermissionEditor key={data.held.join(',')} roleId={id} catalogue={data.catalogue} initial={data.held} />}
      </ResourceState>
    </Page>
  );
}

function PermissionEditor({ roleId, catalogue, initial }: { roleId: string; catalogue: CatalogueEntry[]; initial: string[] }) {
  const { t } = useTranslation('admin-roles');
  const mayEdit = useHasPermission(ADMIN_PERMISSIONS.permissionsEdit);
  const groups = useMemo(() => groupPermissions(catalogue), [catalogue]);
  const unlisted = useMemo(() => unlistedPermissions(initial, catalogue), [initial, catalogue]);
  const [chosen, setChosen] = useState(() => new Set(initial.filter((p) => !unlisted.includes(p))));

  const toggle = (names: readonly string[], on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      for (const n of names) {
        if (on) next.add(n);
        else next.delete(n);
      }
      return next;
    });

  async function save() {
    const answer = await http.put<RolePermissions>(rolesUrl.rolePermissions(roleId), { permissions: [...chosen].sort() });
    setChosen(new Set(answer.permissions));
    void dialogs.toast(t('rolePermissions.saved'));
  }

  return (
    <Form onSubmit={save} aria-label={t('rolePermissions.formLabel')}>
      {!mayEdit && <Alert tone="info">{t('rolePermissions.readOnly')}</Alert>}
      {chosen.has('admin.root') && <Alert tone="warning">{t('rolePermissions.rootNote')}</Alert>}
      {unlisted.length > 0 && (
        <Alert tone="warning" title={t('rolePermissions.unlistedTitle')}>
          <code css={{ fontFamily: theme.font.mono, overflowWrap: 'anywhere' }}>{unlisted.join(', ')}</code>
        </Alert>
      )}
      <Grid min={320} gap={16} css={{ alignItems: 'start' }}>
        {groups.map((group) => {
          const names = group.entries.map((e) => e.name);
          const all = names.every((n) => chosen.has(n));
          return (
            <Card
              key={group.id}
              title={<code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.md }}>{group.id}</code>}
              actions={
                mayEdit && names.length > 1 ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => toggle(names, !all)}
                    aria-label={t(all ? 'rolePermissions.clearGroup' : 'rolePermissions.selectGroup', { group: group.id })}
                  >
                    {t(all ? 'rolePermissions.clearAll' : 'rolePermissions.selectAll')}
                  </Button>
                ) : undefined
              }
            >
              <div css={{ display: 'grid', gap: 10 }}>
                {group.entries.map((entry) => (
                  <Checkbox
                    key={entry.name}
                    name="permissions"
                    value={entry.name}
                    checked={chosen.has(entry.name)}
                    disabled={!mayEdit}
                    onChange={(on) => toggle([entry.name], on)}
                    label={
                      <span css={{ display: 'grid' }}>
                        <span css={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: '2px 8px' }}>
                          <span>{entry.description}</span>
                          {!entry.enabled && (
                            // still grantable: a role keeps it, and it applies again when the plugin is enabled
                            <span title={t('rolePermissions.pluginDisabledHint', { plugin: entry.source })}>
                              <Badge tone="warning">{t('rolePermissions.pluginDisabled')}</Badge>
                            </span>
                          )}
                        </span>
                        <code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.xs, color: theme.colors.muted, overflowWrap: 'anywhere' }}>{entry.name}</code>
                      </span>
                    }
                  />
                ))}
              </div>
            </Card>
          );
        })}
      </Grid>
      {mayEdit && (
        <SaveBar>
          <Button type="submit">{t('rolePermissions.save')}</Button>
          <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('rolePermissions.chosen', { chosen: chosen.size, total: catalogue.length })}</span>
        </SaveBar>
      )}
    </Form>
  );
}
