// Issue 4 (coin economy) end to end, in chromium against the BUILT panel, through the real pages only:
// an administrator adjusts a balance on /mc-admin/users/{uuid}/edit and the user's dashboard lists the
// movement; a code made on /mc-admin/redeem-codes/create is redeemed on /earn/redeem; a gift goes from
// one profile's "Gift coins" page (fee shown, both balances move); a pack is bought on /store; the
// leaderboard ranks the users by coins; /lookup finds a user; /earn/referrals shows the code and link;
// /earn/afk connects and earns; /earn/links and /earn/j4r show their switched-on states (no provider
// is reachable from here, so nothing is started on them). The tests run in order and share the users:
// each balance below follows from the steps before it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, launchBrowser, mainText, openPage, sessionCoins, startPanel, uniqueName, type PageProbe, type RunningPanel } from './harness';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
const names = { admin: uniqueName('admin'), alice: uniqueName('alice'), bob: uniqueName('bob') };
const uuids = { admin: '', alice: '', bob: '' };
const probes: Partial<Record<keyof typeof names, PageProbe>> = {};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-economy-'));
  const cli = cliFor(dataDir);
  const settings: [string, string][] = [
    // one IP drives every page of this file
    ['rate_limit_per_minute', '5000'],
    ['store_enabled', 'true'],
    ['l4r_enabled', 'true'],
    // a provider that is on: its card shows; Linkvertise builds links from an account id, no API call
    ['l4r_linkvertise_enabled', 'true'],
    ['l4r_linkvertise_user_id', '123456'],
    ['j4r_enabled', 'true'],
  ];
  for (const [key, value] of settings) expect(cli(['settings', 'set', key, value])).toContain(`Set ${key} = `);
  for (const [who, role] of [
    ['admin', '8'],
    ['alice', '1'],
    ['bob', '1'],
  ] as const) {
    cli(['user', 'create', '--username', names[who], '--email', `${names[who]}@example.com`, '--password', PASSWORD, '--role', role]);
  }
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
  for (const who of ['admin', 'alice', 'bob'] as const) probes[who] = await signedIn(who);
}, 90_000);

