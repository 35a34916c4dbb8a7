// /mc-admin/plugins: every plugin the server found — enabled, disabled, inactive (a plugin it requires
// is off) or refused (with the reason) — and the switches. The server applies a switch at once (its
// routes, its manifest); this page then reloads, so this browser too shows the panel as it is now (a
// disabled plugin's menu items and pages gone), and says what changed. A core plugin has no switch:
// its row says why. A third-party plugin's code first runs when it is enabled here; if that fails it
// stays disabled and its row says why. Third-party plugins are installed (an uploaded archive, or
// Rescan of the data folder), updated and removed here too, with no restart (PluginInstall,
// PluginRemoval); each row says what its plugin asks for (PluginAsks).
import {
  Alert,
  Badge,
  Button,
  Card,
  confirmAction,
  DataTable,
  http,
  Page,
  theme,
  useApi,
  useErrorText,
  useHasPermission,
  useTranslation,
  type BadgeTone,
  type DataColumn,
  ADMIN_PATHS,
  ADMIN_PERMISSIONS,
} from '@orepanel/sdk';
import { useState } from 'react';
import { PluginAsks } from './PluginAsks';
import { PluginInstall, type InstallOutcome } from './PluginInstall';
import { PluginRemoval } from './PluginRemoval';
import { reloadPanel } from './panel-reload';
import { pluginsUrl, type AdminPlugin, type PluginState } from './plugins-api';

const STATE_TONE: Record<PluginState, BadgeTone> = { enabled: 'success', disabled: 'neutral', inactive: 'warning', refused: 'danger' };

type Outcome = InstallOutcome | null;

/** The notice of a switch, kept across the reload that applies it in this browser (this tab only). */
const SWITCH_NOTICE_KEY = 'orepanel.admin-plugins.notice';

function rememberNotice(text: string): void {
  afterReload = undefined;
  try {
    sessionStorage.setItem(SWITCH_NOTICE_KEY, text);
  } catch {
    // storage blocked: the reload still applies the switch, only the notice is lost
  }
}

function takeNotice(): Outcome {
  try {
    const text = sessionStorage.getItem(SWITCH_NOTICE_KEY);
    sessionStorage.removeItem(SWITCH_NOTICE_KEY);
    return text ? { tone: 'success', text } : null;
  } catch {
    return null;
  }
}

// Read once per page load (the page may mount more than once while the panel starts), shown until
// closed. undefined: not read yet.
let afterReload: Outcome | undefined;

function noticeAfterReload(): Outcome {
  if (afterReload === undefined) afterReload = takeNotice();
  return afterReload;
}

