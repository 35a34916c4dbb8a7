// @vitest-environment jsdom
import { cleanup, renderPlugin, sessionReply, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import type { LinksAnswer, ProviderView } from '../client/api';

afterEach(() => cleanup());

const provider = (id: ProviderView['id'], name: string, overrides: Partial<ProviderView> = {}): ProviderView => ({
  id,
  name,
  coins: 100,
  daily_limit: 5,
  today: 0,
  min_time_seconds: 60,
  expire_seconds: 3600,
  cooldown_seconds: 3600,
  cooldown_left_seconds: 0,
  available: true,
  ...overrides,
});

const listing: LinksAnswer = {
  providers: [
    provider('linkvertise', 'Linkvertise', { today: 2 }),
    provider('shareus', 'ShareUs', { today: 1, cooldown_left_seconds: 3539, available: false }),
    provider('gyanilinks', 'GyaniLinks', { coins: 250, today: 5, available: false }),
  ],
  next_day_in_seconds: 5 * 3600 + 120,
};

function handlers(body: LinksAnswer = listing): HttpHandlers {
  return { 'GET /api/user/session': sessionReply({}), 'GET /api/user/earn/l4r': { body } };
}

const open = (route = '/earn/links', body?: LinksAnswer) => renderPlugin(plugin, { manifest, route, catalogues: { en }, session: {}, http: handlers(body) });

/** The text of the outcome banner (an Alert: role status for success, alert for errors), or null. */
const banner = () => document.querySelector('[role="status"], [role="alert"]')?.textContent ?? null;

const startLink = (name: string) => document.querySelector<HTMLAnchorElement>(`a[href="/api/user/earn/l4r/${name}/start"]`);

describe('link for rewards page', () => {
  it('lists the providers with coins, today’s count and the cooldown, and starts a link through the server', async () => {
    const app = await open();
    await app.findByText('Linkvertise');
    expect(document.body.textContent).toContain('2 of 5');
    expect(document.body.textContent).toContain('250 coins per link');
    expect(document.body.textContent).toContain('59 min left');
    expect(document.body.textContent).toContain('The count starts again in 5 h 2 min.');

    const ready = startLink('linkvertise')!;
    expect(ready.textContent).toBe('Start a Linkvertise link');
    expect(ready.getAttribute('aria-disabled')).toBeNull();
    // waiting for the cooldown, or done for today: the button does nothing
    expect(startLink('shareus')!.getAttribute('aria-disabled')).toBe('true');
    expect(startLink('gyanilinks')!.getAttribute('aria-disabled')).toBe('true');
  });

  it('shows what the callback paid, until dismissed', async () => {
    const app = await open('/earn/links?l4r=paid&provider=shareus&coins=100');
    await app.waitFor(() => expect(banner()).toBe(`${en.outcome.paidTitle}You earned 100 coins with ShareUs.`));
    await app.click(app.getByRole('button', 'Close'));
    await app.waitFor(() => expect(banner()).toBeNull());
    expect(app.location().search).toBe('');
  });

  it('explains a refusal in the user’s words', async () => {
    const app = await open('/earn/links?l4r_error=L4R_TOO_FAST&provider=gyanilinks');
    await app.waitFor(() => expect(banner()).toBe(en.outcome.failedTitle + en.errors.L4R_TOO_FAST));
    cleanup();
    const unknown = await open('/earn/links?l4r_error=SOMETHING_NEW&provider=gyanilinks');
    // a code this page does not know: the generic words, not the raw code
    await unknown.waitFor(() => expect(banner()).toBe(en.outcome.failedTitle + en.outcome.failed));
  });

  it('says so when no provider is switched on', async () => {
    const app = await open('/earn/links', { providers: [], next_day_in_seconds: 100 });
    await app.findByText(en.empty.title);
  });
});
