// "Sync from panel" on each catalog list: imports that list's kind (POST /api/admin/catalog/sync/<kind>)
// and shows what it did. New rows arrive disabled, so the result says an administrator should review
// them before customers see them. Shown only to those who may create rows of that kind.
import { Alert, Button, http, useErrorText, useHasPermission, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { apiUrl, SYNC_PERMISSION, type SyncKind, type SyncReport } from './api';

export function SyncFromPanel({ kind, onSynced }: { kind: SyncKind; onSynced(): void }) {
  const errorText = useErrorText();
  const allowed = useHasPermission(SYNC_PERMISSION[kind]);
  const [running, setRunning] = useState(false);
  const [report, setReport] = useState<Partial<SyncReport> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  if (!allowed) return null;

  async function run() {
    setRunning(true);
    setFailure(null);
    setReport(null);
    try {
      setReport(await http.post<Partial<SyncReport>>(apiUrl.sync(kind)));
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
  return <SyncView kind={kind} running={running} report={report} failure={failure} onRun={() => void run()} onClose={close} />;
}

function SyncView({
  kind,
  running,
  report,
  failure,
  onRun,
  onClose,
}: {
  kind: SyncKind;
  running: boolean;
  report: Partial<SyncReport> | null;
  failure: string | null;
  onRun(): void;
  onClose(): void;
}) {
  const { t } = useTranslation('server-catalog');
  const done = report?.[kind];
  return (
    <div css={{ display: 'grid', gap: 12 }}>
      <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 10 }}>
        <Button variant="secondary" icon="plug" loading={running} onClick={onRun}>
          {running ? t('sync.running') : t('sync.button')}
        </Button>
        <span css={{ fontSize: 13, opacity: 0.75 }}>{t(`sync.hint.${kind}`)}</span>
      </div>
      {failure && (
        <Alert tone="error" title={t('sync.failed')} onClose={onClose}>
          <p css={{ margin: 0 }}>{failure}</p>
        </Alert>
      )}
      {done && (
        <Alert tone="success" title={t('sync.done')} onClose={onClose}>
          <p css={{ margin: 0 }}>
            <span>{t(`sync.line.${kind}`, { created: done.created, updated: done.updated, missing: done.missing_on_panel.length })}</span>
            {done.missing_on_panel.length > 0 && <span> {t('sync.missingNames', { names: done.missing_on_panel.map((m) => m.name).join(', ') })}</span>}
          </p>
          {done.created > 0 && <p css={{ margin: '8px 0 0' }}>{t('sync.review')}</p>}
        </Alert>
      )}
    </div>
  );
}
