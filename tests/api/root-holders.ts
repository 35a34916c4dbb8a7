// Test set-up for the "last administrator" rule: a panel whose only admin.root holders are the
// accounts a test makes, and a count of the accounts that still hold it afterwards.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { userWithRole, type SignedInUser, type TestPanel } from './harness';

const ROOT = 'admin.root';

/** Every account holding admin.root goes to role 1; then `count` new accounts get role 8. */
export async function onlyNewRootHolders(panel: TestPanel, count: number): Promise<SignedInUser[]> {
  const db = panel.services.database.db;
  const rootRoles = db.selectFrom('role_permissions').select('role_id').where('permission', '=', ROOT);
  await db.updateTable('users').set({ role_id: 1 }).where('role_id', 'in', rootRoles).execute();
  const holders: SignedInUser[] = [];
  for (let i = 0; i < count; i++) holders.push(await userWithRole(panel, 8));
  return holders;
}

/** The ids of the accounts that hold admin.root and are not banned. */
export async function activeRootHolders(panel: TestPanel): Promise<number[]> {
  const rows = await panel.services.database.db
    .selectFrom('users')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'users.role_id')
    .select('users.id')
    .where('role_permissions.permission', '=', ROOT)
    .where('users.banned', '=', 0)
    .orderBy('users.id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Two administrators acted on each other at once: one won. The other was refused by the rule (409
 * LAST_ADMINISTRATOR) or, when its request came in after the winner's had finished, already lacked
 * the right to ask (401: account gone, 403: demoted).
 */
export function expectOneWinner(answers: readonly LightMyRequestResponse[]): void {
  const statuses = answers.map((a) => a.statusCode).sort();
  expect(statuses[0]).toBe(200);
  expect([401, 403, 409]).toContain(statuses[1]);
  const refused = answers.find((a) => a.statusCode === 409);
  if (refused) expect(refused.json().error.code).toBe('LAST_ADMINISTRATOR');
}
