// The panel never loses its last administrator: a change that could take admin.root from the last
// active (not banned) account holding it — deleting the account, a role change, a ban, taking
// admin.root from a role — is one conditional statement that changes nothing unless another such
// account remains, run in a serializable transaction. Two root administrators removing each other
// at the same moment then cannot both succeed: SQLite runs one statement at a time, PostgreSQL's
// serializable snapshot isolation aborts one of the two (each read the row the other changed), and
// MariaDB/MySQL take shared locks on what the statement read, so one waits or is chosen as a
// deadlock victim. The loser is run again and finds no other administrator: 409.
import { sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { httpError, type CoreDatabase } from '../../sdk/server';
import { ROOT_PERMISSION } from '../../sdk/types';
import { isTransientConflict } from '../db/connect';

const ATTEMPTS = 6;

export function lastAdministratorError() {
  return httpError(409, 'LAST_ADMINISTRATOR', 'This would leave the panel without an administrator: give another account an administrator role first.');
}

/**
 * True when an active account holds admin.root other than `except.userId` and outside role
 * `except.roleId`. MySQL refuses a subquery on the table a statement changes unless it is a derived
 * table it must materialise; the LIMIT keeps the optimiser from merging it back in.
 */
export function anotherRootHolder(except: { userId?: number; roleId?: number }): Expression<SqlBool> {
  const conditions = [sql`holder_grant.permission = ${ROOT_PERMISSION}`, sql`holder.banned = 0`];
  if (except.userId !== undefined) conditions.push(sql`holder.id <> ${except.userId}`);
  if (except.roleId !== undefined) conditions.push(sql`holder.role_id <> ${except.roleId}`);
  return sql<SqlBool>`exists (select 1 from (select holder.id from users holder inner join role_permissions holder_grant on holder_grant.role_id = holder.role_id where ${sql.join(conditions, sql` and `)} limit 1) other_root)`;
}

/**
 * For a statement on the `users` row `userId` that deletes it, bans it or (with `newRoleId`) gives
 * it another role: true when an active account still holds admin.root afterwards — the account is
 * not an active holder now, another one is, or its new role holds admin.root too.
 */
export function leavesRootHolder(userId: number, newRoleId?: number): Expression<SqlBool> {
  const alternatives = [
    sql`users.banned = 1`,
    sql`not exists (select 1 from role_permissions held where held.role_id = users.role_id and held.permission = ${ROOT_PERMISSION})`,
    anotherRootHolder({ userId }),
  ];
  if (newRoleId !== undefined) alternatives.push(sql`exists (select 1 from role_permissions kept where kept.role_id = ${newRoleId} and kept.permission = ${ROOT_PERMISSION})`);
  return sql<SqlBool>`(${sql.join(alternatives, sql` or `)})`;
}

/** Runs `work` in a serializable transaction, again when the database gave up on it (deadlock, serialization failure). */
export async function serializably<T>(db: Kysely<CoreDatabase>, work: (tx: Transaction<CoreDatabase>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().setIsolationLevel('serializable').execute(work);
    } catch (error) {
      if (!isTransientConflict(error) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/**
 * Deletes the account unless that leaves no active account holding admin.root (409
 * LAST_ADMINISTRATOR). `beforeDelete` (user.deleting: servers leave the panel) runs only once the
 * rule allows it; the rule is asked first so that a refusal changes nothing, and the delete itself
 * asks it again — only a race lost in between can refuse after `beforeDelete` ran. False when the
 * account was already gone.
 */
export async function deleteUnlessLastRoot(db: Kysely<CoreDatabase>, userId: number, beforeDelete: () => Promise<void> = async () => undefined): Promise<boolean> {
  const refused = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where((eb) => eb.not(leavesRootHolder(userId)))
    .executeTakeFirst();
  if (refused) throw lastAdministratorError();
  await beforeDelete();
  const deleted = await serializably(db, (tx) => tx.deleteFrom('users').where('id', '=', userId).where(leavesRootHolder(userId)).executeTakeFirst());
  if (Number(deleted.numDeletedRows) === 1) return true;
  if (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) throw lastAdministratorError();
  return false;
}
