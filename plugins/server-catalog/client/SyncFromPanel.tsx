// "Sync from panel" on each catalog list: runs the import (POST /api/admin/catalog/sync) and shows
// what it did per kind. New rows arrive disabled, so the result says an administrator should review
// them before customers see them. Shown only to those who may create all three kinds.
import { Alert, Button, http, useErrorText, useHasPermission, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { apiUrl, SYNC_PERMISSIONS, type SyncReport } from './api';

export function SyncFromPanel({ onSynced }: { onSynced(): void }) {
  const errorText = useErrorText();
  const allowed = useHasPermission(SYNC_PERMISSIONS);
  const [running, setRunning] = useState(false);
  const [report, setReport] = useState<SyncReport | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  if (!allowed) return null;

  async function run() {
    setRunning(true);
    setFailure(null);
    setReport(null);
    try {
      setReport(await http.post<SyncReport>(apiUrl.sync));
      onSynced();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setRunning(false);
    }
  }

  const close = () => {
    setReport(null);
    setFailure(null);
  };
  return <SyncView running={running} report={report} failure={failure} onRun={() => void run()} onClose={close} />;
}

function SyncView({ running, report, failure, onRun, onClose }: { running: boolean; report: SyncReport | null; failure: string | null; onRun(): void; onClose(): void }) {
  const { t } = useTranslation('server-catalog');
  const created = report ? report.locations.created + report.categories.created + report.eggs.created : 0;
  return (
    <div css={{ display: 'grid', gap: 12 }}>
      <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 10 }}>
        <Button variant="secondary" icon="plug" loading={running} onClick={onRun}>
          {running ? t('sync.running') : t('sync.button')}
        </Button>
        <span css={{ fontSize: 13, opacity: 0.75 }}>{t('sync.hint')}</span>
      </div>
      {failure && (
        <Alert tone="error" title={t('sync.failed')} onClose={onClose}>
          <p css={{ margin: 0 }}>{failure}</p>
        </Alert>
      )}
      {report && (
        <Alert tone="success" title={t('sync.done')} onClose={onClose}>
          <ul css={{ margin: 0, paddingLeft: 18, display: 'grid', gap: 4 }}>
            {(['locations', 'categories', 'eggs'] as const).map((kind) => (
              <li key={kind}>
                <span>{t(`sync.line.${kind}`, { created: report[kind].created, updated: report[kind].updated, missing: report[kind].missing_on_panel.length })}</span>
                {report[kind].missing_on_panel.length > 0 && <span> {t('sync.missingNames', { names: report[kind].missing_on_panel.map((m) => m.name).join(', ') })}</span>}
              </li>
            ))}
          </ul>
          {created > 0 && <p css={{ margin: '8px 0 0' }}>{t('sync.review')}</p>}
        </Alert>
      )}
    </div>
  );
}
