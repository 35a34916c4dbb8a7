// The redeem codes as administrators manage them: list (paged, searched by code), one, create,
// edit, delete. The redemption itself (redemption.ts) only ever raises `redeemed` through the wallet.
import { sql, type SqlBool, type Updateable } from 'kysely';
import { likeLiteral, type HttpError, type ServerPluginContext } from '@orepanel/sdk/server';
import { codeState, type CodeState } from '../shared/code-rules';
import type { RedeemCodesTable, RedeemDb } from './tables';

export interface RedeemCodeRow {
  id: number;
  code: string;
  code_key: string;
  coins: number;
  uses: number;
  redeemed: number;
  enabled: number;
  expires_at: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** A code as the admin API answers it. */
export interface RedeemCodeView {
  id: number;
  code: string;
  coins: number;
  uses: number;
  redeemed: number;
  enabled: boolean;
  expires_at: string | null;
  state: CodeState;
  created_at: string;
  updated_at: string;
}

export interface NewRedeemCode {
  code: string;
  coins: number;
  uses: number;
  enabled: boolean;
  expires_at: string | null;
}

export type RedeemCodeChanges = Partial<NewRedeemCode>;

/** Numbers come back as strings from some drivers (bigint on PostgreSQL): one place turns them into numbers. */
export function toCodeRow(row: Record<keyof RedeemCodeRow, unknown>): RedeemCodeRow {
  return {
    id: Number(row.id),
    code: String(row.code),
    code_key: String(row.code_key),
    coins: Number(row.coins),
    uses: Number(row.uses),
    redeemed: Number(row.redeemed),
    enabled: Number(row.enabled),
    expires_at: row.expires_at === null ? null : String(row.expires_at),
    created_by: row.created_by === null ? null : Number(row.created_by),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

export function viewOf(row: RedeemCodeRow, now = new Date()): RedeemCodeView {
  const enabled = row.enabled === 1;
  return {
    id: row.id,
    code: row.code,
    coins: row.coins,
    uses: row.uses,
    redeemed: row.redeemed,
    enabled,
    expires_at: row.expires_at,
    state: codeState({ enabled, uses: row.uses, redeemed: row.redeemed, expires_at: row.expires_at }, now),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** `%text%` for LIKE with '!' as the escape character (the same on the three dialects). */
const containsPattern = (text: string) => `%${likeLiteral(text)}%`;

export class RedeemCodes {
  constructor(
    private readonly db: RedeemDb,
    private readonly httpError: ServerPluginContext['httpError'],
  ) {}

  private notFound(): HttpError {
    return this.httpError(404, 'REDEEM_CODE_NOT_FOUND', 'There is no such redeem code.');
  }

  private taken(): HttpError {
    return this.httpError(409, 'REDEEM_CODE_TAKEN', 'A redeem code with this code already exists (codes ignore case).', 'code');
  }

  async list(page: number, perPage: number, search: string): Promise<{ rows: RedeemCodeRow[]; total: number }> {
    let query = this.db.selectFrom('redeem_codes');
    const text = search.trim().toLowerCase();
    if (text !== '') query = query.where(sql<SqlBool>`${sql.ref('code_key')} like ${containsPattern(text)} escape '!'`);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(toCodeRow), total: Number(count.n) };
  }

  async find(id: number): Promise<RedeemCodeRow | null> {
    const row = await this.db.selectFrom('redeem_codes').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toCodeRow(row) : null;
  }

  async get(id: number): Promise<RedeemCodeRow> {
    const row = await this.find(id);
    if (!row) throw this.notFound();
    return row;
  }

  async findByKey(key: string): Promise<RedeemCodeRow | null> {
    const row = await this.db.selectFrom('redeem_codes').selectAll().where('code_key', '=', key).executeTakeFirst();
    return row ? toCodeRow(row) : null;
  }

  private async keyTakenBy(key: string, exceptId: number | null): Promise<boolean> {
    let query = this.db.selectFrom('redeem_codes').select('id').where('code_key', '=', key);
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async create(input: NewRedeemCode, createdBy: number | null): Promise<RedeemCodeRow> {
    const key = input.code.toLowerCase();
    if (await this.keyTakenBy(key, null)) throw this.taken();
    const now = new Date().toISOString();
    try {
      await this.db
        .insertInto('redeem_codes')
        .values({
          code: input.code,
          code_key: key,
          coins: input.coins,
          uses: input.uses,
          enabled: input.enabled ? 1 : 0,
          expires_at: input.expires_at,
          created_by: createdBy,
          created_at: now,
          updated_at: now,
        })
        .execute();
    } catch (error) {
      // another administrator created the same code at the same moment: the unique key decided
      if (await this.keyTakenBy(key, null)) throw this.taken();
      throw error;
    }
    const row = await this.findByKey(key);
    if (!row) throw new Error(`redeem code ${input.code} vanished right after it was created`);
    return row;
  }

  async update(id: number, changes: RedeemCodeChanges): Promise<RedeemCodeRow> {
    const before = await this.get(id);
    const set: Updateable<RedeemCodesTable> = { updated_at: new Date().toISOString() };
    if (changes.code !== undefined && changes.code !== before.code) {
      const key = changes.code.toLowerCase();
      if (await this.keyTakenBy(key, id)) throw this.taken();
      set.code = changes.code;
      set.code_key = key;
    }
    if (changes.coins !== undefined) set.coins = changes.coins;
    if (changes.uses !== undefined) set.uses = changes.uses;
    if (changes.enabled !== undefined) set.enabled = changes.enabled ? 1 : 0;
    if (changes.expires_at !== undefined) set.expires_at = changes.expires_at;
    let query = this.db.updateTable('redeem_codes').set(set).where('id', '=', id);
    // redemptions may land while the administrator types: the limit is compared in the same
    // statement, so it can never end up below what was already redeemed
    if (changes.uses !== undefined) query = query.where('redeemed', '<=', changes.uses);
    let updated: bigint;
    try {
      updated = (await query.executeTakeFirst()).numUpdatedRows;
    } catch (error) {
      if (set.code_key !== undefined && (await this.keyTakenBy(set.code_key, id))) throw this.taken();
      throw error;
    }
    if (Number(updated) === 0) {
      const now = await this.get(id);
      if (changes.uses !== undefined && now.redeemed > changes.uses) {
        throw this.httpError(409, 'USES_BELOW_REDEEMED', `This code was already redeemed ${now.redeemed} times: allow at least that many uses.`, 'uses');
      }
    }
    return this.get(id);
  }

  async delete(id: number): Promise<RedeemCodeRow> {
    const row = await this.get(id);
    // its redemption rows go with it (foreign key cascade); the coins paid stay in the ledger
    await this.db.deleteFrom('redeem_codes').where('id', '=', id).execute();
    return row;
  }
}
