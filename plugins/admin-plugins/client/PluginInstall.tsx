// The plugins screen's tools for installing without a restart: uploading a built plugin archive
// (.tgz from `orepanel plugin build --pack`; root administrators only — it installs code) with its
// progress, and Rescan, which takes the plugin folders copied into the data folder since start. A
// new plugin arrives disabled; what it asks for shows in its row before anyone enables it.
import { Button, formatFileSize, http, ProgressBar, theme, useErrorText, useHasPermission, useTranslation } from '@orepanel/sdk';
import { useRef, useState } from 'react';
import { MAX_ARCHIVE_BYTES, pluginsUrl, type InstallAnswer, type RescanAnswer } from './plugins-api';

export type InstallOutcome = { tone: 'success' | 'error' | 'info'; text: string };

export interface PluginInstallProps {
  /** told of what happened; `changed`: the list must be read again */
  onOutcome: (outcome: InstallOutcome, changed: boolean) => void;
  /** an enabled plugin was updated: this tab loaded its old version's manifest */
  onActiveUpdate: (text: string) => void;
}

export function PluginInstall({ onOutcome, onActiveUpdate }: PluginInstallProps) {
  const { t, i18n } = useTranslation('admin-plugins');
  const errorText = useErrorText();
  const mayInstall = useHasPermission('admin.root');
  const mayRescan = useHasPermission('admin.plugins.edit');
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ name: string; loaded: number; total: number } | null>(null);
  const [scanning, setScanning] = useState(false);

  async function install(file: File) {
    if (file.size > MAX_ARCHIVE_BYTES) {
      onOutcome({ tone: 'error', text: t('install.tooLarge', { size: formatFileSize(MAX_ARCHIVE_BYTES, i18n.language) }) }, false);
      return;
    }
    setProgress({ name: file.name, loaded: 0, total: file.size });
    try {
      const answer = await http.upload<InstallAnswer>(pluginsUrl.install(), file, {
        headers: { 'Content-Type': 'application/gzip' },
        onProgress: ({ loaded, total }) => setProgress({ name: file.name, loaded, total }),
      });
      const { plugin } = answer;
      if (answer.action === 'updated') {
        const text = t('install.updated', { name: plugin.name, version: plugin.version, previous: answer.previous_version ?? '' });
        if (plugin.active) onActiveUpdate(text);
        else onOutcome({ tone: 'success', text }, true);
      } else {
        onOutcome({ tone: 'success', text: t('install.installed', { name: plugin.name, version: plugin.version }) }, true);
      }
    } catch (error) {
      onOutcome({ tone: 'error', text: t('install.failed', { reason: errorText(error) }) }, false);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  }

  async function rescan() {
    setScanning(true);
    try {
      const found = await http.post<RescanAnswer>(pluginsUrl.rescan());
      const parts = [found.added.length > 0 ? t('rescan.found', { ids: found.added.join(', '), count: found.added.length }) : t('rescan.none')];
      for (const refused of found.refused) parts.push(t('rescan.refused', { id: refused.id, reason: refused.reason }));
      onOutcome({ tone: found.refused.length > 0 ? 'error' : found.added.length > 0 ? 'success' : 'info', text: parts.join(' ') }, found.added.length + found.refused.length > 0);
    } catch (error) {
      onOutcome({ tone: 'error', text: errorText(error) }, false);
    } finally {
      setScanning(false);
    }
  }

  if (!mayInstall && !mayRescan) return null;
  return (
    <div css={{ display: 'grid', gap: 8, minWidth: 0 }}>
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'flex-end' }}>
        {mayRescan && (
          <Button variant="secondary" icon="search" loading={scanning} disabled={progress !== null} onClick={() => void rescan()} title={t('rescan.hint')}>
            {t('rescan.button')}
          </Button>
        )}
        {mayInstall && (
          <>
            <input
              ref={input}
              type="file"
              accept=".tgz,.gz,application/gzip,application/x-gzip"
              aria-label={t('install.choose')}
              css={{ display: 'none' }}
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) void install(file);
              }}
            />
            <Button icon="archive" loading={progress !== null} disabled={scanning} onClick={() => input.current?.click()}>
              {t('install.button')}
            </Button>
          </>
        )}
      </div>
      {progress && (
        <div css={{ display: 'grid', gap: 4, minWidth: 0 }}>
          <span css={{ fontSize: theme.font.size.sm, color: theme.colors.muted, overflowWrap: 'anywhere' }}>
            {t('install.uploading', { name: progress.name, done: formatFileSize(progress.loaded, i18n.language), total: formatFileSize(progress.total, i18n.language) })}
          </span>
          <ProgressBar done={progress.loaded} total={progress.total} label={t('install.progress', { name: progress.name })} />
        </div>
      )}
    </div>
  );
}
