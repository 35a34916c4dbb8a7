// @vitest-environment jsdom
import { cleanup, renderPlugin, sessionReply, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import type { ReferralsAnswer } from '../client/api';

afterEach(() => cleanup());

function answer(page: number, overrides: Partial<ReferralsAnswer> = {}): ReferralsAnswer {
  const names = page === 1 ? ['zoe', 'yann'] : ['xavier'];
  return {
    code: 'K7QW2MPX',
    rewards: { referrer: 35, redeemer: 15, after_verification: false },
    earned: { coins: 70, paid: 2, pending: 1 },
    referred: {
      data: names.map((username, i) => ({
        username,
        joined_at: '2026-03-0' + (i + 1) + 'T10:00:00.000Z',
        coins: username === 'yann' ? 0 : 35,
        status: username === 'yann' ? 'pending' : 'paid',
      })),
      meta: { page, per_page: 10, total: 12, total_pages: 2 },
    },
    ...overrides,
  };
}

function handlers(extra: HttpHandlers = {}): HttpHandlers {
  return {
    'GET /api/user/session': sessionReply({}),
    'GET /api/user/earn/referrals': (call) => ({ body: answer(Number(call.query.get('page') ?? 1)) }),
    ...extra,
  };
}

async function open(extra: HttpHandlers = {}) {
  const app = await renderPlugin(plugin, { manifest, catalogues: { en }, session: {}, http: handlers(extra) });
  return app;
}

describe('referrals page', () => {
  it('shows the code and the registration link, and copies the link', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const app = await open();
    await app.waitFor(() => expect((app.getByLabelText(en.share.code) as HTMLInputElement).value).toBe('K7QW2MPX'));
    const link = `${window.location.origin}/auth/register?ref=K7QW2MPX`;
    expect((app.getByLabelText(en.share.link) as HTMLInputElement).value).toBe(link);
    expect(document.body.textContent).toContain('You earn 35 coins for every new account that signs up with your link or code, and the new account gets 15 coins.');
    await app.click(app.getByRole('button', en.share.copy));
    expect(writeText).toHaveBeenCalledWith(link);
    await app.findByText('Copied');
  });

  it('lists the referred accounts with their status and what they earned, a page at a time', async () => {
    const app = await open();
    await app.findByText('zoe');
    expect(app.getByText('yann')).toBeTruthy();
    expect(document.body.textContent).toContain('70 coins');
    expect(app.getByText(en.list.pending)).toBeTruthy();
    await app.click(app.getByRole('button', 'Next'));
    await app.findByText('xavier');
    expect(app.httpCalls.filter((c) => c.path === '/api/user/earn/referrals').map((c) => c.query.get('page'))).toEqual(['1', '2']);
  });

  it('says the referrer is paid after the verification when that setting is on', async () => {
    const app = await open({ 'GET /api/user/earn/referrals': { body: answer(1, { rewards: { referrer: 35, redeemer: 15, after_verification: true } }) } });
    await app.findByText(en.share.afterVerification);
    expect(app.getByText(en.stats.pendingHint)).toBeTruthy();
  });

  it('shows an empty list and a refusal in the user’s words', async () => {
    const empty = await open({
      'GET /api/user/earn/referrals': {
        body: answer(1, { earned: { coins: 0, paid: 0, pending: 0 }, referred: { data: [], meta: { page: 1, per_page: 10, total: 0, total_pages: 0 } } }),
      },
    });
    await empty.findByText(en.list.empty);
    empty.unmount();

    const off = await open({
      'GET /api/user/earn/referrals': { status: 403, body: { error: { code: 'FEATURE_DISABLED', message: 'This feature is turned off on this panel.' } } },
    });
    await off.findByText(en.errors.FEATURE_DISABLED);
  });
});