export default function PluginsPage() {
  const { t } = useTranslation('admin-plugins');
  const errorText = useErrorText();
  const loaded = useApi<{ data: AdminPlugin[] }>(pluginsUrl.plugins());
  const mayEdit = useHasPermission(ADMIN_PERMISSIONS.pluginsEdit);
  const mayRemove = useHasPermission('admin.root');
  const [removing, setRemoving] = useState<AdminPlugin | null>(null);
  const [updated, setUpdated] = useState<Record<string, AdminPlugin>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(noticeAfterReload);
  const rows = loaded.data?.data.map((p) => updated[p.id] ?? p);

  async function send(plugin: AdminPlugin, action: 'enable' | 'disable'): Promise<AdminPlugin> {
    setBusy(plugin.id);
    try {
      const answer = await http.post<{ plugin: AdminPlugin }>(pluginsUrl.pluginSwitch(plugin.id, action));
      setUpdated((u) => ({ ...u, [plugin.id]: answer.plugin }));
      // the browser loaded the manifests at start-up: a reload brings the plugin's menu items and
      // pages (or takes them away) here too, at once
      rememberNotice(t(action === 'enable' ? 'plugins.enabledNotice' : 'plugins.disabledNotice', { name: plugin.name }));
      reloadPanel();
      return answer.plugin;
    } finally {
      setBusy(null);
    }
  }

  async function toggle(plugin: AdminPlugin) {
    setOutcome(null);
    if (plugin.enabled) {
      // disabling takes features away from everyone at once: ask first (failures show in a dialog)
      await confirmAction({
        title: t('plugins.disableConfirmTitle', { name: plugin.name }),
        text: t('plugins.disableConfirmText'),
        confirmText: t('plugins.disable'),
        cancelText: t('common.cancel'),
        danger: true,
        action: () => send(plugin, 'disable'),
      });
      return;
    }
    try {
      await send(plugin, 'enable');
    } catch (error) {
      setOutcome({ tone: 'error', text: errorText(error) });
      // the server keeps why the start failed: the row shows it from the fresh list
      setUpdated(({ [plugin.id]: _stale, ...rest }) => rest);
      loaded.reload();
    }
  }

  const columns = (() => {
    const out: DataColumn<AdminPlugin>[] = [
      {
        id: 'plugin',
        header: t('plugins.columns.plugin'),
        primary: true,
        cell: (p) => (
          <div css={{ display: 'grid', gap: 2, minWidth: 0, maxWidth: 520 }}>
            <span css={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
              <span css={{ fontWeight: 600 }}>{p.name}</span>
              {p.core && <Badge tone="primary">{t('plugins.core')}</Badge>}
              {p.origin === 'third-party' && <Badge tone="neutral">{t('plugins.thirdParty')}</Badge>}
            </span>
            <code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.xs, color: theme.colors.subtle }}>{p.id}</code>
            {p.description && <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, fontWeight: 400 }}>{p.description}</span>}
            {p.state === 'refused' && p.refused_reason && (
              <span css={{ color: theme.colors.danger, fontSize: theme.font.size.sm, fontWeight: 400, overflowWrap: 'anywhere' }}>
                {t('plugins.refusedBecause', { reason: p.refused_reason })}
              </span>
            )}
            {p.state === 'disabled' && p.failed_reason && (
              <span css={{ color: theme.colors.danger, fontSize: theme.font.size.sm, fontWeight: 400, overflowWrap: 'anywhere' }}>
                {t('plugins.failedBecause', { reason: p.failed_reason })}
              </span>
            )}
            {p.state === 'disabled' && !p.failed_reason && p.origin === 'third-party' && (
              <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, fontWeight: 400 }}>{t('plugins.thirdPartyHint')}</span>
            )}
            {p.origin === 'third-party' && <PluginAsks asks={p.asks} open={p.state === 'disabled' || p.state === 'refused'} />}
            {p.core && <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, fontWeight: 400 }}>{t('plugins.coreReason')}</span>}
            {p.state === 'inactive' && p.requires.length > 0 && (
              <span css={{ color: theme.colors.warning, fontSize: theme.font.size.sm, fontWeight: 400 }}>{t('plugins.inactiveBecause', { requires: p.requires.join(', ') })}</span>
            )}
          </div>
        ),
      },
      {
        id: 'version',
        header: t('plugins.columns.version'),
        cell: (p) => (p.version ? <code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.sm }}>{p.version}</code> : '—'),
      },
      { id: 'state', header: t('plugins.columns.state'), cell: (p) => <Badge tone={STATE_TONE[p.state]}>{t(`plugins.state.${p.state}`)}</Badge> },
    ];
    if (mayEdit) {
      out.push({
        id: 'actions',
        header: t('common.actions'),
        align: 'end',
        cell: (p) => (
          <div css={{ display: 'inline-flex', gap: 6, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
            {p.settings.length > 0 && p.state !== 'refused' && (
              <Button size="sm" variant="secondary" to={ADMIN_PATHS.pluginConfig(p.id)} aria-label={t('plugins.configureName', { name: p.name })}>
                {t('plugins.configure')}
              </Button>
            )}
            {p.state !== 'refused' && (
              <Button
                size="sm"
                variant={p.enabled ? 'ghost' : 'primary'}
                disabled={p.core || (busy !== null && busy !== p.id)}
                loading={busy === p.id}
                title={p.core ? t('plugins.coreLocked') : undefined}
                aria-label={t(p.enabled ? 'plugins.disableName' : 'plugins.enableName', { name: p.name })}
                onClick={() => void toggle(p)}
              >
                {t(p.enabled ? 'plugins.disable' : 'plugins.enable')}
              </Button>
            )}
            {mayRemove && p.removable && !p.enabled && (
              <Button size="sm" variant="ghost" disabled={busy !== null} aria-label={t('remove.buttonName', { name: p.name })} onClick={() => setRemoving(p)}>
                {t('remove.button')}
              </Button>
            )}
          </div>
        ),
      });
    }
    return out;
  })();

  const counts = rows ? { enabled: rows.filter((p) => p.state === 'enabled').length, total: rows.length } : null;

  return (
    <Page
      title={t('plugins.title')}
      description={counts ? t('plugins.summary', counts) : t('plugins.description')}
      actions={
        <PluginInstall
          onOutcome={(next, changed) => {
            setOutcome(next);
            if (changed) {
              setUpdated({});
              loaded.reload();
            }
          }}
          onActiveUpdate={(text) => {
            // this tab runs the old version's client: a reload loads the new one (open pages elsewhere keep working)
            rememberNotice(text);
            reloadPanel();
          }}
        />
      }
    >
      {outcome && (
        <Alert
          tone={outcome.tone}
          onClose={() => {
            afterReload = null;
            setOutcome(null);
          }}
        >
          {outcome.text}
        </Alert>
      )}
      {removing && (
        <PluginRemoval
          key={removing.id}
          plugin={removing}
          onCancel={() => setRemoving(null)}
          onRemoved={(text) => {
            setRemoving(null);
            setOutcome({ tone: 'success', text });
            setUpdated({});
            loaded.reload();
          }}
        />
      )}
      <Card flush>
        <DataTable
          caption={t('plugins.title')}
          columns={columns}
          rows={rows}
          rowKey={(p) => p.id}
          loading={loaded.loading}
          error={loaded.error}
          onRetry={loaded.reload}
          empty={{ icon: 'plug', title: t('plugins.empty') }}
        />
      </Card>
    </Page>
  );
}
