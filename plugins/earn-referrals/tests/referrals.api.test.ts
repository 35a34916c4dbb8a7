// earn-referrals: every account's code, the referral recorded at registration (?ref=), both sides
// paid through the wallet exactly once — whatever number of times the events arrive — the referrer
// perhaps only after the new account verifies its e-mail, and the user's page of referred accounts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { register, startPanel, testDialects, type TestPanel } from '../../../tests/api/harness';
import { deliverQueued, linkIn, startSmtpServer, useSmtpServer, type TestSmtpServer } from '../../../tests/api/smtp-server';

interface ReferralsAnswer {
  code: string;
  rewards: { referrer: number; redeemer: number; after_verification: boolean };
  earned: { coins: number; paid: number; pending: number };
  referred: { data: { username: string; joined_at: string; coins: number; status: string }[]; meta: { page: number; per_page: number; total: number; total_pages: number } };
}

interface Account {
  id: number;
  uuid: string;
  username: string;
  email: string;
  cookie: string;
}

describe.each(testDialects())('referrals on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
  });
  afterAll(async () => {
    await panel?.close();
  });
  beforeEach(async () => {
    const { settings } = panel.services;
    await settings.set('referrals_enabled', true);
    await settings.set('referrals_pay_after_verification', false);
    await settings.set('referrals_coins_per_referral', 35);
    await settings.set('referrals_coins_per_referral_redeemer', 15);
  });

  const db = () => panel.services.database.db;

  async function account(ref?: string): Promise<Account> {
    const { body, response, cookie } = await register(panel.app, ref === undefined ? {} : { ref });
    const uuid = (response.json() as { user: { uuid: string } }).user.uuid;
    const row = await db().selectFrom('users').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    return { id: Number(row.id), uuid, username: body.username, email: body.email, cookie };
  }

  const page = (cookie: string, query = '') => panel.app.inject({ url: `/api/user/earn/referrals${query}`, headers: { cookie } });

  async function referrals(who: Account, query = ''): Promise<ReferralsAnswer> {
    const res = await page(who.cookie, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReferralsAnswer;
  }

  const balance = (who: Account) => panel.services.wallet.balance(who.id);
  const referralCount = (who: Account) => panel.services.counters.get(who.id, 'referrals');
  const ledgerRows = async (key: string) =>
    Number(
      (
        await db()
          .selectFrom('wallet_ledger')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('idempotency_key', '=', key)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const replayRegistration = (who: Account, ref: string | null) => panel.services.events.emit('user.registered', { userId: who.id, uuid: who.uuid, username: who.username, ref });

  it('a disabled earn-referrals plugin does not act on registrations (its event handlers stay silent)', async () => {
    const referrer = await account();
    const { code } = await referrals(referrer);
    await panel.services.plugins.setEnabled('earn-referrals', false);
    try {
      const newcomer = await account(code);
      expect(await balance(referrer)).toBe(0);
      expect(await balance(newcomer)).toBe(0);
    } finally {
      await panel.services.plugins.setEnabled('earn-referrals', true);
    }
  });

  it('gives every account a code, pays 35 to the referrer and 15 to the new account, each once however often the event arrives', async () => {
    const referrer = await account();
    const { code } = await referrals(referrer);
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect((await referrals(referrer)).code).toBe(code);

    // a code is read whatever its case and spaces
    const newcomer = await account(`  ${code.toLowerCase()} `);
    expect(await balance(referrer)).toBe(35);
    expect(await balance(newcomer)).toBe(15);
    expect(await referralCount(referrer)).toBe(1);

    // the registration event delivered again, twice at once and once more: nothing moves
    await Promise.all([replayRegistration(newcomer, code), replayRegistration(newcomer, code)]);
    await replayRegistration(newcomer, code);
    expect(await balance(referrer)).toBe(35);
    expect(await balance(newcomer)).toBe(15);
    expect(await referralCount(referrer)).toBe(1);
    expect(await ledgerRows(`referral:${newcomer.id}:referrer`)).toBe(1);
    expect(await ledgerRows(`referral:${newcomer.id}:redeemer`)).toBe(1);
    const kinds = await db()
      .selectFrom('wallet_ledger')
      .select(['user_id', 'kind', 'delta', 'reference'])
      .where('idempotency_key', 'like', `referral:${newcomer.id}:%`)
      .orderBy('user_id')
      .execute();
    expect(kinds.map((k) => ({ user: Number(k.user_id), kind: k.kind, delta: Number(k.delta), reference: k.reference }))).toEqual([
      { user: referrer.id, kind: 'referral.referrer', delta: 35, reference: newcomer.username },
      { user: newcomer.id, kind: 'referral.redeemer', delta: 15, reference: code },
    ]);

    const mine = await referrals(referrer);
    expect(mine.rewards).toEqual({ referrer: 35, redeemer: 15, after_verification: false });
    expect(mine.earned).toEqual({ coins: 35, paid: 1, pending: 0 });
    expect(mine.referred.data).toEqual([{ username: newcomer.username, joined_at: expect.any(String), coins: 35, status: 'paid' }]);
    // the referrer sees who signed up, never their e-mail address
    expect(JSON.stringify(mine)).not.toContain(newcomer.email);
    expect(JSON.stringify(mine).toLowerCase()).not.toContain(newcomer.email.toLowerCase());

    // the new account got a code of its own at registration, and has no referrals yet
    const made = await db()
      .withTables<{ referral_codes: { user_id: number; code: string } }>()
      .selectFrom('referral_codes')
      .select('code')
      .where('user_id', '=', newcomer.id)
      .executeTakeFirst();
    expect(made?.code).toMatch(/^[A-Z2-9]{8}$/);
    const theirs = await referrals(newcomer);
    expect(theirs.code).toBe(made!.code);
    expect(theirs.code).not.toBe(code);
    expect(theirs.earned).toEqual({ coins: 0, paid: 0, pending: 0 });
  });

  it('lets the registration succeed without a referral for an unknown code, and never pays a self-referral or a second referrer', async () => {
    const stranger = await account('NOSUCH99');
    expect(await balance(stranger)).toBe(0);
    const junk = await account('not a code at all!');
    expect(await balance(junk)).toBe(0);
    expect(
      await db().withTables<{ referrals: { referred_id: number } }>().selectFrom('referrals').select('referred_id').where('referred_id', 'in', [stranger.id, junk.id]).execute(),
    ).toEqual([]);

    // an account's own code, as if it had registered with it
    const self = await account();
    const ownCode = (await referrals(self)).code;
    await replayRegistration(self, ownCode);
    expect(await balance(self)).toBe(0);
    expect((await referrals(self)).earned).toEqual({ coins: 0, paid: 0, pending: 0 });

    // one referrer per account: a later event naming another referrer changes nothing
    const first = await account();
    const second = await account();
    const firstCode = (await referrals(first)).code;
    const secondCode = (await referrals(second)).code;
    const newcomer = await account(firstCode);
    await replayRegistration(newcomer, secondCode);
    expect(await balance(first)).toBe(35);
    expect(await balance(second)).toBe(0);
    expect(await balance(newcomer)).toBe(15);
    expect((await referrals(second)).referred.meta.total).toBe(0);
  });

  it('pays with the amounts set now, and settles a side set to 0 coins without paying it', async () => {
    await panel.services.settings.set('referrals_coins_per_referral', 50);
    await panel.services.settings.set('referrals_coins_per_referral_redeemer', 0);
    const referrer = await account();
    const newcomer = await account((await referrals(referrer)).code);
    expect(await balance(referrer)).toBe(50);
    expect(await balance(newcomer)).toBe(0);
    expect(await ledgerRows(`referral:${newcomer.id}:redeemer`)).toBe(0);
    // once settled at 0, a raised reward does not pay that referral again
    await panel.services.settings.set('referrals_coins_per_referral_redeemer', 15);
    await replayRegistration(newcomer, (await referrals(referrer)).code);
    await referrals(newcomer);
    expect(await balance(newcomer)).toBe(0);
    expect((await referrals(referrer)).earned).toEqual({ coins: 50, paid: 1, pending: 0 });
  });

  describe('with referrals_pay_after_verification on', () => {
    let smtp: TestSmtpServer;
    beforeAll(async () => {
      smtp = await startSmtpServer();
    });
    afterAll(async () => {
      await panel.services.settings.set('smtp_host', '');
      await smtp?.close();
    });

    it('pays the new account at once and the referrer only when the new account verifies its e-mail, once', async () => {
      await panel.services.settings.set('referrals_pay_after_verification', true);
      await useSmtpServer(panel.services.settings, smtp);
      const referrer = await account();
      const { code } = await referrals(referrer);
      await db().deleteFrom('mail_queue').execute();

      const newcomer = await account(code);
      expect(await balance(newcomer)).toBe(15);
      expect(await balance(referrer)).toBe(0);
      expect(await referralCount(referrer)).toBe(0);
      const waiting = await referrals(referrer);
      expect(waiting.rewards.after_verification).toBe(true);
      expect(waiting.earned).toEqual({ coins: 0, paid: 0, pending: 1 });
      expect(waiting.referred.data).toEqual([{ username: newcomer.username, joined_at: expect.any(String), coins: 0, status: 'pending' }]);
      // the registration event again: still waiting
      await replayRegistration(newcomer, code);
      expect(await balance(referrer)).toBe(0);

      // the new account follows the link it was mailed (the auth plugin's real route)
      const mails = await deliverQueued(panel, smtp, 2);
      const verifyMail = mails.find((m) => m.to[0] === newcomer.email && m.subject.startsWith('Verify'))!;
      const verifyCode = new URL(linkIn(verifyMail, 'https://panel.example.com/api/user/auth/verify?code=')).searchParams.get('code')!;
      const verified = await panel.app.inject({ url: `/api/user/auth/verify?code=${encodeURIComponent(verifyCode)}`, headers: { accept: 'application/json' } });
      expect(verified.statusCode, verified.body).toBe(200);
      expect(await balance(referrer)).toBe(35);
      expect(await referralCount(referrer)).toBe(1);

      // the verification event again, twice at once: nothing more
      await Promise.all([panel.services.events.emit('user.verified', { userId: newcomer.id }), panel.services.events.emit('user.verified', { userId: newcomer.id })]);
      expect(await balance(referrer)).toBe(35);
      expect(await balance(newcomer)).toBe(15);
      expect((await referrals(referrer)).earned).toEqual({ coins: 35, paid: 1, pending: 0 });
    });

    it('settles a referral that became due without the event (an address verified another way) when the referrer opens the page', async () => {
      await panel.services.settings.set('referrals_pay_after_verification', true);
      const referrer = await account();
      const newcomer = await account((await referrals(referrer)).code);
      expect(await balance(referrer)).toBe(0);
      // e.g. an administrator marks the address verified
      await db().updateTable('users').set({ verified: 1 }).where('id', '=', newcomer.id).execute();
      expect((await referrals(referrer)).earned).toEqual({ coins: 35, paid: 1, pending: 0 });
      expect(await balance(referrer)).toBe(35);
      expect(await referralCount(referrer)).toBe(1);
    });
  });

  it('pages the referred accounts newest first', async () => {
    const referrer = await account();
    const { code } = await referrals(referrer);
    const newcomers: Account[] = [];
    for (let i = 0; i < 7; i++) newcomers.push(await account(code));
    const first = await referrals(referrer, '?page=1&per_page=3');
    expect(first.referred.meta).toEqual({ page: 1, per_page: 3, total: 7, total_pages: 3 });
    expect(first.referred.data.map((r) => r.username)).toEqual(
      newcomers
        .slice(4)
        .reverse()
        .map((n) => n.username),
    );
    const last = await referrals(referrer, '?page=3&per_page=3');
    expect(last.referred.data.map((r) => r.username)).toEqual([newcomers[0].username]);
    expect(last.earned).toEqual({ coins: 7 * 35, paid: 7, pending: 0 });
    expect(await referralCount(referrer)).toBe(7);
  });

  it('refuses bad paging and anonymous callers with a 4xx, changing nothing', async () => {
    const who = await account();
    for (const query of ['?page=0', '?page=abc', '?per_page=0', '?per_page=51', '?page=-1']) {
      const res = await page(who.cookie, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const anonymous = await panel.app.inject({ url: '/api/user/earn/referrals' });
    expect(anonymous.statusCode).toBe(401);
    expect(await db().withTables<{ referral_codes: { user_id: number } }>().selectFrom('referral_codes').select('user_id').where('user_id', '=', who.id).execute()).toHaveLength(1);
  });

  it('answers FEATURE_DISABLED while referrals_enabled is off, and records no referral at registration then', async () => {
    const referrer = await account();
    const { code } = await referrals(referrer);
    await panel.services.settings.set('referrals_enabled', false);
    const res = await page(referrer.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FEATURE_DISABLED');
    const newcomer = await account(code);
    expect(await balance(newcomer)).toBe(0);
    expect(await balance(referrer)).toBe(0);

    await panel.services.settings.set('referrals_enabled', true);
    expect((await referrals(referrer)).referred.meta.total).toBe(0);
  });
});
