// /store/add-credits: buy coins with money. The buyer types an amount, sees the coins it buys (the
// same integer arithmetic the server uses), and picks a provider; the server opens the payment and
// the browser goes to the provider's page. Back from there, PaymentReturn follows the payment until
// the provider has confirmed it and the coins are credited.
import { Alert, Button, Card, EmptyState, http, LoadError, Page, Skeleton, TextField, theme, useApi, useErrorText, useSearchParams, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { coinsForAmount, formatMinor, parseMoney, type CheckoutResponse, type CreditsOptions, type PaymentProvider } from '../shared/money';
import { paymentRedirect } from './payment-redirect';
import { PaymentReturn } from './PaymentReturn';
import { CHECKOUT_API, CREDITS_API } from './store-api';

const ORDER_ID = /^co_[A-Za-z0-9_-]{10,36}$/;
/** the amount the field starts with: five currency units, inside the allowed range */
const SUGGESTED_UNITS = 5;

/** The language's decimal mark ("," in French), for showing amounts that are kept as exact text. */
function decimalMark(language: string): string {
  try {
    return new Intl.NumberFormat(language).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  } catch {
    return '.';
  }
}

function BuyCoins({ options }: { options: CreditsOptions }) {
  const { t, i18n } = useTranslation('store');
  const errorText = useErrorText();
  const { exponent, currency_symbol: symbol, min_amount_minor: min, max_amount_minor: max } = options;
  const mark = decimalMark(i18n.language);
  const money = (minor: number) => t('credits.money', { symbol, value: formatMinor(minor, exponent).replace('.', mark) });
  const suggested = Math.min(Math.max(SUGGESTED_UNITS * 10 ** exponent, min), max);
  const [amount, setAmount] = useState(formatMinor(suggested, exponent));
  const [busy, setBusy] = useState<PaymentProvider | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const minor = parseMoney(amount, exponent);
  const problem = minor === null ? t('credits.invalidAmount') : minor < min || minor > max ? t('credits.outOfRange', { min: money(min), max: money(max) }) : null;
  const coins = minor !== null && problem === null ? coinsForAmount(minor, options.coins_per_unit, exponent) : null;

  const pay = async (provider: PaymentProvider) => {
    if (minor === null || problem) return;
    setBusy(provider);
    setFailure(null);
    try {
      const answer = await http.post<CheckoutResponse>(CHECKOUT_API, { provider, amount_minor: minor });
      // leaving for the provider's page: the button stays busy until the browser has gone
      paymentRedirect.go(answer.redirect_url);
    } catch (error) {
      setFailure(errorText(error));
      setBusy(null);
    }
  };

  if (options.providers.length === 0) {
    return (
      <Card>
        <EmptyState icon="coins" title={t('credits.unavailableTitle')} text={t('credits.unavailableText')} />
      </Card>
    );
  }
  return (
    <Card title={t('credits.formTitle')}>
      <div css={{ display: 'grid', gap: 16, maxWidth: 480 }}>
        <p css={{ margin: 0, color: theme.colors.muted }}>{t('credits.rate', { coins: options.coins_per_unit, unit: money(10 ** exponent) })}</p>
        <TextField
          label={t('credits.amount', { currency: options.currency })}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(value) => setAmount(value)}
          error={problem}
          hint={t('credits.range', { min: money(min), max: money(max) })}
        />
        <p css={{ margin: 0, fontSize: theme.font.size.lg, fontWeight: theme.font.weight.semibold, color: theme.colors.text }}>
          <output aria-label={t('credits.youGetLabel')}>{coins === null ? '—' : t('credits.youGet', { coins })}</output>
        </p>
        {failure && (
          <Alert tone="error" onClose={() => setFailure(null)}>
            {failure}
          </Alert>
        )}
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 10 }}>
          {options.providers.map((provider) => (
            <Button key={provider} icon="coins" loading={busy === provider} disabled={problem !== null || (busy !== null && busy !== provider)} onClick={() => void pay(provider)}>
              {t('credits.payWith', { provider: t(`credits.providers.${provider}`) })}
            </Button>
          ))}
        </div>
        <p css={{ margin: 0, color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('credits.note')}</p>
      </div>
    </Card>
  );
}

export default function AddCreditsPage() {
  const { t } = useTranslation('store');
  const [params] = useSearchParams();
  const { data, error, loading, reload } = useApi<CreditsOptions>(CREDITS_API);
  const orderId = params.get('order');
  const cancelled = params.get('cancelled');

  return (
    <Page title={t('credits.title')} description={t('credits.description')}>
      <div css={{ display: 'grid', gap: 18 }}>
        {orderId && ORDER_ID.test(orderId) && <PaymentReturn orderId={orderId} capture={params.get('provider') === 'paypal'} />}
        {cancelled && <Alert tone="info">{t('credits.cancelled')}</Alert>}
        {error && !data ? (
          <LoadError error={error} onRetry={reload} />
        ) : loading && !data ? (
          <Skeleton height={260} label={t('credits.loading')} />
        ) : data ? (
          <BuyCoins options={data} />
        ) : null}
      </div>
    </Page>
  );
}
