// The "Test connection" button of the Pterodactyl settings group: one call to the panel with the
// stored address and key (POST /api/admin/pterodactyl/test). Unsaved edits are not tested, so the
// button says so while there are any.
import { Alert, Button, http, isApiError, theme, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { settingsUrl } from './settings-api';

interface TestAnswer {
  ok: true;
  latency_ms: number;
  locations: number;
  nodes: number;
}

type Outcome = { kind: 'ok'; answer: TestAnswer } | { kind: 'failed'; code: string; message: string };

/** the PanelError codes the catalogue translates; another code shows the panel's own message */
const KNOWN_CODES = ['PANEL_NOT_CONFIGURED', 'PANEL_UNREACHABLE', 'PANEL_TIMEOUT', 'PANEL_RATE_LIMITED', 'PANEL_AUTH', 'PANEL_NOT_FOUND', 'PANEL_ERROR'];

export function PanelConnectionTest({ unsaved }: { unsaved: boolean }) {
  const { t } = useTranslation('admin-settings');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function run() {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ kind: 'ok', answer: await http.post<TestAnswer>(settingsUrl.pterodactylTest(), {}) });
    } catch (error) {
      const code = isApiError(error) ? error.code : 'PANEL_ERROR';
      setOutcome({ kind: 'failed', code, message: isApiError(error) ? error.message : '' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div css={{ display: 'grid', gap: 12, marginTop: 16 }}>
      <div css={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
        <Button type="button" variant="secondary" loading={busy} onClick={() => void run()}>
          {t('settings.panelTest.button')}
        </Button>
        <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{unsaved ? t('settings.panelTest.unsaved') : t('settings.panelTest.hint')}</span>
      </div>
      <div aria-live="polite">
        {outcome?.kind === 'ok' && (
          <Alert tone="success" onClose={() => setOutcome(null)}>
            {t('settings.panelTest.ok', { latency: outcome.answer.latency_ms, locations: outcome.answer.locations, nodes: outcome.answer.nodes })}
          </Alert>
        )}
        {outcome?.kind === 'failed' && (
          <Alert tone="error" title={t('settings.panelTest.failed')} onClose={() => setOutcome(null)}>
            {KNOWN_CODES.includes(outcome.code) ? t(`settings.panelTest.codes.${outcome.code}`) : outcome.code}
            {outcome.message && (
              <div css={{ marginTop: 6, color: theme.colors.muted, fontSize: theme.font.size.sm, wordBreak: 'break-word' }}>
                {t('settings.panelTest.panelSaid', { message: outcome.message })}
              </div>
            )}
          </Alert>
        )}
      </div>
    </div>
  );
}
