// /server/:id/renew: when the server expires, what a renewal costs and adds, and the balance to pay
// it with. The idempotency key is made once per page view: a double click, or a retry after an
// answer that never arrived, sends the same key, so the server charges once.
import { Alert, Button, Card, http, isSettingEnabled, Page, ResourceState, theme, useErrorText, useSession, useSetting, useTranslation } from '@orepanel/sdk';
import { useRef, useState, type ReactNode } from 'react';
import type { RenewServerRequest, RenewServerResponse, ServerDetail } from '../shared/api';
import { api, paths } from './paths';
import { ServerHeader } from './ServerHeader';
import { ExpiryText } from './server-status';
import { useServerFromAddress } from './use-server';

/** One key per page view (the API accepts 8–64 of [A-Za-z0-9_-]; a UUID fits). */
export function newRenewKey(): string {
  return crypto.randomUUID();
}

function Terms({ server, balance }: { server: ServerDetail; balance: number | null }) {
  const { t } = useTranslation('servers');
  const row = (label: string, value: ReactNode) => (
    <div css={{ display: 'contents' }}>
      <dt css={{ color: theme.colors.muted }}>{label}</dt>
      <dd css={{ margin: 0, fontVariantNumeric: 'tabular-nums' }}>{value}</dd>
    </div>
  );
  return (
    <dl css={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: '8px 18px', margin: 0 }}>
      {row(t('renew.expires'), <ExpiryText expiresAt={server.expires_at} />)}
      {row(t('renew.cost'), t('units.coins', { value: server.renewal.cost }))}
      {row(t('renew.adds'), t('units.days', { value: server.renewal.days }))}
      {balance !== null && row(t('renew.balance'), <output aria-label={t('renew.balance')}>{t('units.coins', { value: balance })}</output>)}
      {balance !== null && balance >= server.renewal.cost && row(t('renew.after'), t('units.coins', { value: balance - server.renewal.cost }))}
    </dl>
  );
}

function RenewCard({ server, onRenewed }: { server: ServerDetail; onRenewed(): void }) {
  const { t } = useTranslation('servers');
  const errorText = useErrorText();
  const { billing, refresh } = useSession();
  const storeOn = isSettingEnabled(useSetting('store_enabled'));
  const [key] = useState(newRenewKey);
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [renewed, setRenewed] = useState<RenewServerResponse | null>(null);
  const shown = renewed ?? server;
  const balance = typeof billing?.coins === 'number' ? billing.coins : null;
  const tooDear = balance !== null && balance < server.renewal.cost && !renewed;

  const renew = async () => {
    if (running.current) return; // a second click while the first is on its way sends nothing
    running.current = true;
    setBusy(true);
    setFailure(null);
    try {
      const body: RenewServerRequest = { idempotency_key: key };
      setRenewed(await http.post<RenewServerResponse>(api.renew(server.id), body));
      void refresh();
      onRenewed();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  if (!server.renewal.enabled) {
    return (
      <Card>
        <Alert tone="info" title={t('renew.offTitle')}>
          {t('renew.offText')}
        </Alert>
      </Card>
    );
  }

  return (
    <Card title={t('renew.title')}>
      <div css={{ display: 'grid', gap: 16 }}>
        <Terms server={shown} balance={balance} />
        {shown.expires_at === null && !renewed && <p css={{ margin: 0, color: theme.colors.muted }}>{t('renew.neverExpires')}</p>}
        {renewed && (
          <Alert tone="success" title={t('renew.doneTitle')}>
            {renewed.expires_at ? t('renew.done', { date: new Date(renewed.expires_at) }) : t('renew.doneNoDate')}
          </Alert>
        )}
        {failure && (
          <Alert tone="error" onClose={() => setFailure(null)}>
            {failure}
          </Alert>
        )}
        {tooDear && <Alert tone="warning">{t('renew.tooDear', { cost: server.renewal.cost })}</Alert>}
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          {!renewed && (
            <Button icon="clock" loading={busy} disabled={tooDear} onClick={() => void renew()}>
              {t('renew.submit', { cost: server.renewal.cost })}
            </Button>
          )}
          {tooDear && storeOn && (
            <Button variant="secondary" icon="store" to={paths.store}>
              {t('renew.getCoins')}
            </Button>
          )}
          <Button variant="secondary" to={paths.dashboard}>
            {t('common.backToDashboard')}
          </Button>
        </div>
      </div>
    </Card>
  );
}

export default function ServerRenewPage() {
  const { t } = useTranslation('servers');
  const loaded = useServerFromAddress();
  return (
    <Page title={t('titles.renew')} description={t('renew.description')}>
      <ResourceState data={loaded.data} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('server.loadFailed')}>
        {(server) => (
          <div css={{ display: 'grid', gap: 16 }}>
            <ServerHeader server={server} />
            <RenewCard server={server} onRenewed={loaded.reload} />
          </div>
        )}
      </ResourceState>
    </Page>
  );
}
