// The wallet: integer coins, moved only through an append-only ledger, atomically; and the per-user
// counters plugins publish.
import type { Transaction } from 'kysely';
import type { PluginReadableDatabase } from './database';

/** The database transaction a wallet movement runs in, for a plugin's own writes that must commit with it. */
export type WalletTransaction = Transaction<PluginReadableDatabase>;

export interface WalletMovement {
  userId: number;
  /** coins, a positive integer */
  amount: number;
  /** what the movement is, dot-separated (e.g. redeem.code, store.purchase, admin.adjust) */
  kind: string;
  /** what it is about (e.g. a code, an order id), shown in the transactions list */
  reference?: string | null;
  /**
   * Unique per movement, forever. Retrying with the same key never moves coins twice: the first
   * movement's entry comes back with `replayed: true`. Derive it from what makes the movement unique
   * (e.g. `redeem:<code id>:<user id>`, `stripe:<payment id>`).
   */
  idempotencyKey: string;
  /** a human reason (admin adjustments require one) */
  reason?: string | null;
  /** who caused it when not the owner (an administrator) */
  actorUserId?: number | null;
  /**
   * Runs inside the movement's database transaction after the balance changed; throwing undoes the
   * movement (e.g. a store purchase adding resources, a redemption row). Not run on a replay.
   */
  effect?: (trx: WalletTransaction) => Promise<void>;
}

export interface WalletEntry {
  id: number;
  userId: number;
  delta: number;
  balanceAfter: number;
  kind: string;
  reference: string | null;
  idempotencyKey: string;
  reason: string | null;
  actorUserId: number | null;
  createdAt: string;
}

export interface WalletResult {
  entry: WalletEntry;
  /** true when the idempotency key had been used: nothing moved this time */
  replayed: boolean;
}

export interface WalletTransfer {
  fromUserId: number;
  toUserId: number;
  /** what the recipient receives (a positive integer) */
  amount: number;
  /** paid by the sender on top of `amount` and taken out of circulation (0 for none) */
  fee: number;
  /** base kind: the entries are `<kind>.sent`, `<kind>.received` and `<kind>.fee` */
  kind: string;
  reference?: string | null;
  idempotencyKey: string;
  reason?: string | null;
  effect?: (trx: WalletTransaction) => Promise<void>;
}

export interface WalletTransferResult {
  sent: WalletEntry;
  received: WalletEntry;
  fee: WalletEntry | null;
  replayed: boolean;
}

export interface WalletPage {
  data: WalletEntry[];
  total: number;
}

/**
 * ctx.wallet — the only way coins move. Each call is one database transaction with an atomic
 * conditional update of the balance (never read-then-write) and its ledger entries.
 * Errors (as http errors): 400 INVALID_AMOUNT, 404 USER_NOT_FOUND, 409 INSUFFICIENT_COINS,
 * 409 BALANCE_LIMIT, 400 SELF_TRANSFER, 409 IDEMPOTENCY_CONFLICT (a key reused for another movement).
 */
export interface PluginWallet {
  balance(userId: number): Promise<number>;
  credit(movement: WalletMovement): Promise<WalletResult>;
  debit(movement: WalletMovement): Promise<WalletResult>;
  transfer(transfer: WalletTransfer): Promise<WalletTransferResult>;
  /** The user's entries, newest first. */
  entries(userId: number, page?: { page?: number; perPage?: number }): Promise<WalletPage>;
}

/** One row of a counter's ranking. */
export interface CounterRank {
  userId: number;
  value: number;
}

/**
 * ctx.counters — per-user numbers a plugin publishes for others to read without touching its tables
 * (the leaderboard ranks by them). Names are `<plugin id>.<what>` or a core name (e.g. referrals).
 */
export interface PluginCounters {
  /**
   * Adds `amount` (an integer, may be negative) to the user's counter. Pass the wallet's `trx` from
   * an `effect` so the count commits with the coins.
   */
  add(userId: number, name: string, amount: number, trx?: WalletTransaction): Promise<void>;
  get(userId: number, name: string): Promise<number>;
  /** The highest values first (ties: the earlier account first). */
  top(name: string, limit: number): Promise<CounterRank[]>;
}
