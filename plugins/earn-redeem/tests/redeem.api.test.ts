// The earn-redeem plugin on every dialect: a code pays its coins through the wallet exactly `uses`
// times in total and at most once per user, whatever the concurrency; codes are case-insensitive;
// disabled, expired, used-up and unknown codes answer a clear 4xx and change nothing; guessing is
// rate-limited; code_redemption_enabled off answers FEATURE_DISABLED; administrators manage the
// codes (validation, paging, search, uses never below what was redeemed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { CoreDatabase } from '@orepanel/sdk/server';
import { checkLedgerConsistency, roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import type { RedeemTables } from '../server/tables';

const REDEEM = '/api/user/earn/redeem';
const ADMIN = '/api/admin/redeem-codes';

describe.each(testDialects())('redeem codes on %s', (dialect) => {
  let panel: TestPanel;
  let admin: SignedInUser;
  let serial = 0;

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    admin = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const db = () => panel.services.database.db as unknown as Kysely<CoreDatabase & RedeemTables>;
  const uniqueCode = (label: string) => `${label}-${dialect}-${++serial}`;
  const coins = async (user: SignedInUser) => Number((await db().selectFrom('users').select('coins').where('id', '=', user.id).executeTakeFirstOrThrow()).coins);
  const ledgerOf = (user: SignedInUser) => db().selectFrom('wallet_ledger').selectAll().where('user_id', '=', user.id).execute();
  const codeRow = async (id: number) => db().selectFrom('redeem_codes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const redemptionsOf = (codeId: number) => db().selectFrom('redeem_redemptions').selectAll().where('code_id', '=', codeId).execute();

  const adminCall = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>, who: SignedInUser = admin) =>
    panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });

  async function createCode(body: Record<string, unknown>): Promise<{ id: number; code: string }> {
    const res = await adminCall('POST', ADMIN, body);
    if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json().code;
  }

  const redeem = (user: SignedInUser, code: string) => panel.app.inject({ method: 'POST', url: REDEEM, payload: { code }, headers: { cookie: user.cookie } });
  const check = (user: SignedInUser, code: string) => panel.app.inject({ url: `${REDEEM}/check/${encodeURIComponent(code)}`, headers: { cookie: user.cookie } });

  async function users(n: number): Promise<SignedInUser[]> {
    const out: SignedInUser[] = [];
    // registrations hash passwords: a few at a time keeps the machine responsive
    for (let i = 0; i < n; i += 10) out.push(...(await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => userWithRole(panel, 1)))));
    return out;
  }

  it('pays the coins once through the wallet, whatever the case and spaces of the typed code', async () => {
    const text = uniqueCode('Summer');
    const code = await createCode({ code: text, coins: 75, uses: 3 });
    expect(code).toMatchObject({ code: text, coins: 75, uses: 3, redeemed: 0, enabled: true, expires_at: null, state: 'active' });
    const user = await userWithRole(panel, 1);

    const peek = await check(user, text.toUpperCase());
    expect(peek.statusCode).toBe(200);
    expect(peek.json()).toEqual({ redeemable: true, code: text, coins: 75 });
    expect(await coins(user)).toBe(0);

    const res = await redeem(user, `  ${text.toLowerCase()}  `);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, code: text, coins: 75, balance: 75 });
    expect(await coins(user)).toBe(75);
    const ledger = await ledgerOf(user);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ kind: 'redeem.code', reference: text, idempotency_key: `redeem:${code.id}:${user.id}` });
    expect(Number(ledger[0].delta)).toBe(75);
    expect(Number((await codeRow(code.id)).redeemed)).toBe(1);
    const rows = await redemptionsOf(code.id);
    expect(rows.map((r) => [Number(r.user_id), Number(r.coins)])).toEqual([[user.id, 75]]);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'details'])
      .where('target_user_id', '=', user.id)
      .where('action', '=', 'redeem.code')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].details)).toEqual({ code: text, coins: 75 });

    // once per user: again, in another spelling, is refused and changes nothing
    const again = await redeem(user, text.toUpperCase());
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'ALREADY_REDEEMED', field: 'code' });
    expect((await check(user, text)).json().error.code).toBe('ALREADY_REDEEMED');
    expect(await coins(user)).toBe(75);
    expect(Number((await codeRow(code.id)).redeemed)).toBe(1);
  });

  it('refuses unknown, malformed, disabled, expired and used-up codes with a clear 4xx, changing nothing', async () => {
    const user = await userWithRole(panel, 1);
    const disabled = await createCode({ code: uniqueCode('off'), coins: 10, enabled: false });
    const expired = await createCode({ code: uniqueCode('old'), coins: 10, expires_at: new Date(Date.now() + 60_000).toISOString() });
    // the admin API refuses a past expiry, so the clock of this code is moved in the database
    await db()
      .updateTable('redeem_codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.id)
      .execute();
    const usedUp = await createCode({ code: uniqueCode('gone'), coins: 10, uses: 1 });
    expect((await redeem(await userWithRole(panel, 1), usedUp.code)).statusCode).toBe(200);

    const cases: [string, number, string][] = [
      ['no-such-code-anywhere', 404, 'CODE_NOT_FOUND'],
      ['has space', 404, 'CODE_NOT_FOUND'],
      ['ab', 404, 'CODE_NOT_FOUND'],
      ['ünïcode', 404, 'CODE_NOT_FOUND'],
      [disabled.code, 409, 'CODE_DISABLED'],
      [expired.code, 410, 'CODE_EXPIRED'],
      [usedUp.code.toUpperCase(), 409, 'CODE_USED_UP'],
    ];
    for (const [text, status, code] of cases) {
      for (const res of [await redeem(user, text), await check(user, text)]) {
        expect(res.statusCode, text).toBe(status);
        expect(res.json().error.code, text).toBe(code);
      }
    }
    const bodies: [unknown, number, string][] = [
      [{}, 400, 'VALIDATION_ERROR'],
      [{ code: '' }, 400, 'VALIDATION_ERROR'],
      [{ code: 'x'.repeat(200) }, 400, 'VALIDATION_ERROR'],
      [{ code: 12345 }, 400, 'VALIDATION_ERROR'], // issue 9: a JSON body is taken as sent, a number is not a code
    ];
    for (const [payload, status, code] of bodies) {
      const res = await panel.app.inject({ method: 'POST', url: REDEEM, payload: payload as Record<string, unknown>, headers: { cookie: user.cookie } });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error.code).toBe(code);
    }
    expect((await panel.app.inject({ method: 'POST', url: REDEEM, payload: { code: disabled.code } })).statusCode).toBe(401);
    expect(await coins(user)).toBe(0);
    expect(await ledgerOf(user)).toEqual([]);
    for (const id of [disabled.id, expired.id]) expect(Number((await codeRow(id)).redeemed)).toBe(0);
    expect(Number((await codeRow(usedUp.id)).redeemed)).toBe(1);
  });

  it('uses=5 and 100 concurrent redeemers: exactly 5 succeed, each user at most once, coins and count commit together', async () => {
    const code = await createCode({ code: uniqueCode('race'), coins: 40, uses: 5 });
    const crowd = await users(100);
    const answers = await Promise.all(crowd.map((user) => redeem(user, code.code)));
    const winners = crowd.filter((_, i) => answers[i].statusCode === 200);
    expect(winners).toHaveLength(5);
    const losers = answers.filter((a) => a.statusCode !== 200);
    expect(losers.every((a) => a.statusCode === 409 && a.json().error.code === 'CODE_USED_UP')).toBe(true);

    expect(Number((await codeRow(code.id)).redeemed)).toBe(5);
    const rows = await redemptionsOf(code.id);
    expect(rows.map((r) => Number(r.user_id)).sort((a, b) => a - b)).toEqual(winners.map((w) => w.id).sort((a, b) => a - b));
    const paid = await db().selectFrom('wallet_ledger').select(['user_id', 'delta']).where('kind', '=', 'redeem.code').where('reference', '=', code.code).execute();
    expect(paid.map((p) => Number(p.user_id)).sort((a, b) => a - b)).toEqual(winners.map((w) => w.id).sort((a, b) => a - b));
    for (const user of crowd) expect(await coins(user)).toBe(winners.includes(user) ? 40 : 0);
    expect((await checkLedgerConsistency(panel.services.database.db)).mismatches).toEqual([]);
  }, 180_000);

  it('one user redeeming 20 times at once is paid once', async () => {
    const code = await createCode({ code: uniqueCode('twenty'), coins: 15, uses: 100 });
    const user = await userWithRole(panel, 1);
    const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(user, code.code)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode !== 200).every((a) => a.statusCode === 409 && a.json().error.code === 'ALREADY_REDEEMED')).toBe(true);
    expect(await coins(user)).toBe(15);
    expect(await ledgerOf(user)).toHaveLength(1);
    expect(Number((await codeRow(code.id)).redeemed)).toBe(1);
    expect(await redemptionsOf(code.id)).toHaveLength(1);
    expect((await checkLedgerConsistency(panel.services.database.db)).mismatches).toEqual([]);
  }, 60_000);

  it('answers FEATURE_DISABLED while code_redemption_enabled is off; administrators still manage codes', async () => {
    const code = await createCode({ code: uniqueCode('flag'), coins: 5 });
    const user = await userWithRole(panel, 1);
    await panel.services.settings.set('code_redemption_enabled', false);
    try {
      for (const res of [await redeem(user, code.code), await check(user, code.code)]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('FEATURE_DISABLED');
      }
      expect((await adminCall('GET', `${ADMIN}/${code.id}`)).statusCode).toBe(200);
      expect((await adminCall('PATCH', `${ADMIN}/${code.id}`, { coins: 6 })).statusCode).toBe(200);
    } finally {
      await panel.services.settings.set('code_redemption_enabled', true);
    }
    expect(await coins(user)).toBe(0);
    expect(Number((await codeRow(code.id)).redeemed)).toBe(0);
    expect((await redeem(user, code.code)).json()).toMatchObject({ coins: 6 });
  });

  it('limits guessing per account: attempts and checks past the limit answer 429', async () => {
    const guesser = await userWithRole(panel, 1);
    const real = await createCode({ code: uniqueCode('guess'), coins: 9 });
    await panel.services.settings.set('rate_limit_redeem_per_account', 3);
    try {
      expect((await redeem(guesser, 'guess-aaaa')).statusCode).toBe(404);
      expect((await check(guesser, 'guess-bbbb')).statusCode).toBe(404);
      expect((await redeem(guesser, 'guess-cccc')).statusCode).toBe(404);
      // the right code now: still refused, the budget is spent
      const limited = await redeem(guesser, real.code);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await check(guesser, real.code)).statusCode).toBe(429);
      // another account is not affected
      expect((await redeem(await userWithRole(panel, 1), real.code)).statusCode).toBe(200);
    } finally {
      await panel.services.settings.set('rate_limit_redeem_per_account', 1_000_000);
    }
    expect(await coins(guesser)).toBe(0);
  });

  describe('administration', () => {
    it('creates with the reference defaults, refuses bad input and duplicates in any case, changing nothing', async () => {
      const text = uniqueCode('Admin');
      const created = await adminCall('POST', ADMIN, { code: text, coins: 20 });
      expect(created.statusCode).toBe(201);
      expect(created.json().code).toMatchObject({ code: text, coins: 20, uses: 1, enabled: true, expires_at: null, redeemed: 0 });
      const before = await db()
        .selectFrom('redeem_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();

      const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
      const cases: [Record<string, unknown>, number, string, string?][] = [
        [{ code: text.toUpperCase(), coins: 5 }, 409, 'REDEEM_CODE_TAKEN', 'code'],
        [{ code: 'no spaces', coins: 5 }, 400, 'VALIDATION_ERROR', 'code'],
        [{ code: 'ab', coins: 5 }, 400, 'VALIDATION_ERROR', 'code'],
        [{ code: uniqueCode('x'), coins: 0 }, 400, 'VALIDATION_ERROR', 'coins'],
        [{ code: uniqueCode('x'), coins: 2.5 }, 400, 'VALIDATION_ERROR', 'coins'],
        [{ code: uniqueCode('x'), coins: 5_000_000 }, 400, 'VALIDATION_ERROR', 'coins'],
        [{ code: uniqueCode('x'), coins: 5, uses: 0 }, 400, 'VALIDATION_ERROR', 'uses'],
        [{ code: uniqueCode('x'), coins: 5, expires_at: new Date(Date.now() - 60_000).toISOString() }, 400, 'EXPIRY_IN_PAST', 'expires_at'],
        [{ code: uniqueCode('x'), coins: 5, expires_at: 'next tuesday' }, 400, 'VALIDATION_ERROR', 'expires_at'],
        [{ code: uniqueCode('x'), coins: 5, expires_at: inAnHour.replace('Z', '') }, 400, 'VALIDATION_ERROR', 'expires_at'],
        [{ coins: 5 }, 400, 'VALIDATION_ERROR', 'code'],
      ];
      for (const [payload, status, code, field] of cases) {
        const res = await adminCall('POST', ADMIN, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(status);
        expect(res.json().error, JSON.stringify(payload)).toMatchObject({ code, field });
      }
      const after = await db()
        .selectFrom('redeem_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));

      // an expiry with an offset is stored as the same instant in UTC
      const offset = await adminCall('POST', ADMIN, { code: uniqueCode('tz'), coins: 1, expires_at: '2999-01-01T12:00:00+02:00' });
      expect(offset.json().code.expires_at).toBe('2999-01-01T10:00:00.000Z');
    });

    it('lists newest first, pages and searches by code (LIKE wildcards are literal)', async () => {
      const tag = `find${dialect}${Date.now().toString(36)}`;
      for (const suffix of ['a', 'b', 'c']) await createCode({ code: `${tag}-${suffix}`, coins: 1 });
      await createCode({ code: `${tag}_x`, coins: 1 });
      const page1 = await adminCall('GET', `${ADMIN}?search=${tag.toUpperCase()}-&per_page=2&page=1`);
      expect(page1.statusCode).toBe(200);
      expect(page1.json().meta).toEqual({ page: 1, per_page: 2, total: 3, total_pages: 2 });
      expect(page1.json().data.map((c: { code: string }) => c.code)).toEqual([`${tag}-c`, `${tag}-b`]);
      const page2 = await adminCall('GET', `${ADMIN}?search=${tag}-&per_page=2&page=2`);
      expect(page2.json().data.map((c: { code: string }) => c.code)).toEqual([`${tag}-a`]);
      // '_' matches itself only, not any character
      const literal = await adminCall('GET', `${ADMIN}?search=${tag}_`);
      expect(literal.json().data.map((c: { code: string }) => c.code)).toEqual([`${tag}_x`]);
      expect((await adminCall('GET', `${ADMIN}?per_page=500`)).statusCode).toBe(400);
    });

    it('edits any field, but never lets uses drop below the redemptions made', async () => {
      const code = await createCode({ code: uniqueCode('edit'), coins: 10, uses: 5 });
      const [a, b] = [await userWithRole(panel, 1), await userWithRole(panel, 1)];
      expect((await redeem(a, code.code)).statusCode).toBe(200);
      expect((await redeem(b, code.code)).statusCode).toBe(200);

      const below = await adminCall('PATCH', `${ADMIN}/${code.id}`, { uses: 1, coins: 99 });
      expect(below.statusCode).toBe(409);
      expect(below.json().error).toMatchObject({ code: 'USES_BELOW_REDEEMED', field: 'uses' });
      expect(await codeRow(code.id)).toMatchObject({ uses: 5 });
      expect(Number((await codeRow(code.id)).coins)).toBe(10);

      const other = await createCode({ code: uniqueCode('other'), coins: 1 });
      const clash = await adminCall('PATCH', `${ADMIN}/${code.id}`, { code: other.code.toUpperCase() });
      expect(clash.statusCode).toBe(409);
      expect(clash.json().error.code).toBe('REDEEM_CODE_TAKEN');
      expect((await adminCall('PATCH', `${ADMIN}/${code.id}`, {})).statusCode).toBe(400);
      expect((await adminCall('PATCH', `${ADMIN}/999999`, { coins: 1 })).statusCode).toBe(404);

      const renamed = uniqueCode('Renamed');
      const ok = await adminCall('PATCH', `${ADMIN}/${code.id}`, { code: renamed, uses: 2, enabled: false });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().code).toMatchObject({ code: renamed, uses: 2, redeemed: 2, enabled: false, state: 'disabled' });
      const third = await userWithRole(panel, 1);
      expect((await redeem(third, renamed)).json().error.code).toBe('CODE_DISABLED');
      await adminCall('PATCH', `${ADMIN}/${code.id}`, { enabled: true });
      expect((await redeem(third, renamed)).json().error.code).toBe('CODE_USED_UP');
      // the old spelling is gone; the users who redeemed it cannot redeem it again under the new one
      expect((await redeem(third, code.code)).json().error.code).toBe('CODE_NOT_FOUND');
      await adminCall('PATCH', `${ADMIN}/${code.id}`, { uses: 3 });
      expect((await redeem(a, renamed)).json().error.code).toBe('ALREADY_REDEEMED');
      expect((await redeem(third, renamed)).statusCode).toBe(200);

      const actions = await db().selectFrom('audit_log').select('action').where('actor_user_id', '=', admin.id).where('action', 'like', 'admin.redeem_code.%').execute();
      expect(actions.map((r) => r.action)).toEqual(expect.arrayContaining(['admin.redeem_code.create', 'admin.redeem_code.update']));
    });

    it('deletes a code and its redemption records; the coins paid stay in the ledger', async () => {
      const code = await createCode({ code: uniqueCode('bye'), coins: 12 });
      const user = await userWithRole(panel, 1);
      expect((await redeem(user, code.code)).statusCode).toBe(200);
      const res = await adminCall('DELETE', `${ADMIN}/${code.id}`);
      expect(res.statusCode).toBe(200);
      expect((await adminCall('GET', `${ADMIN}/${code.id}`)).statusCode).toBe(404);
      expect((await adminCall('DELETE', `${ADMIN}/${code.id}`)).statusCode).toBe(404);
      expect(await redemptionsOf(code.id)).toEqual([]);
      expect(await coins(user)).toBe(12);
      expect((await redeem(user, code.code)).json().error.code).toBe('CODE_NOT_FOUND');
      expect((await checkLedgerConsistency(panel.services.database.db)).mismatches).toEqual([]);
    });

    it('checks each route with its own permission', async () => {
      const lister = await userWithRole(panel, await roleWith(panel, ['admin.redeem.codes.list']));
      const code = await createCode({ code: uniqueCode('perm'), coins: 1 });
      expect((await adminCall('GET', ADMIN, undefined, lister)).statusCode).toBe(200);
      expect((await adminCall('POST', ADMIN, { code: uniqueCode('nope'), coins: 1 }, lister)).statusCode).toBe(403);
      expect((await adminCall('PATCH', `${ADMIN}/${code.id}`, { coins: 2 }, lister)).statusCode).toBe(403);
      expect((await adminCall('DELETE', `${ADMIN}/${code.id}`, undefined, lister)).statusCode).toBe(403);
      expect((await adminCall('GET', ADMIN, undefined, await userWithRole(panel, 1))).statusCode).toBe(403);
      expect(Number((await codeRow(code.id)).coins)).toBe(1);
    });
  });
});
