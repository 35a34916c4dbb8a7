// The wallet: the only code that changes users.coins. Each movement is one database transaction that
// moves the balance with a conditional UPDATE (never read-then-write, so two debits racing for the
// last coins cannot both pass) and appends its ledger entries; a unique idempotency key per entry
// makes a retried movement a no-op that answers the first one's entries.
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import {
  httpError,
  insertedId,
  type CoreDatabase,
  type PluginWallet,
  type WalletEntry,
  type WalletMovement,
  type WalletPage,
  type WalletResult,
  type WalletTransaction,
  type WalletTransfer,
  type WalletTransferResult,
} from '../../sdk/server';
import { isTransientConflict, isUniqueViolation, type Database } from '../db/connect';
import { asPluginTransaction } from '../db/plugin-view';

/** Balances stay far inside 2^53 (and the bigint column); a credit past this is refused. */
export const MAX_BALANCE = 1_000_000_000_000;
/** One movement's size limit: a typo in an admin form must not mint a fortune. */
export const MAX_MOVEMENT = 1_000_000_000;
const KIND = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;
const MAX_KEY_LENGTH = 128;
const MAX_TRANSIENT_RETRIES = 5;

/** Thrown inside a transaction to roll it back when the idempotency key already exists. */
class KeyTaken extends Error {
  constructor(readonly key: string) {
    super(`idempotency key ${key} already used`);
  }
}

interface Step {
  userId: number;
  delta: number;
  kind: string;
  key: string;
}

interface MovementMeta {
  reference: string | null;
  reason: string | null;
  actorUserId: number | null;
  effect?: (trx: WalletTransaction) => Promise<void>;
}

function toEntry(row: {
  id: number;
  user_id: number;
  delta: number | string;
  balance_after: number | string;
  kind: string;
  reference: string | null;
  idempotency_key: string;
  reason: string | null;
  actor_user_id: number | null;
  created_at: string;
}): WalletEntry {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    delta: Number(row.delta),
    balanceAfter: Number(row.balance_after),
    kind: row.kind,
    reference: row.reference,
    idempotencyKey: row.idempotency_key,
    reason: row.reason,
    actorUserId: row.actor_user_id === null ? null : Number(row.actor_user_id),
    createdAt: row.created_at,
  };
}

function checkAmount(amount: number, field = 'amount', allowZero = false): void {
  if (!Number.isSafeInteger(amount) || amount < (allowZero ? 0 : 1) || amount > MAX_MOVEMENT) {
    throw httpError(400, 'INVALID_AMOUNT', `The ${field} must be a whole number of coins between ${allowZero ? 0 : 1} and ${MAX_MOVEMENT}.`, field);
  }
}

function checkKind(kind: string): void {
  if (typeof kind !== 'string' || kind.length > 40 || !KIND.test(kind)) throw new TypeError(`wallet: "${kind}" is not a valid movement kind`);
}

function checkKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH - 9) {
    throw new TypeError('wallet: an idempotency key of 1..119 characters is required');
  }
}

function trimmed(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  return text === '' ? null : text.slice(0, max);
}

