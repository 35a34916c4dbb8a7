// /store: the resource packs with their price, what one pack adds, what the account owns and the
// most it may own. Buying is one click and a confirmation; the new balance shows at once (and the
// session is refreshed, so the rest of the panel agrees). Each confirmed submission carries its own
// idempotency key; when the answer is lost on the way (network error), trying again reuses it, so a
// purchase that did go through is never charged twice.
import {
  Alert,
  Button,
  Card,
  dialogs,
  EmptyState,
  Grid,
  http,
  Icon,
  isApiError,
  isSettingEnabled,
  LoadError,
  Page,
  Skeleton,
  StatCard,
  theme,
  useApi,
  useErrorText,
  useSession,
  useSetting,
  useTranslation,
} from '@orepanel/sdk';
import { useRef, useState } from 'react';
import type { StoreItemId, StoreItemOffer, StoreItemsResponse, StorePurchaseResponse } from '../shared/items';
import { ITEM_ICONS, resourceText } from './resource-text';
import { ITEMS_API, newPurchaseKey, PURCHASE_API } from './store-api';

type Notice = { tone: 'success' | 'error'; text: string };

function withPurchase(state: StoreItemsResponse, answer: StorePurchaseResponse): StoreItemsResponse {
  return { balance: answer.balance, items: state.items.map((item) => (item.id === answer.item ? { ...item, owned: answer.owned } : item)) };
}

function ItemCard({ item, balance, busy, onBuy }: { item: StoreItemOffer; balance: number; busy: boolean; onBuy(item: StoreItemOffer): void }) {
  const { t } = useTranslation('store');
  const atMax = item.owned + item.quantity > item.max;
  const tooDear = balance < item.price;
  const name = t(`items.${item.id}.name`);
  return (
    <Card
      title={
        <span css={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
          <Icon name={ITEM_ICONS[item.id]} size={18} />
          {name}
        </span>
      }
    >
      {/* the group names the item; a disabled button is named by the reason it shows (an aria-label
          of "Buy CPU" over "Not enough coins" would hide that reason from speech input, WCAG 2.5.3) */}
      <div css={{ display: 'grid', gap: 10 }} aria-label={name} role="group">
        <p css={{ margin: 0, color: theme.colors.muted }}>{t(`items.${item.id}.text`)}</p>
        <p css={{ margin: 0, fontSize: theme.font.size.lg, fontWeight: theme.font.weight.semibold, color: theme.colors.text }}>
          {t('store.pack', { amount: resourceText(t, item.id, item.quantity), price: item.price })}
        </p>
        <p css={{ margin: 0, color: theme.colors.muted }}>{t('store.owned', { owned: resourceText(t, item.id, item.owned), max: resourceText(t, item.id, item.max) })}</p>
        <Button icon="store" loading={busy} disabled={atMax || tooDear} onClick={() => onBuy(item)} aria-label={atMax || tooDear ? undefined : t('store.buyItem', { item: name })}>
          {atMax ? t('store.atMax') : tooDear ? t('store.tooDear') : t('store.buy')}
        </Button>
      </div>
    </Card>
  );
}

export default function StorePage() {
  const { t } = useTranslation('store');
  const errorText = useErrorText();
  const { refresh } = useSession();
  const creditsOn = isSettingEnabled(useSetting('credits_recharge_enabled'));
  const { data, error, loading, reload } = useApi<StoreItemsResponse>(ITEMS_API);
  const [bought, setBought] = useState<StoreItemsResponse | null>(null);
  const [busy, setBusy] = useState<StoreItemId | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  // keys of submissions whose answer never arrived: the next try of that item resends the same key
  const unanswered = useRef(new Map<StoreItemId, string>());
  const view = bought ?? data;

  const buy = async (item: StoreItemOffer) => {
    if (!view) return;
    const name = t(`items.${item.id}.name`);
    const confirmed = await dialogs.confirm({
      title: t('confirm.title', { item: name }),
      text: t('confirm.text', { amount: resourceText(t, item.id, item.quantity), item: name, price: item.price, balance: view.balance - item.price }),
      icon: 'question',
      confirmText: t('confirm.buy'),
      cancelText: t('confirm.cancel'),
    });
    if (!confirmed) return;
    const key = unanswered.current.get(item.id) ?? newPurchaseKey();
    unanswered.current.set(item.id, key);
    setBusy(item.id);
    setNotice(null);
    try {
      const answer = await http.post<StorePurchaseResponse>(PURCHASE_API, { item: item.id, idempotency_key: key });
      unanswered.current.delete(item.id);
      setBought(withPurchase(view, answer));
      setNotice({ tone: 'success', text: t('store.bought', { item: name, balance: answer.balance }) });
      void refresh();
    } catch (err) {
      // an answer (even a refusal) settles the submission; only a lost one keeps its key
      if (!isApiError(err) || err.status !== 0) unanswered.current.delete(item.id);
      setNotice({ tone: 'error', text: errorText(err) });
      if (isApiError(err) && err.status === 409) {
        setBought(null);
        reload();
      }
    } finally {
      setBusy(null);
    }
  };

  const addCredits = creditsOn ? (
    <Button variant="secondary" icon="coins" to="/store/add-credits">
      {t('store.addCredits')}
    </Button>
  ) : undefined;

  return (
    <Page title={t('store.title')} description={t('store.description')} actions={addCredits}>
      {error && !view ? (
        <LoadError error={error} onRetry={reload} />
      ) : loading && !view ? (
        <Grid min={240}>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={180} label={t('store.loading')} />
          ))}
        </Grid>
      ) : view ? (
        <div css={{ display: 'grid', gap: 18 }}>
          <div css={{ maxWidth: 320 }}>
            <StatCard label={t('store.balance')} value={<output aria-label={t('store.balance')}>{t('units.count', { value: view.balance })}</output>} icon="coins" />
          </div>
          {notice && (
            <Alert tone={notice.tone} onClose={() => setNotice(null)}>
              {notice.text}
            </Alert>
          )}
          {view.items.length === 0 ? (
            <Card>
              <EmptyState icon="store" title={t('store.emptyTitle')} text={t('store.emptyText')} />
            </Card>
          ) : (
            <Grid min={240}>
              {view.items.map((item) => (
                <ItemCard key={item.id} item={item} balance={view.balance} busy={busy === item.id} onBuy={(i) => void buy(i)} />
              ))}
            </Grid>
          )}
        </div>
      ) : null}
    </Page>
  );
}
