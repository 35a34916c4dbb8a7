// Redeeming a code (reference: POST /api/user/earn/redeem, GET /api/user/earn/redeem/check/{code}).
// The coins, the code's redemption count and the user's redemption row change in ONE wallet
// movement: the wallet credits the user, and its `effect` — in the same transaction — raises the
// count with a conditional update (`redeemed < uses`, still enabled, not expired) and inserts the
// (code, user) row under its unique key. If either fails, the credit is rolled back with it. The
// idempotency key `redeem:<code id>:<user id>` makes a second redemption of the same code by the
// same user a replay that moves nothing. So: exactly `uses` redemptions, at most one per user,
// under any concurrency and on every dialect.
import { sql } from 'kysely';
import type { HttpError, ServerPluginContext, WalletTransaction } from '@orepanel/sdk/server';
import { codeKey, codeState, type CodeState } from '../shared/code-rules';
import { toCodeRow, type RedeemCodeRow, type RedeemCodes } from './redeem-codes';
import type { RedeemTables } from './tables';

export interface Redemption {
  code: string;
  coins: number;
  /** the user's balance right after */
  balance: number;
}

export class CodeRedemption {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly codes: RedeemCodes,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private refusal(state: Exclude<CodeState, 'active'>): HttpError {
    const e = this.ctx.httpError;
    switch (state) {
      case 'disabled':
        return e(409, 'CODE_DISABLED', 'This code is switched off.', 'code');
      case 'expired':
        return e(410, 'CODE_EXPIRED', 'This code has expired.', 'code');
      case 'used_up':
        return e(409, 'CODE_USED_UP', 'This code has been redeemed as many times as it allows.', 'code');
    }
  }

  private alreadyRedeemed(): HttpError {
    return this.ctx.httpError(409, 'ALREADY_REDEEMED', 'You have already redeemed this code.', 'code');
  }

  /** The code the user typed, if it exists and this user may redeem it now; otherwise the reason, as an http error. */
  async redeemable(userId: number, typed: string): Promise<RedeemCodeRow> {
    const key = codeKey(typed);
    const code = key === null ? null : await this.codes.findByKey(key);
    if (!code) throw this.ctx.httpError(404, 'CODE_NOT_FOUND', 'There is no such code.', 'code');
    const state = codeState({ enabled: code.enabled === 1, uses: code.uses, redeemed: code.redeemed, expires_at: code.expires_at }, this.now());
    if (state !== 'active') throw this.refusal(state);
    if (await this.hasRedeemed(code.id, userId)) throw this.alreadyRedeemed();
    return code;
  }

  private async hasRedeemed(codeId: number, userId: number): Promise<boolean> {
    const db = this.ctx.db.withTables<RedeemTables>();
    const row = await db.selectFrom('redeem_redemptions').select('id').where('code_id', '=', codeId).where('user_id', '=', userId).executeTakeFirst();
    return row !== undefined;
  }

  async redeem(userId: number, typed: string): Promise<Redemption> {
    const code = await this.redeemable(userId, typed);
    const result = await this.ctx.wallet
      .credit({
        userId,
        amount: code.coins,
        kind: 'redeem.code',
        reference: code.code,
        idempotencyKey: `redeem:${code.id}:${userId}`,
        effect: (trx) => this.claim(trx, code, userId),
      })
      .catch((error: unknown) => {
        // the wallet reports a unique key taken by another movement this way: here the only other
        // unique key is the (code, user) redemption row
        if ((error as { code?: unknown }).code === 'IDEMPOTENCY_CONFLICT') throw this.alreadyRedeemed();
        throw error;
      });
    // a concurrent request of the same user got there first: nothing moved this time
    if (result.replayed) throw this.alreadyRedeemed();
    return { code: code.code, coins: code.coins, balance: result.entry.balanceAfter };
  }

  /** Inside the wallet's transaction: takes one use of the code and records the user's redemption. */
  private async claim(trx: WalletTransaction, code: RedeemCodeRow, userId: number): Promise<void> {
    const db = trx.withTables<RedeemTables>();
    const now = this.now().toISOString();
    const taken = await db
      .updateTable('redeem_codes')
      .set({ redeemed: sql<number>`redeemed + 1` })
      .where('id', '=', code.id)
      .where('enabled', '=', 1)
      .whereRef('redeemed', '<', 'uses')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) {
      // another redemption took the last use, or an administrator changed the code meanwhile
      const current = await db.selectFrom('redeem_codes').selectAll().where('id', '=', code.id).executeTakeFirst();
      if (!current) throw this.ctx.httpError(404, 'CODE_NOT_FOUND', 'There is no such code.', 'code');
      const row = toCodeRow(current);
      const state = codeState({ enabled: row.enabled === 1, uses: row.uses, redeemed: row.redeemed, expires_at: row.expires_at }, this.now());
      throw this.refusal(state === 'active' ? 'used_up' : state);
    }
    // the unique (code, user) key is the database's last word on "once per user"; the ledger's
    // idempotency key normally stops a second redemption before it gets here
    await db.insertInto('redeem_redemptions').values({ code_id: code.id, user_id: userId, coins: code.coins, created_at: now }).execute();
  }
}
