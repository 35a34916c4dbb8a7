// @vitest-environment jsdom
// /server/:id/renew: expiry, cost, days and balance; renewing sends one idempotency key per page
// view — a double click and a retry after a lost answer send the same key (charged once), another
// page view makes a new one; when renewal is off the page says so and offers nothing to pay.
import { cleanup, renderPlugin, sessionReply, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import type { ServerDetail } from '../shared/api';
import { serverDetail } from './fixtures';

afterEach(() => cleanup());

const RENEWED_UNTIL = '2027-01-05T12:00:00.000Z';

async function open(server: ServerDetail, http: HttpHandlers = {}, coins = 500) {
  const app = await renderPlugin(plugin, {
    manifest,
    route: `/server/${server.id}/renew`,
    catalogues: { en },
    session: { billing: { coins } },
    settings: { server_renew_enabled: true, store_enabled: true },
    http: { [`GET /api/user/server/${server.id}`]: { body: server }, 'GET /api/user/session': sessionReply({ billing: { coins: coins - 100 } }), ...http },
  });
  await app.findByText(server.name);
  return app;
}

type App = Awaited<ReturnType<typeof open>>;
const renews = (app: App) => app.httpCalls.filter((c) => c.method === 'POST' && c.path === '/api/user/server/4/renew');
const keyOf = (call: { body: unknown }) => (call.body as { idempotency_key: string }).idempotency_key;
const renewButton = (app: App) => app.getByRole('button', 'Renew for 100 coins') as HTMLButtonElement;

describe('renew server page', () => {
  it('shows expiry, cost, days and balance', async () => {
    const app = await open(serverDetail(4));
    expect(document.body.textContent).toContain('days left: 5');
    expect(document.body.textContent).toContain('100 coins');
    expect(document.body.textContent).toContain('30 days');
    expect(app.getByLabelText(en.renew.balance).textContent).toBe('500 coins');
    expect(document.body.textContent).toContain('400 coins');
    app.unmount();
  });

  it('sends one key for a double click and is charged once', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const app = await open(serverDetail(4), {
      'POST /api/user/server/4/renew': async () => {
        await answered;
        return { body: serverDetail(4, { expires_at: RENEWED_UNTIL }) };
      },
    });
    const button = renewButton(app);
    await app.click(button);
    await app.click(button);
    release();
    await app.findByText(en.renew.doneTitle);
    const sent = renews(app);
    expect(sent).toHaveLength(1);
    expect(new Set(sent.map(keyOf)).size).toBe(1);
    expect(keyOf(sent[0])).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    // once renewed, nothing more to click on this page
    expect(app.queryByRole('button', 'Renew for 100 coins')).toBeNull();
    app.unmount();
  });

  it('retries a renewal whose answer was lost with the same key; a new page view makes a new key', async () => {
    let calls = 0;
    const handlers: HttpHandlers = {
      'POST /api/user/server/4/renew': () => {
        calls++;
        if (calls === 1) throw new Error('connection reset');
        return { body: serverDetail(4, { expires_at: RENEWED_UNTIL }) };
      },
    };
    const app = await open(serverDetail(4), handlers);
    await app.click(renewButton(app));
    await app.findByText('The server could not be reached. Check your connection and try again.');
    await app.click(renewButton(app));
    await app.findByText(en.renew.doneTitle);
    const [lost, retried] = renews(app).map(keyOf);
    expect(retried).toBe(lost);
    app.unmount();

    const again = await open(serverDetail(4), handlers);
    await again.click(renewButton(again));
    await again.findByText(en.renew.doneTitle);
    expect(keyOf(renews(again)[0])).not.toBe(lost);
    again.unmount();
  });

  it('shows a refusal in the user’s words', async () => {
    const app = await open(serverDetail(4), { 'POST /api/user/server/4/renew': { status: 409, body: { error: { code: 'INSUFFICIENT_COINS', message: 'no' } } } });
    await app.click(renewButton(app));
    await app.findByText(en.errors.INSUFFICIENT_COINS);
    app.unmount();
  });

  it('does not offer to renew without enough coins', async () => {
    const app = await open(serverDetail(4), {}, 40);
    expect(renewButton(app).disabled).toBe(true);
    expect(app.getByText('You need 100 coins to renew this server.')).toBeTruthy();
    expect(app.getByRole('link', en.renew.getCoins).getAttribute('href')).toBe('/store');
    app.unmount();
  });

  it('says so when renewal is off, with nothing to pay', async () => {
    const app = await open(serverDetail(4, { renewal: { enabled: false, cost: 100, days: 30 }, expires_at: null }));
    expect(app.getByText(en.renew.offTitle)).toBeTruthy();
    expect(app.queryByRole('button', 'Renew for 100 coins')).toBeNull();
    expect(renews(app)).toHaveLength(0);
    app.unmount();
  });
});
