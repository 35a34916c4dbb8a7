// Issue 4 end to end, the parts that leave the panel: /store/add-credits through Stripe Checkout and
// PayPal, and the /earn/j4r check through Discord — in chromium against the BUILT panel, with the
// providers played by the local stand-ins (tests/fixtures) the API tests use. The browser really goes
// to the provider's page and back: Stripe's hosted checkout announces the payment with a signed
// webhook before it sends the buyer back; PayPal's approval page sends the buyer back for the panel
// to capture; Discord's authorize page approves the chosen account and lists its guilds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthProvider, type OAuthProviderStandIn } from '../fixtures/oauth-provider';
import { startPaypalStandIn, type PaypalStandIn } from '../fixtures/paypal-api';
import { startStripeStandIn, type StripeStandIn } from '../fixtures/stripe-api';
import { cliFor, launchBrowser, mainText, sessionCoins, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from './harness';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };
const GUILD = { id: '912345678901234567', name: 'Ore Community' };

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
let stripe: StripeStandIn;
let paypal: PaypalStandIn;
let discord: OAuthProviderStandIn;
const names = { admin: uniqueName('admin'), buyer: uniqueName('buyer') };
const probes: Partial<Record<keyof typeof names, PageProbe>> = {};

beforeAll(async () => {
  [stripe, paypal, discord] = await Promise.all([startStripeStandIn(), startPaypalStandIn(), startOAuthProvider('discord')]);
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-providers-'));
  const cli = cliFor(dataDir);
  for (const [who, role] of [
    ['admin', '8'],
    ['buyer', '1'],
  ] as const) {
    cli(['user', 'create', '--username', names[who], '--email', `${names[who]}@example.com`, '--password', PASSWORD, '--role', role]);
  }
  panel = await startPanel({ DATA_DIR: dataDir });
  stripe.deliverWebhooksTo(`${panel.url}/api/store/webhooks/stripe`);
  browser = await launchBrowser();
  for (const who of ['admin', 'buyer'] as const) probes[who] = await signInThroughApi(browser, panel.url, names[who], PASSWORD);
  // through the admin API, as an administrator would (one process start per CLI call is slow)
  await configure('/api/admin/settings', {
    app_url: panel.url,
    credits_recharge_enabled: true,
    discord_enabled: true,
    discord_client_id: discord.clientId,
    discord_client_secret: discord.clientSecret,
    discord_base_url: discord.url,
  });
  await configure('/api/admin/plugins/earn-j4r/config', { j4r_enabled: true });
  await configure('/api/admin/plugins/store/config', {
    stripe_enabled: true,
    stripe_secret_key: stripe.secretKey,
    stripe_webhook_secret: stripe.webhookSecret,
    stripe_api_url: stripe.url,
    paypal_enabled: true,
    paypal_client_id: paypal.clientId,
    paypal_client_secret: paypal.clientSecret,
    paypal_webhook_id: paypal.webhookId,
    paypal_api_url: paypal.url,
  });
}, 90_000);

async function configure(path: string, values: Record<string, string | boolean>): Promise<void> {
  const answer = await pageOf('admin').evaluate(
    async ({ path, values }) => {
      const res = await fetch(path, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ values }) });
      return `${res.status} ${await res.text()}`;
    },
    { path, values },
  );
  expect(answer).toMatch(/^200 /);
}

