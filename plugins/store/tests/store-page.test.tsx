// @vitest-environment jsdom
// /store: packs with price, quantity, what the account owns and the max; one click and a
// confirmation buy one, the new balance shows; each submission has its own idempotency key, and a
// submission whose answer was lost is retried with the same key (never charged twice).
import { cleanup, renderPlugin, sessionReply, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import type { StoreItemsResponse } from '../shared/items';

afterEach(() => cleanup());

const catalogue: StoreItemsResponse = {
  balance: 500,
  items: [
    { id: 'ram', price: 100, quantity: 1024, owned: 1024, max: 8192 },
    { id: 'cpu', price: 600, quantity: 100, owned: 100, max: 400 },
    { id: 'ports', price: 100, quantity: 2, owned: 10, max: 10 },
  ],
};

async function open(http: HttpHandlers = {}, settings: Record<string, boolean> = {}) {
  const app = await renderPlugin(plugin, {
    manifest,
    route: '/store',
    catalogues: { en },
    session: { billing: { coins: 500 } },
    settings: { store_enabled: true, ...settings },
    http: { 'GET /api/user/store/items': { body: catalogue }, 'GET /api/user/session': sessionReply({ billing: { coins: 400 } }), ...http },
  });
  await app.findByRole('button', 'Buy Memory');
  return app;
}

type App = Awaited<ReturnType<typeof open>>;

const purchases = (app: App) => app.httpCalls.filter((c) => c.method === 'POST' && c.path === '/api/user/store/purchase');
const balance = (app: App) => app.getByLabelText('Your coins').textContent;

describe('store page', () => {
  it('shows each pack with price, quantity, what the account owns and the max, and why one cannot be bought', async () => {
    const app = await open();
    expect(balance(app)).toBe('500');
    expect(app.getByText('+1,024 MiB for 100 coins')).toBeTruthy();
    expect(app.getByText('You have 1,024 MiB · at most 8,192 MiB')).toBeTruthy();
    expect(app.getByText('+100% for 600 coins')).toBeTruthy();
    const cpu = app.getByRole('group', 'CPU').querySelector('button') as HTMLButtonElement;
    expect([cpu.disabled, cpu.textContent]).toEqual([true, 'Not enough coins']);
    const ports = app.getByRole('group', 'Ports').querySelector('button') as HTMLButtonElement;
    expect([ports.disabled, ports.textContent]).toEqual([true, 'Maximum reached']);
    // named by the reason they show, inside the item's group
    expect([app.queryByRole('button', 'Buy CPU'), app.getByRole('button', 'Not enough coins')]).toEqual([null, cpu]);
    expect((app.getByRole('button', 'Buy Memory') as HTMLButtonElement).disabled).toBe(false);
    // packs the server left out (blocked) are not on the page
    expect(app.queryByText('Disk')).toBeNull();
    // the add-credits link only while buying coins is on
    expect(app.queryByRole('link', 'Add credits')).toBeNull();
    app.unmount();
  });

  it('buys after a confirmation, shows the new balance and refreshes the session', async () => {
    const app = await open(
      { 'POST /api/user/store/purchase': { body: { success: true, replayed: false, item: 'ram', balance: 400, owned: 2048 } } },
      { credits_recharge_enabled: true },
    );
    expect(app.getByRole('link', 'Add credits').getAttribute('href')).toBe('/store/add-credits');
    await app.click(app.getByRole('button', 'Buy Memory'));
    await app.answerDialog('Buy Memory?', 'confirm');
    await app.findByText('You bought Memory. Your balance is now 400 coins.');
    expect(balance(app)).toBe('400');
    expect(app.getByText('You have 2,048 MiB · at most 8,192 MiB')).toBeTruthy();
    expect(purchases(app)).toHaveLength(1);
    expect(purchases(app)[0].body).toEqual({ item: 'ram', idempotency_key: expect.stringMatching(/^[0-9a-f]{32}$/) });
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.path === '/api/user/session')).toBe(true));
    app.unmount();
  });

  it('buys nothing when the confirmation is cancelled', async () => {
    const app = await open({ 'POST /api/user/store/purchase': { body: { success: true, replayed: false, item: 'ram', balance: 400, owned: 2048 } } });
    await app.click(app.getByRole('button', 'Buy Memory'));
    await app.answerDialog('Buy Memory?', 'cancel');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(purchases(app)).toHaveLength(0);
    expect(balance(app)).toBe('500');
    app.unmount();
  });

  it('retries a submission whose answer was lost with the same key; a new submission gets a new key', async () => {
    let calls = 0;
    const app = await open({
      'POST /api/user/store/purchase': () => {
        calls++;
        if (calls === 1) throw new Error('connection reset');
        return { body: { success: true, replayed: calls === 2, item: 'ram', balance: 400, owned: 2048 } };
      },
    });
    await app.click(app.getByRole('button', 'Buy Memory'));
    await app.answerDialog('Buy Memory?', 'confirm');
    await app.findByText('The server could not be reached. Check your connection and try again.');
    await app.click(app.getByRole('button', 'Buy Memory'));
    await app.answerDialog('Buy Memory?', 'confirm');
    await app.findByText('You bought Memory. Your balance is now 400 coins.');
    await app.click(app.getByRole('button', 'Buy Memory'));
    await app.answerDialog('Buy Memory?', 'confirm');
    await app.waitFor(() => expect(purchases(app)).toHaveLength(3));
    const [lost, retried, next] = purchases(app).map((c) => (c.body as { idempotency_key: string }).idempotency_key);
    expect(retried).toBe(lost);
    expect(next).not.toBe(lost);
    app.unmount();
  });

  it('shows a refusal in the buyer’s words and loads the store again', async () => {
    const app = await open({ 'POST /api/user/store/purchase': { status: 409, body: { error: { code: 'STORE_MAX_REACHED', message: 'max', field: 'item' } } } });
    await app.click(app.getByRole('button', 'Buy Memory'));
    await app.answerDialog('Buy Memory?', 'confirm');
    await app.findByText(en.errors.STORE_MAX_REACHED);
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.path === '/api/user/store/items')).toHaveLength(2));
    app.unmount();
  });

  it('says so when nothing is for sale', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/store',
      catalogues: { en },
      session: {},
      http: { 'GET /api/user/store/items': { body: { balance: 0, items: [] } } },
    });
    await app.findByText(en.store.emptyTitle);
    app.unmount();
  });
});
