// Accounts (ctx.accounts): what plugins read of an account beyond its public fields (user_public) and
// change on it besides coins (coins move through ctx.wallet) — resource totals and the account lock
// that spending them takes, AFK minutes, the owner's profile and support PIN, the address a mail goes
// to, sign-in state. Changes are single statements on the core's users table, never a read-then-write
// a racing request could slip between; pass the wallet's `trx` from an `effect` (or your own
// transaction) to commit one with your own writes.
import type { AccountResource } from '../types';
import type { WalletTransaction } from './wallet';

export { ACCOUNT_RESOURCES, type AccountResource } from '../types';
export type AccountResources = Record<AccountResource, number>;

export interface ResourceGrant {
  resource: AccountResource;
  /** a positive integer */
  amount: number;
  /** the most the account may hold afterwards: a grant that would pass it changes nothing */
  max: number;
  /** the wallet's transaction (an `effect`'s argument), so the grant commits or rolls back with the coins */
  trx?: WalletTransaction;
}

/** Whom a mail about an account goes to, and the names its placeholders use. */
export interface AccountContact {
  email: string;
  firstName: string;
  lastName: string;
  username: string;
}

/** The fields of a profile its owner edits; an absent one stays as it is. */
export interface ProfileChanges {
  firstName?: string;
  lastName?: string;
  email?: string;
  avatar?: string | null;
  background?: string | null;
}

/** What signing in as an account depends on. */
export interface SignInState {
  banned: boolean;
  banReason: string | null;
  twoFactorEnabled: boolean;
}

/** An account's profile as its owner sees it. */
export interface AccountProfile {
  firstName: string;
  lastName: string;
  email: string;
  avatar: string | null;
  background: string | null;
  verified: boolean;
}

export interface PluginAccounts {
  /**
   * The account's resource totals as stored (a value that is not a whole number stays what it is, for
   * the caller to judge); null when there is no such account. Pass `trx` to read inside a transaction.
   */
  resources(userId: number, trx?: WalletTransaction): Promise<AccountResources | null>;
  /**
   * Takes the account's row lock in `trx` until it ends (PostgreSQL, MySQL: SELECT … FOR UPDATE;
   * SQLite: its write lock), so checking what an account may spend and the writes that spend it are
   * one step for that account; false when there is no such account.
   */
  lockAccount(userId: number, trx: WalletTransaction): Promise<boolean>;
  /** The account's e-mail address and names, for a mail about it; null when there is no such account. */
  contact(userId: number): Promise<AccountContact | null>;
  /**
   * Marks the account's e-mail address verified if it still is `email` (any letter case): a link
   * mailed to an earlier address does not verify the current one. 'verified' when this call
   * verified it, 'already' when it was verified before, null when the account has another address.
   */
  confirmEmail(userId: number, email: string): Promise<'verified' | 'already' | null>;
  /** The account whose e-mail address is `email` (any letter case), or null. */
  findByEmail(email: string): Promise<number | null>;
  /** What signing in as the account depends on; null when there is no such account. */
  signInState(userId: number): Promise<SignInState | null>;
  /** Records whether two-factor sign-in is on for the account; pass the caller's transaction to commit it with the factor's own rows. */
  setTwoFactorEnabled(userId: number, enabled: boolean, trx?: WalletTransaction): Promise<void>;
  /** The account's profile; null when there is no such account. */
  profile(userId: number): Promise<AccountProfile | null>;
  /**
   * Saves the given profile fields in one update (checked by the caller: ACCOUNT_RULES, picture
   * addresses). An address another account holds, in any letter case, is 409 EMAIL_TAKEN (field
   * email), also when it is taken at the same moment; a different address — not only another letter
   * case — leaves the account unverified. Answers whether the address changed.
   */
  updateProfile(userId: number, changes: ProfileChanges): Promise<{ emailChanged: boolean }>;
  /** The account's support PIN (6 digits it tells staff), or null before it made one. */
  supportPin(userId: number): Promise<string | null>;
  /** Gives the account a new random support PIN that no other account holds, and answers it. */
  newSupportPin(userId: number): Promise<string>;
  /** Raises one resource total by `amount` unless that would pass `max`; true when it did. */
  grantResource(userId: number, grant: ResourceGrant): Promise<boolean>;
  /** Adds `minutes` (a positive integer) to the account's AFK time (minutes_afk). */
  addAfkMinutes(userId: number, minutes: number, trx?: WalletTransaction): Promise<void>;
}