afterAll(async () => {
  for (const probe of Object.values(probes)) expect(probe?.errors ?? [], 'uncaught page errors').toEqual([]);
  await browser?.close();
  await panel?.stop();
  await Promise.all([stripe?.close(), paypal?.close(), discord?.close()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function pageOf(who: keyof typeof names): Page {
  const probe = probes[who];
  if (!probe) throw new Error(`${who} is not signed in`);
  return probe.page;
}

async function openAddCredits(page: Page, amount: string): Promise<void> {
  await page.goto(`${panel.url}/store/add-credits`);
  await page.getByRole('main').getByRole('heading', { name: 'Add credits', level: 1 }).waitFor(WAIT);
  await page.getByLabel('Amount (EUR)').fill(amount);
  await expect.poll(() => mainText(page), WAIT).toContain(`You get ${Number(amount) * 100} coins`);
}

describe('money and Discord through the providers’ own pages', () => {
  it('/store/add-credits → Stripe’s checkout page → back: the webhook credited the coins once', { timeout: 60_000 }, async () => {
    const buyer = pageOf('buyer');
    const before = await sessionCoins(buyer);
    await openAddCredits(buyer, '5');
    await buyer.getByRole('button', { name: 'Pay with Card (Stripe)' }).click();
    await buyer.waitForURL(`${stripe.url}/c/pay/**`, WAIT);
    await buyer.getByRole('heading', { name: 'Pay 5.00 EUR' }).waitFor(WAIT);
    await buyer.getByRole('button', { name: 'Pay 5.00 EUR' }).click();
    await buyer.waitForURL(`${panel.url}/store/add-credits?**`, WAIT);
    await expect.poll(() => mainText(buyer), WAIT).toContain('500 coins were added to your balance.');
    expect(await sessionCoins(buyer)).toBe(before + 500);
    // the return page was reloaded: nothing is credited twice
    await buyer.reload();
    await expect.poll(() => mainText(buyer), WAIT).toContain('500 coins were added to your balance.');
    expect(await sessionCoins(buyer)).toBe(before + 500);
  });

  it('/store/add-credits → PayPal’s approval page → back: the panel captures and credits', { timeout: 60_000 }, async () => {
    const buyer = pageOf('buyer');
    const before = await sessionCoins(buyer);
    await openAddCredits(buyer, '2');
    await buyer.getByRole('button', { name: 'Pay with PayPal' }).click();
    await buyer.waitForURL(`${paypal.url}/checkoutnow?**`, WAIT);
    await buyer.getByRole('button', { name: 'Approve payment' }).click();
    await buyer.waitForURL(`${panel.url}/store/add-credits?**`, WAIT);
    await expect.poll(() => mainText(buyer), WAIT).toContain('200 coins were added to your balance.');
    expect(await sessionCoins(buyer)).toBe(before + 200);
    const captures = paypal.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/capture'));
    expect(captures.length).toBeGreaterThanOrEqual(1);
  });

  it('/earn/j4r → Discord’s authorize page → back: the joined guild is paid once', { timeout: 60_000 }, async () => {
    const admin = pageOf('admin');
    const added = await admin.evaluate(
      async (guild) =>
        (
          await fetch('/api/admin/j4r/guilds', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ guild_id: guild.id, name: guild.name, invite_url: 'https://discord.gg/orepanel', coins: 40 }),
          })
        ).status,
      GUILD,
    );
    expect(added).toBe(201);
    const account = { id: '812345678901234567', username: 'ore_buyer' };
    discord.approveAs(account);
    discord.setGuilds(account.id, [{ id: GUILD.id, name: GUILD.name }]);

    const buyer = pageOf('buyer');
    const before = await sessionCoins(buyer);
    await buyer.goto(`${panel.url}/earn/j4r`);
    await buyer.getByRole('main').getByRole('heading', { name: 'Join for rewards', level: 1 }).waitFor(WAIT);
    await expect.poll(() => mainText(buyer), WAIT).toContain('40 coins for joining');
    await buyer.getByRole('link', { name: 'Check my servers' }).click();
    await expect.poll(() => mainText(buyer), WAIT).toContain('New servers paid: 1. Coins earned: 40.');
    await expect.poll(() => mainText(buyer), WAIT).toContain('Paid 40 coins');
    expect(await sessionCoins(buyer)).toBe(before + 40);

    // a second check finds nothing new and pays nothing
    await buyer.getByRole('link', { name: 'Check my servers' }).click();
    await expect.poll(() => mainText(buyer), WAIT).toContain('None of the servers you are in is new.');
    expect(await sessionCoins(buyer)).toBe(before + 40);
  });
});
