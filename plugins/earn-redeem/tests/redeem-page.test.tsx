// @vitest-environment jsdom
// /earn/redeem: a code that cannot be one is refused before asking the server; a redeemed code shows
// what it gave and the new balance (and the session is fetched again); the server's refusals are
// shown in the user's words, on the field when they concern the code.
import { cleanup, renderPlugin, sessionReply, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const session = { billing: { coins: 100 } };

async function open(http: HttpHandlers = {}) {
  const app = await renderPlugin(plugin, { manifest, route: '/earn/redeem', catalogues: { en }, session, http: { 'GET /api/user/session': sessionReply(session), ...http } });
  await app.findByRole('button', en.form.submit);
  return app;
}

const posts = (app: Awaited<ReturnType<typeof open>>) => app.httpCalls.filter((c) => c.method === 'POST' && c.path === '/api/user/earn/redeem');

describe('redeem page', () => {
  it('shows the balance and refuses an empty or malformed code without asking the server', async () => {
    const app = await open();
    expect(app.getByText('100 coins')).toBeTruthy();
    await app.click(app.getByRole('button', en.form.submit));
    await app.findByText(en.validation.required);
    await app.type(app.getByLabelText(en.form.code), 'two words');
    await app.click(app.getByRole('button', en.form.submit));
    await app.findByText(en.validation.codeFormat);
    expect(app.getByLabelText(en.form.code).getAttribute('aria-invalid')).toBe('true');
    expect(posts(app)).toHaveLength(0);
  });

  it('sends the trimmed code, shows what it gave and the new balance, and refreshes the session', async () => {
    const app = await open({
      'POST /api/user/earn/redeem': { body: { success: true, code: 'Summer-2026', coins: 75, balance: 175 } },
    });
    await app.type(app.getByLabelText(en.form.code), '  summer-2026 ');
    await app.click(app.getByRole('button', en.form.submit));
    await app.findByText(en.result.title);
    expect(posts(app)[0].body).toEqual({ code: 'summer-2026' });
    expect(document.body.textContent).toContain('Summer-2026 gave you 75 coins. Your balance is now 175 coins.');
    expect(app.getByText('175 coins')).toBeTruthy();
    expect((app.getByLabelText(en.form.code) as HTMLInputElement).value).toBe('');
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.path === '/api/user/session')).toBe(true));
  });

  it("puts the server's refusal of the code on the field, in the user's words", async () => {
    const app = await open({
      'POST /api/user/earn/redeem': { status: 409, body: { error: { code: 'ALREADY_REDEEMED', message: 'You have already redeemed this code.', field: 'code' } } },
    });
    await app.type(app.getByLabelText(en.form.code), 'WELCOME');
    await app.click(app.getByRole('button', en.form.submit));
    await app.waitFor(() => expect(app.getByLabelText(en.form.code).getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(`${app.getByLabelText(en.form.code).id}-error`)?.textContent).toContain(en.errors.ALREADY_REDEEMED);
    expect(app.queryByText(en.result.title)).toBeNull();
  });

  it('says to wait when the attempts are used up', async () => {
    const app = await open({
      'POST /api/user/earn/redeem': { status: 429, headers: { 'retry-after': '600' }, body: { error: { code: 'RATE_LIMITED', message: 'Too many requests.' } } },
    });
    await app.type(app.getByLabelText(en.form.code), 'guess-1');
    await app.click(app.getByRole('button', en.form.submit));
    await app.findByText(en.errors.RATE_LIMITED);
  });
});
