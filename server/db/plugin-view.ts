// One database, two types. A plugin's handle is typed with what it may use (PluginReadableDatabase
// and its own tables) and checked at run time (server/plugins/table-boundary.ts); the core's is typed
// with its own tables. These convert between the two where a transaction crosses the line: a wallet
// movement hands its transaction to a plugin's `effect`, and a core service (ctx.counters,
// ctx.accounts) writes its own tables in a transaction a plugin hands it — without the plugin's check.
import type { Kysely, Transaction } from 'kysely';
import type { CoreDatabase, PluginReadableDatabase, WalletTransaction } from '../../sdk/server';

/** A core transaction as a plugin's code sees it (the plugin's check is added where it is handed over). */
export function asPluginTransaction(trx: Transaction<CoreDatabase>): WalletTransaction {
  return trx as unknown as WalletTransaction;
}

/** A plugin's transaction, for the core's own writes in it: the plugin's check stays with the plugin. */
export function asCoreTransaction(trx: WalletTransaction): Transaction<CoreDatabase> {
  return trx.withoutPlugins() as unknown as Transaction<CoreDatabase>;
}

/** The core's handle as a plugin's code sees it; pass it through withPlugin(boundary) first. */
export function asPluginHandle(db: Kysely<CoreDatabase>): Kysely<PluginReadableDatabase> {
  return db as unknown as Kysely<PluginReadableDatabase>;
}
