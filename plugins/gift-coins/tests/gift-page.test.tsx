// @vitest-environment jsdom
// /profile/:uuid/gift-coins: the recipient is shown, the fee and total follow the amount as it is
// typed (the same rounding as the server), amounts outside the rules or past the balance are refused
// before asking, and a confirmed gift is one submission: retrying it sends the same idempotency key,
// a new review gets a new one.
import { cleanup, renderPlugin, sessionReply, type HttpHandlers, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const BOB = '11111111-2222-4333-8444-555555555555';
const options = { recipient: { uuid: BOB, username: 'bob', avatar: null }, rules: { min: 1, max: 100, fee_percent: 10 }, balance: 60 };

async function open(http: HttpHandlers = {}) {
  const app = await renderPlugin(plugin, {
    manifest,
    route: `/profile/${BOB}/gift-coins`,
    catalogues: { en },
    session: {},
    http: { [`GET /api/user/gift/recipient/${BOB}`]: { body: options }, 'GET /api/user/session': sessionReply({}), ...http },
  });
  return app;
}

type App = Awaited<ReturnType<typeof open>>;

/** the live summary's value for `label` */
function summary(app: App, label: string): string | undefined {
  const list = app.getByLabelText(en.summary.label);
  const row = [...list.querySelectorAll('div')].find((div) => div.querySelector('dt')?.textContent === label);
  return row?.querySelector('dd')?.textContent ?? undefined;
}

const gifts = (app: App): RecordedHttpCall[] => app.httpCalls.filter((c) => c.method === 'POST' && c.path === '/api/user/gift');

describe('gift coins page', () => {
  it('shows the recipient and computes the fee and total as the amount is typed', async () => {
    const app = await open();
    await app.findByRole('heading', 'Gift coins to bob');
    expect(app.getByLabelText(en.recipient.name).textContent).toBe('bob');
    const fee = 'Fee (10 %)';
    expect(summary(app, en.summary.balance)).toBe('60');
    await app.type(app.getByLabelText(en.form.amount), '30');
    expect(summary(app, fee)).toBe('3');
    expect(summary(app, en.summary.total)).toBe('33');
    await app.type(app.getByLabelText(en.form.amount), '1');
    expect(summary(app, fee)).toBe('1');
    expect(summary(app, en.summary.total)).toBe('2');
  });

  it('refuses amounts outside the rules or past the balance before asking the server', async () => {
    const app = await open();
    const amount = await app.waitFor(() => app.getByLabelText(en.form.amount));
    const tryAmount = async (text: string, message: string) => {
      await app.type(amount, text);
      await app.click(app.getByRole('button', en.form.next));
      await app.findByText(message);
    };
    await tryAmount('', en.validation.required);
    await tryAmount('2.5', en.validation.whole);
    await tryAmount('101', 'A gift is at most 100 coins.');
    await tryAmount('0', en.validation.whole);
    // 55 + fee 6 = 61 > 60
    await tryAmount('55', 'With the fee this costs 61 coins, but you have 60.');
    expect(app.queryByRole('heading', en.review.title)).toBeNull();
    expect(gifts(app)).toHaveLength(0);
  });

  it('sends one submission: a retry keeps its key, a new review gets a new one', async () => {
    let attempt = 0;
    const app = await open({
      'POST /api/user/gift': (call) => {
        attempt++;
        if (attempt === 1) return { status: 503, body: { error: { code: 'SERVER_UNAVAILABLE', message: 'down' } } };
        const body = call.body as { amount: number };
        return { body: { success: true, replayed: false, recipient: options.recipient, amount: body.amount, fee: 5, total: body.amount + 5, balance: 60 - body.amount - 5 } };
      },
    });
    await app.type(await app.waitFor(() => app.getByLabelText(en.form.amount)), '50');
    await app.click(app.getByRole('button', en.form.next));
    await app.findByText('Send 50 coins to bob?');
    expect(summary(app, en.summary.after)).toBe('5');
    expect(summary(app, en.summary.total)).toBe('55');
    await app.click(app.getByRole('button', en.review.confirm));
    await app.findByText('The server is currently unavailable. Please try again later.');
    await app.click(app.getByRole('button', en.review.confirm));
    await app.findByText(en.done.title);
    expect(document.body.textContent).toContain('bob received 50 coins. You paid a fee of 5 coins; your balance is now 5 coins.');
    const [first, second] = gifts(app);
    expect(first.body).toMatchObject({ recipient: BOB, amount: 50 });
    expect((first.body as { idempotency_key: string }).idempotency_key).toMatch(/^[0-9a-f]{32}$/);
    expect(second.body).toEqual(first.body);

    // the next gift is another submission
    await app.click(app.getByRole('button', en.done.again));
    await app.type(app.getByLabelText(en.form.amount), '4');
    await app.click(app.getByRole('button', en.form.next));
    await app.click(await app.findByRole('button', en.review.confirm));
    await app.waitFor(() => expect(gifts(app)).toHaveLength(3));
    expect((gifts(app)[2].body as { idempotency_key: string }).idempotency_key).not.toBe((first.body as { idempotency_key: string }).idempotency_key);
  });

  it('lets the amount be changed from the review, and a changed amount is a new submission', async () => {
    const app = await open({ 'POST /api/user/gift': { status: 409, body: { error: { code: 'INSUFFICIENT_COINS', message: 'Not enough coins.' } } } });
    await app.type(await app.waitFor(() => app.getByLabelText(en.form.amount)), '10');
    await app.click(app.getByRole('button', en.form.next));
    await app.click(await app.findByRole('button', en.review.confirm));
    await app.findByText(en.errors.INSUFFICIENT_COINS);
    await app.click(app.getByRole('button', en.review.change));
    await app.type(app.getByLabelText(en.form.amount), '9');
    await app.click(app.getByRole('button', en.form.next));
    await app.click(await app.findByRole('button', en.review.confirm));
    await app.waitFor(() => expect(gifts(app)).toHaveLength(2));
    const [a, b] = gifts(app).map((c) => c.body as { amount: number; idempotency_key: string });
    expect([a.amount, b.amount]).toEqual([10, 9]);
    expect(a.idempotency_key).not.toBe(b.idempotency_key);
  });

  it("says why a gift cannot go to this account (the server's words, translated)", async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: `/profile/${BOB}/gift-coins`,
      catalogues: { en },
      session: {},
      http: {
        [`GET /api/user/gift/recipient/${BOB}`]: { status: 400, body: { error: { code: 'SELF_TRANSFER', message: 'You cannot send coins to yourself.', field: 'recipient' } } },
      },
    });
    await app.findByText(en.errors.SELF_TRANSFER);
    expect(app.getByText(en.loadFailed)).toBeTruthy();
    expect(document.querySelector('input[name="amount"]')).toBeNull();
  });
});
