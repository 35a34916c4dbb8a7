// What the buyer sees back from the payment provider (/store/add-credits?order=…): the coins arrive
// when the provider confirms the payment to the server (Stripe's webhook; for PayPal, our capture
// of the order the buyer approved — asked for here), so the page follows the order until it is
// credited or failed, and says so plainly when confirmation takes longer.
import { Alert, http, isApiError, Spinner, useErrorText, useSession, useTranslation } from '@orepanel/sdk';
import { useEffect, useRef, useState } from 'react';
import type { CreditOrderView } from '../shared/money';
import { captureApi, orderApi } from './store-api';

export const POLL_INTERVAL_MS = 2000;
export const POLL_ATTEMPTS = 30;

type Phase =
  | { kind: 'checking' }
  | { kind: 'waiting'; order: CreditOrderView }
  | { kind: 'settled'; order: CreditOrderView }
  | { kind: 'slow'; order: CreditOrderView }
  | { kind: 'error'; text: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function PaymentReturn({ orderId, capture }: { orderId: string; capture: boolean }) {
  const { t } = useTranslation('store');
  const errorText = useErrorText();
  const { refresh } = useSession();
  const [phase, setPhase] = useState<Phase>({ kind: 'checking' });
  // the loop below runs once per order; these change identity on every session refresh
  const latest = useRef({ errorText, refresh });
  latest.current = { errorText, refresh };

  useEffect(() => {
    let stopped = false;
    void (async () => {
      try {
        let order = capture ? await http.post<CreditOrderView>(captureApi(orderId)) : await http.get<CreditOrderView>(orderApi(orderId));
        for (let attempt = 1; !stopped; attempt++) {
          if (order.status === 'credited' || order.status === 'failed') {
            setPhase({ kind: 'settled', order });
            if (order.status === 'credited') void latest.current.refresh();
            return;
          }
          if (attempt >= POLL_ATTEMPTS) {
            setPhase({ kind: 'slow', order });
            return;
          }
          setPhase({ kind: 'waiting', order });
          await sleep(POLL_INTERVAL_MS);
          if (stopped) return;
          order = await http.get<CreditOrderView>(orderApi(orderId));
        }
      } catch (error) {
        if (!stopped) setPhase({ kind: 'error', text: isApiError(error) ? latest.current.errorText(error) : t('credits.return.unknown') });
      }
    })();
    return () => {
      stopped = true;
    };
  }, [orderId, capture, t]);

  const provider = (order: CreditOrderView) => t(`credits.providers.${order.provider}`);
  switch (phase.kind) {
    case 'checking':
      return (
        <Alert tone="info">
          <span css={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
            <Spinner size={16} />
            <span>{t('credits.return.checking')}</span>
          </span>
        </Alert>
      );
    case 'waiting':
      return (
        <Alert tone="info">
          <span css={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
            <Spinner size={16} />
            <span>{t('credits.return.waiting', { provider: provider(phase.order) })}</span>
          </span>
        </Alert>
      );
    case 'slow':
      return <Alert tone="info">{t('credits.return.slow', { provider: provider(phase.order) })}</Alert>;
    case 'settled':
      return phase.order.status === 'credited' ? (
        <Alert tone="success" title={t('credits.return.creditedTitle')}>
          <span>{t('credits.return.credited', { coins: phase.order.coins })}</span>
        </Alert>
      ) : (
        <Alert tone="error">{t('credits.return.failed')}</Alert>
      );
    case 'error':
      return <Alert tone="error">{phase.text}</Alert>;
  }
}