afterAll(async () => {
  for (const probe of Object.values(probes)) expect(probe?.errors ?? [], 'uncaught page errors').toEqual([]);
  await browser?.close();
  await panel?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A browser context logged in (through the real login API) as `who`; records the account's uuid. */
async function signedIn(who: keyof typeof names): Promise<PageProbe> {
  const probe = await openPage(browser);
  await probe.page.goto(`${panel.url}/auth/login`);
  await probe.page.locator('input[type="password"]').first().waitFor(WAIT);
  const uuid = await probe.page.evaluate(
    async (body) => {
      const login = await fetch('/api/user/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (login.status !== 200) return `login answered ${login.status}`;
      const session = (await (await fetch('/api/user/session')).json()) as { user_info: { uuid: string } };
      return session.user_info.uuid;
    },
    { login: names[who], password: PASSWORD },
  );
  expect(uuid).toMatch(/^[0-9a-f-]{32,36}$/);
  uuids[who] = uuid;
  // the dashboard stores the session's role and permissions, which the admin-route guards read (spec §2, §6)
  await open(probe.page, '/dashboard', /Welcome back/);
  return probe;
}

function pageOf(who: keyof typeof names): Page {
  const probe = probes[who];
  if (!probe) throw new Error(`${who} is not signed in`);
  return probe.page;
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const textOf = async (locator: Locator) => squash(await locator.innerText());

/** Opens a panel path and waits for the page's heading. */
async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${panel.url}${path}`);
  await page.getByRole('main').getByRole('heading', { name: heading, level: 1 }).waitFor(WAIT);
}

/** The rows of the dashboard's transactions table, each as one line of text. */
async function dashboardTransactions(page: Page): Promise<string[]> {
  const table = page.getByRole('table', { name: 'Transactions' });
  return (await table.locator('tbody tr').allInnerTexts()).map(squash);
}

describe('the coin economy through its pages', () => {
  it('an admin adjusts a balance on the user edit page; the user’s dashboard lists the movement', { timeout: 60_000 }, async () => {
    const admin = pageOf('admin');
    await admin.goto(`${panel.url}/mc-admin/users/${uuids.alice}/edit`);
    const form = admin.getByRole('form', { name: 'Adjust the balance' });
    await form.waitFor(WAIT);
    await form.getByLabel('Amount').fill('500');
    await form.getByLabel('Why (shown in the ledger)').fill('Welcome bonus from the e2e test');
    await form.getByRole('button', { name: 'Adjust the balance' }).click();
    await admin.getByText('Done. The balance is now 500.').first().waitFor(WAIT);
    await expect.poll(() => textOf(admin.getByTestId('coins-balance')), WAIT).toBe('500');

    const alice = pageOf('alice');
    await open(alice, '/dashboard', /Welcome back/);
    await expect.poll(() => dashboardTransactions(alice), WAIT).toEqual([expect.stringMatching(/\+500 admin\.adjust Welcome bonus from the e2e test 500/)]);
    expect(await sessionCoins(alice)).toBe(500);
  });

  it('a code created at /mc-admin/redeem-codes/create is redeemed at /earn/redeem', { timeout: 60_000 }, async () => {
    const code = `E2E-${names.alice.slice(-8).toUpperCase()}`;
    const admin = pageOf('admin');
    await open(admin, '/mc-admin/redeem-codes/create', 'New redeem code');
    const form = admin.getByRole('form', { name: 'Create the code' });
    await form.getByLabel('Code', { exact: true }).fill(code);
    await form.getByLabel('Coins per redemption').fill('50');
    await form.getByLabel('Uses in total').fill('3');
    await form.getByRole('button', { name: 'Create the code' }).click();
    await admin.waitForURL('**/mc-admin/redeem-codes', WAIT);
    await admin.getByText(`The code ${code} was created.`).first().waitFor(WAIT);
    await expect.poll(() => mainText(admin), WAIT).toContain(code);

    const alice = pageOf('alice');
    await open(alice, '/earn/redeem', 'Redeem a code');
    const redeem = alice.getByRole('form', { name: 'Enter your code' });
    // codes ignore case
    await redeem.getByLabel('Code').fill(code.toLowerCase());
    await redeem.getByRole('button', { name: 'Redeem' }).click();
    await expect.poll(() => mainText(alice), WAIT).toContain('Code redeemed');
    expect(await mainText(alice)).toContain(`${code} gave you 50 coins. Your balance is now 550 coins.`);
    expect(await sessionCoins(alice)).toBe(550);

    // the same user cannot redeem it twice
    await redeem.getByLabel('Code').fill(code);
    await redeem.getByRole('button', { name: 'Redeem' }).click();
    await expect.poll(() => mainText(alice), WAIT).toContain('You have already redeemed this code.');
    expect(await sessionCoins(alice)).toBe(550);
  });

  it('a profile’s gift-coins page sends a gift: the fee is shown, both balances move', { timeout: 60_000 }, async () => {
    const alice = pageOf('alice');
    await open(alice, `/profile/${uuids.bob}`, `${names.bob}’s profile`);
    await alice.getByRole('link', { name: 'Gift coins' }).click();
    await alice.waitForURL(`**/profile/${uuids.bob}/gift-coins`, WAIT);
    await alice
      .getByRole('main')
      .getByRole('heading', { name: `Gift coins to ${names.bob}`, level: 1 })
      .waitFor(WAIT);

    const form = alice.getByRole('form', { name: 'How many coins?' });
    await form.getByLabel('Amount').fill('100');
    // the default rules: 1 to 100 coins, a 10 % fee paid on top
    // a <dl> has no ARIA role to query by: its accessible name finds it
    const summary = form.locator('dl[aria-label="What the gift costs"]');
    await expect.poll(() => textOf(summary), WAIT).toMatch(/Fee \(10 %\) 10 .*You pay 110 .*Your balance 550/);
    await form.getByRole('button', { name: 'Review the gift' }).click();

    const review = alice.getByRole('form', { name: 'Confirm the gift' });
    await review.waitFor(WAIT);
    expect(await textOf(review)).toMatch(new RegExp(`Send 100 coins to ${names.bob}\\?.*Gift 100 .*Fee \\(10 %\\) 10 .*You pay 110 .*Your balance afterwards 440`));
    await review.getByRole('button', { name: 'Send the coins' }).click();
    await expect.poll(() => mainText(alice), WAIT).toContain(`${names.bob} received 100 coins. You paid a fee of 10 coins; your balance is now 440 coins.`);
    expect(await sessionCoins(alice)).toBe(440);

    const bob = pageOf('bob');
    await open(bob, '/dashboard', /Welcome back/);
    await expect.poll(() => dashboardTransactions(bob), WAIT).toEqual([expect.stringMatching(/^\+100 gift\.received/)]);
    expect(await sessionCoins(bob)).toBe(100);
    // the sender's ledger: the gift and its fee, newest first
    await open(alice, '/dashboard', /Welcome back/);
    await expect.poll(async () => (await dashboardTransactions(alice)).slice(0, 2).join(' | '), WAIT).toMatch(/−\d+ gift\.(sent|fee).* \| −\d+ gift\.(sent|fee)/);
    const lines = (await dashboardTransactions(alice)).slice(0, 2).join(' | ');
    expect(lines).toMatch(/−100 gift\.sent/);
    expect(lines).toMatch(/−10 gift\.fee/);
  });

  it('/store sells a pack for coins', { timeout: 60_000 }, async () => {
    const alice = pageOf('alice');
    await open(alice, '/store', 'Store');
    const balance = alice.getByRole('status', { name: 'Your coins' }).or(alice.locator('output[aria-label="Your coins"]'));
    await expect.poll(() => textOf(balance.first()), WAIT).toBe('440');
    const memory = alice.getByRole('group', { name: 'Memory' });
    // a new account starts with 1,024 MiB (the default resources); a pack adds 1,024 more
    expect(await textOf(memory)).toContain('+1,024 MiB for 100 coins You have 1,024 MiB · at most 8,192 MiB');
    await memory.getByRole('button', { name: 'Buy Memory' }).click();
    const dialog = alice.getByRole('dialog');
    await dialog.waitFor(WAIT);
    expect(squash(await dialog.innerText())).toContain('1,024 MiB of Memory for 100 coins. You will have 340 coins left.');
    await dialog.getByRole('button', { name: 'Buy' }).click();
    await expect.poll(() => mainText(alice), WAIT).toContain('You bought Memory. Your balance is now 340 coins.');
    expect(await textOf(balance.first())).toBe('340');
    expect(await textOf(memory)).toContain('You have 2,048 MiB · at most 8,192 MiB');
    expect(await sessionCoins(alice)).toBe(340);
  });

  it('/leaderboard ranks the users by coins', { timeout: 60_000 }, async () => {
    const bob = pageOf('bob');
    await open(bob, '/leaderboard', 'Leaderboard');
    const table = bob.getByRole('table', { name: 'Users with the most coins' });
    await expect
      .poll(async () => (await table.locator('tbody tr').allInnerTexts()).map(squash), WAIT)
      .toEqual([expect.stringMatching(new RegExp(`^#1 .*${names.alice}.* 340$`)), expect.stringMatching(new RegExp(`^#2 .*${names.bob}.*You.* 100$`))]);
    expect(await mainText(bob)).toMatch(/Your rank #2/);
  });

  it('/lookup finds a user and opens their profile', { timeout: 60_000 }, async () => {
    const alice = pageOf('alice');
    await open(alice, '/lookup', 'Find people');
    const form = alice.getByRole('form', { name: 'Search by username' });
    await form.getByLabel('Username').fill(names.bob);
    await form.getByRole('button', { name: 'Search' }).click();
    const results = alice.getByRole('list', { name: 'Matching users' });
    await results.waitFor(WAIT);
    await results.getByRole('link', { name: new RegExp(names.bob) }).click();
    await alice.waitForURL(`**/profile/${uuids.bob}`, WAIT);
    await alice
      .getByRole('main')
      .getByRole('heading', { name: `${names.bob}’s profile`, level: 1 })
      .waitFor(WAIT);
  });

  it('/earn/referrals shows the user’s code and link', { timeout: 60_000 }, async () => {
    const alice = pageOf('alice');
    await open(alice, '/earn/referrals', 'Referrals');
    const code = alice.getByLabel('Your code');
    await expect.poll(() => code.inputValue(), WAIT).toMatch(/^\S{3,}$/);
    const link = await alice.getByLabel('Your link').inputValue();
    expect(link).toContain(await code.inputValue());
    expect(link).toMatch(/^https?:\/\//);
    expect(await mainText(alice)).toContain('You earn 35 coins for every new account that signs up with your link or code, and the new account gets 15 coins.');
    expect(await alice.getByRole('button', { name: 'Copy link' }).count()).toBe(1);
  });

  it('/earn/afk connects and earns (one tab), a second tab stands by', { timeout: 60_000 }, async () => {
    const alice = pageOf('alice');
    await open(alice, '/earn/afk', 'AFK rewards');
    // ("Time earning" is a stat label: wait for the state's own text)
    await expect.poll(() => mainText(alice), WAIT).toMatch(/You are earning\.|Next payout \(\+1\) in/);
    expect(await mainText(alice)).toContain('1 per minute');

    // a second tab of the same account: only one session pays at a time
    const second = await alice.context().newPage();
    await second.goto(`${panel.url}/earn/afk`);
    await expect.poll(() => mainText(second), WAIT).toContain('Another tab or device is earning');
    expect(await second.getByRole('button', { name: 'Earn here instead' }).count()).toBe(1);
    await second.close();
    await alice.goto(`${panel.url}/dashboard`);
  });

  it('/earn/links lists the switched-on provider; /earn/j4r says Discord is not set up', { timeout: 60_000 }, async () => {
    const bob = pageOf('bob');
    await open(bob, '/earn/links', 'Link for rewards');
    await expect.poll(() => mainText(bob), WAIT).toContain('100 coins per link');
    expect(await mainText(bob)).toContain('Ready');
    expect(await mainText(bob)).toContain('0 of 5');
    expect(
      await bob
        .getByRole('link', { name: /Start a Linkvertise link/ })
        .or(bob.getByRole('button', { name: /Start a Linkvertise link/ }))
        .count(),
    ).toBe(1);

    await open(bob, '/earn/j4r', 'Join for rewards');
    await expect.poll(() => mainText(bob), WAIT).toContain('Discord is not set up on this panel yet, so servers cannot be checked.');
    await expect.poll(() => mainText(bob), WAIT).toContain('No servers to join right now');
    // nothing to check without Discord: the check (a link to the OAuth start) is switched off
    expect(await bob.getByRole('link', { name: 'Check my servers' }).getAttribute('aria-disabled')).toBe('true');
  });
});
