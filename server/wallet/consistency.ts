// The wallet's consistency check (a scheduled job, shown on the health page): for every account, the
// sum of its ledger deltas and its latest balance_after must both equal users.coins. A difference
// means coins moved outside the wallet, or a bug; the job fails loudly and names the first accounts.
import { sql, type Kysely } from 'kysely';
import type { CoreDatabase } from '../../sdk/server';

export interface LedgerMismatch {
  userId: number;
  balance: number;
  ledgerSum: number;
  lastBalanceAfter: number | null;
}

export interface ConsistencyReport {
  accounts: number;
  entries: number;
  mismatches: LedgerMismatch[];
}

/** Accounts checked per query: bounded memory however many users there are. */
const BATCH = 2000;

export async function checkLedgerConsistency(db: Kysely<CoreDatabase>): Promise<ConsistencyReport> {
  const mismatches: LedgerMismatch[] = [];
  let accounts = 0;
  let afterId = 0;
  for (;;) {
    const users = await db.selectFrom('users').select(['id', 'coins']).where('id', '>', afterId).orderBy('id').limit(BATCH).execute();
    if (users.length === 0) break;
    accounts += users.length;
    const ids = users.map((u) => u.id);
    afterId = ids[ids.length - 1];
    const sums = await db
      .selectFrom('wallet_ledger')
      .select(['user_id', sql<string | number>`sum(delta)`.as('total'), sql<number>`max(id)`.as('last_id')])
      .where('user_id', 'in', ids)
      .groupBy('user_id')
      .execute();
    const lastIds = sums.map((s) => Number(s.last_id));
    const lasts = lastIds.length > 0 ? await db.selectFrom('wallet_ledger').select(['user_id', 'balance_after']).where('id', 'in', lastIds).execute() : [];
    const sumBy = new Map(sums.map((s) => [Number(s.user_id), Number(s.total)]));
    const lastBy = new Map(lasts.map((l) => [Number(l.user_id), Number(l.balance_after)]));
    for (const user of users) {
      const balance = Number(user.coins);
      const ledgerSum = sumBy.get(user.id) ?? 0;
      const lastBalanceAfter = lastBy.get(user.id) ?? null;
      if (ledgerSum !== balance || (lastBalanceAfter ?? 0) !== balance) mismatches.push({ userId: user.id, balance, ledgerSum, lastBalanceAfter });
    }
  }
  const entries = await db
    .selectFrom('wallet_ledger')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return { accounts, entries: Number(entries.n), mismatches };
}

/** The job's result line, or an error naming the first mismatched accounts. */
export async function runLedgerConsistencyJob(db: Kysely<CoreDatabase>): Promise<string> {
  const report = await checkLedgerConsistency(db);
  if (report.mismatches.length > 0) {
    const shown = report.mismatches
      .slice(0, 5)
      .map((m) => `user ${m.userId}: balance ${m.balance}, ledger ${m.ledgerSum}`)
      .join('; ');
    throw new Error(`${report.mismatches.length} of ${report.accounts} balances differ from the ledger (${shown})`);
  }
  return `${report.accounts} balances match ${report.entries} ledger entries`;
}