export class Wallet implements PluginWallet {
  private readonly db: Kysely<CoreDatabase>;

  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.db = database.db;
  }

  async balance(userId: number): Promise<number> {
    const row = await this.db.selectFrom('users').select('coins').where('id', '=', userId).executeTakeFirst();
    if (!row) throw httpError(404, 'USER_NOT_FOUND', 'That user does not exist.');
    return Number(row.coins);
  }

  async credit(movement: WalletMovement): Promise<WalletResult> {
    checkAmount(movement.amount);
    checkKind(movement.kind);
    checkKey(movement.idempotencyKey);
    const entries = await this.move([{ userId: movement.userId, delta: movement.amount, kind: movement.kind, key: movement.idempotencyKey }], this.meta(movement));
    return { entry: entries.entries[0], replayed: entries.replayed };
  }

  async debit(movement: WalletMovement): Promise<WalletResult> {
    checkAmount(movement.amount);
    checkKind(movement.kind);
    checkKey(movement.idempotencyKey);
    const entries = await this.move([{ userId: movement.userId, delta: -movement.amount, kind: movement.kind, key: movement.idempotencyKey }], this.meta(movement));
    return { entry: entries.entries[0], replayed: entries.replayed };
  }

  async transfer(transfer: WalletTransfer): Promise<WalletTransferResult> {
    checkAmount(transfer.amount);
    checkAmount(transfer.fee, 'fee', true);
    checkKind(transfer.kind);
    checkKey(transfer.idempotencyKey);
    if (transfer.fromUserId === transfer.toUserId) throw httpError(400, 'SELF_TRANSFER', 'You cannot send coins to yourself.');
    const key = transfer.idempotencyKey;
    const steps: Step[] = [
      { userId: transfer.fromUserId, delta: -transfer.amount, kind: `${transfer.kind}.sent`, key },
      { userId: transfer.toUserId, delta: transfer.amount, kind: `${transfer.kind}.received`, key: `${key}#received` },
    ];
    if (transfer.fee > 0) steps.push({ userId: transfer.fromUserId, delta: -transfer.fee, kind: `${transfer.kind}.fee`, key: `${key}#fee` });
    const { entries, replayed } = await this.move(steps, this.meta({ ...transfer, actorUserId: null }));
    return { sent: entries[0], received: entries[1], fee: entries[2] ?? null, replayed };
  }

  async entries(userId: number, page: { page?: number; perPage?: number } = {}): Promise<WalletPage> {
    const perPage = Math.min(Math.max(Math.trunc(page.perPage ?? 20), 1), 100);
    const current = Math.max(Math.trunc(page.page ?? 1), 1);
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('wallet_ledger')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((current - 1) * perPage)
        .execute(),
      this.db
        .selectFrom('wallet_ledger')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { data: rows.map(toEntry), total: Number(count.n) };
  }

  private meta(movement: { reference?: string | null; reason?: string | null; actorUserId?: number | null; effect?: (trx: WalletTransaction) => Promise<void> }): MovementMeta {
    return {
      reference: trimmed(movement.reference, 128),
      reason: trimmed(movement.reason, 255),
      actorUserId: movement.actorUserId ?? null,
      effect: movement.effect,
    };
  }

  /**
   * Applies the steps in one transaction, retrying the whole transaction on a deadlock or a busy
   * database. A taken first key means the movement happened already: its entries are returned.
   */
  private async move(steps: Step[], meta: MovementMeta): Promise<{ entries: WalletEntry[]; replayed: boolean }> {
    const earlier = await this.replay(steps);
    if (earlier) return earlier;
    for (let attempt = 0; ; attempt++) {
      try {
        const entries = await this.db.transaction().execute((trx) => this.apply(trx, steps, meta));
        return { entries, replayed: false };
      } catch (error) {
        if (error instanceof KeyTaken || isUniqueViolation(error)) {
          const done = await this.replay(steps);
          if (done) return done;
          throw httpError(409, 'IDEMPOTENCY_CONFLICT', 'This request was already used for another movement.');
        }
        if (isTransientConflict(error) && attempt < MAX_TRANSIENT_RETRIES) {
          await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * (attempt + 1)));
          continue;
        }
        throw error;
      }
    }
  }

  private async apply(trx: Transaction<CoreDatabase>, steps: Step[], meta: MovementMeta): Promise<WalletEntry[]> {
    // balances change in ascending user order, so two opposite transfers can never deadlock
    const order = [...new Set(steps.map((s) => s.userId))].sort((a, b) => a - b);
    const net = new Map<number, number>();
    for (const step of steps) net.set(step.userId, (net.get(step.userId) ?? 0) + step.delta);
    const after = new Map<number, number>();
    for (const userId of order) after.set(userId, await this.shift(trx, userId, net.get(userId) ?? 0));

    // the entries of one user show the running balance in the order of the steps
    const running = new Map<number, number>();
    for (const [userId, balance] of after) running.set(userId, balance - (net.get(userId) ?? 0));
    const createdAt = this.now().toISOString();
    const entries: WalletEntry[] = [];
    for (const step of steps) {
      const balanceAfter = (running.get(step.userId) ?? 0) + step.delta;
      running.set(step.userId, balanceAfter);
      const row = {
        user_id: step.userId,
        delta: step.delta,
        balance_after: balanceAfter,
        kind: step.kind,
        reference: meta.reference,
        idempotency_key: step.key,
        reason: meta.reason,
        actor_user_id: meta.actorUserId,
        created_at: createdAt,
      };
      const id = await this.insertEntry(trx, row).catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new KeyTaken(step.key);
        throw error;
      });
      entries.push(toEntry({ id, ...row }));
    }
    if (meta.effect) await meta.effect(asPluginTransaction(trx));
    return entries;
  }

  /** Moves one balance by `delta` with a conditional update; returns the new balance. */
  private async shift(trx: Transaction<CoreDatabase>, userId: number, delta: number): Promise<number> {
    const guard =
      delta < 0
        ? trx
            .updateTable('users')
            .set({ coins: sql<number>`coins + ${delta}` })
            .where('id', '=', userId)
            .where('coins', '>=', -delta)
        : trx
            .updateTable('users')
            .set({ coins: sql<number>`coins + ${delta}` })
            .where('id', '=', userId)
            .where('coins', '<=', MAX_BALANCE - delta);
    const result = await guard.executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      const row = await trx.selectFrom('users').select('coins').where('id', '=', userId).executeTakeFirstOrThrow();
      return Number(row.coins);
    }
    const exists = await trx.selectFrom('users').select('coins').where('id', '=', userId).executeTakeFirst();
    if (!exists) throw httpError(404, 'USER_NOT_FOUND', 'That user does not exist.');
    if (delta < 0) throw httpError(409, 'INSUFFICIENT_COINS', 'Not enough coins.');
    throw httpError(409, 'BALANCE_LIMIT', 'That would take the balance past its limit.');
  }

  private insertEntry(trx: Transaction<CoreDatabase>, row: Insertable<CoreDatabase['wallet_ledger']>): Promise<number> {
    return insertedId(this.database.dialect, trx.insertInto('wallet_ledger').values(row));
  }

  /** The entries of a movement that already happened, or null when its first key is unused. */
  private async replay(steps: Step[]): Promise<{ entries: WalletEntry[]; replayed: true } | null> {
    const keys = steps.map((s) => s.key);
    const rows = await this.db.selectFrom('wallet_ledger').selectAll().where('idempotency_key', 'in', keys).execute();
    if (rows.length === 0) return null;
    const byKey = new Map(rows.map((r) => [r.idempotency_key, toEntry(r)]));
    const entries: WalletEntry[] = [];
    for (const step of steps) {
      const entry = byKey.get(step.key);
      // the key was used for something else (another user, amount or kind): never pretend it matched
      if (!entry || entry.userId !== step.userId || entry.delta !== step.delta || entry.kind !== step.kind) {
        throw httpError(409, 'IDEMPOTENCY_CONFLICT', 'This request was already used for another movement.');
      }
      entries.push(entry);
    }
    return { entries, replayed: true };
  }
}
