// One server in the widget: name and status, where it runs and what it runs, its resources, the
// expiry, and the ways to act on it (the panel, update, renew, delete).
import { Icon, isSettingEnabled, RowActions, theme, useSetting, useTranslation } from '@orepanel/sdk';
import { useId } from 'react';
import type { ServerView } from '../../shared/api';
import { PanelLink } from '../PanelLink';
import { paths } from '../paths';
import { ResourceSummary } from '../ResourceSummary';
import { ExpiryText, ServerStatusBadge } from '../server-status';

const c = theme.colors;

export function ServerRow({ server }: { server: ServerView }) {
  const { t } = useTranslation('servers');
  const renewOn = isSettingEnabled(useSetting('server_renew_enabled'));
  const nameId = useId();
  const where = [server.location?.name, server.egg?.name].filter(Boolean).join(' · ');
  return (
    <li
      aria-labelledby={nameId}
      css={{ display: 'grid', gap: 10, padding: '14px 18px', [theme.breakpoints.md]: { gridTemplateColumns: 'minmax(0, 1fr) auto', alignItems: 'center' } }}
    >
      <div css={{ display: 'grid', gap: 6, minWidth: 0 }}>
        <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
          <Icon name="server" size={18} style={{ color: c.primaryHover }} />
          <strong id={nameId} css={{ color: c.text, fontSize: theme.font.size.lg, overflowWrap: 'anywhere' }}>
            {server.name}
          </strong>
          <ServerStatusBadge server={server} />
        </div>
        {where && <div css={{ color: c.muted, fontSize: theme.font.size.sm }}>{where}</div>}
        <ResourceSummary resources={server.resources} broken={server.broken_fields} />
        <div css={{ fontSize: theme.font.size.sm }}>
          <ExpiryText expiresAt={server.expires_at} />
        </div>
      </div>
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center', [theme.breakpoints.md]: { justifyContent: 'flex-end' } }}>
        {server.panel_url && <PanelLink url={server.panel_url} name={server.name} />}
        <RowActions
          actions={[
            { to: paths.update(server.id), text: t('widget.update'), label: t('widget.updateServer', { name: server.name }) },
            renewOn && { to: paths.renew(server.id), text: t('widget.renew'), label: t('widget.renewServer', { name: server.name }) },
            { to: paths.remove(server.id), text: t('widget.delete'), label: t('widget.deleteServer', { name: server.name }), variant: 'ghost' },
          ]}
        />
      </div>
    </li>
  );
}
