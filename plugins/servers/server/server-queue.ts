// The creation queue's rows: queuing (under the user's lock, so the reserved resources are counted
// by the next request at once), reading, and removing an entry nobody is building. Every status
// change is a conditional UPDATE on the status it expects, so a worker and a delete cannot both win.
import { insertedId, type ServerPluginContext } from '@orepanel/sdk/server';
import type { CreateServerRequest, QueueAttemptOutcome, QueueStatus } from '../shared/api';
import type { AccountResources, ServersTrx } from './account-resources';
import type { CatalogChoice, CreationRules } from './creation-rules';
import type { LogRow, QueueRow } from './server-views';
import type { ServersDb } from './tables';

export interface EnqueueOptions {
  /** the one-pending-entry rule (administrators may queue several for a user) */
  onePending: boolean;
  createdBy: number | null;
}

export const QUEUE_PER_PAGE = 25;

export class ServerQueue {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly db: ServersDb,
    private readonly resources: AccountResources,
    private readonly rules: CreationRules,
  ) {}

  private now(): string {
    return new Date(this.ctx.clock.now()).toISOString();
  }

  async enqueue(userId: number, body: CreateServerRequest, choice: CatalogChoice, options: EnqueueOptions): Promise<QueueRow> {
    const id = await this.resources.underUserLock(userId, async (trx) => {
      if (options.onePending) await this.rules.checkNoPendingEntry(userId, trx);
      await this.rules.checkRoom(userId, body, choice.location, trx);
      const now = this.now();
      const values = {
        user_id: userId,
        name: body.name.trim(),
        description: body.description?.trim() || null,
        location_id: choice.location.id,
        egg_id: choice.egg.id,
        ram: body.ram,
        disk: body.disk,
        cpu: body.cpu,
        ports: body.ports,
        databases: body.databases,
        backups: body.backups,
        status: 'pending' as const,
        next_attempt_at: now,
        last_error: null,
        server_id: null,
        created_by: options.createdBy,
        created_at: now,
        updated_at: now,
      };
      return insertedId(this.ctx.dialect, trx.insertInto('server_queue').values(values));
    });
    return (await this.find(id))!;
  }

  find(id: number, db: ServersDb | ServersTrx = this.db): Promise<QueueRow | undefined> {
    return db.selectFrom('server_queue').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The user's entries that are not servers yet (pending, building, failed), newest first. */
  forUser(userId: number): Promise<QueueRow[]> {
    return this.db.selectFrom('server_queue').selectAll().where('user_id', '=', userId).where('status', '!=', 'completed').orderBy('id', 'desc').limit(50).execute();
  }

  async page(status: QueueStatus | undefined, page: number): Promise<{ rows: QueueRow[]; total: number }> {
    let query = this.db.selectFrom('server_queue');
    if (status) query = query.where('status', '=', status);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('id', 'desc')
        .limit(QUEUE_PER_PAGE)
        .offset((page - 1) * QUEUE_PER_PAGE)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /**
   * Removes an entry that is pending or failed (its reservation goes with it). A building one is
   * refused: the worker may be creating it on the panel this very moment.
   */
  async remove(id: number, userId: number | null): Promise<void> {
    const entry = await this.find(id);
    // a customer's completed entries are servers now; an administrator may clear them from the history
    if (!entry || (userId !== null && (entry.user_id !== userId || entry.status === 'completed'))) {
      throw this.ctx.httpError(404, 'QUEUE_ENTRY_NOT_FOUND', 'This queue entry does not exist.');
    }
    const removable = userId === null ? (['pending', 'failed', 'completed'] as const) : (['pending', 'failed'] as const);
    const result = await this.db.deleteFrom('server_queue').where('id', '=', id).where('status', 'in', removable).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw this.ctx.httpError(409, 'QUEUE_ENTRY_BUSY', 'This entry is being built right now; try again in a moment.');
  }

  logsOf(entryId: number): Promise<LogRow[]> {
    return this.db.selectFrom('server_queue_logs').selectAll().where('entry_id', '=', entryId).orderBy('id', 'asc').execute();
  }

  async logPage(page: number): Promise<{ rows: (LogRow & { entry_name: string; user_id: number })[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('server_queue_logs')
        .innerJoin('server_queue', 'server_queue.id', 'server_queue_logs.entry_id')
        .selectAll('server_queue_logs')
        .select(['server_queue.name as entry_name', 'server_queue.user_id as user_id'])
        .orderBy('server_queue_logs.id', 'desc')
        .limit(QUEUE_PER_PAGE)
        .offset((page - 1) * QUEUE_PER_PAGE)
        .execute(),
      this.db
        .selectFrom('server_queue_logs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  async log(entryId: number, attempt: number, outcome: QueueAttemptOutcome, message: string, db: ServersDb | ServersTrx = this.db): Promise<void> {
    await db
      .insertInto('server_queue_logs')
      .values({ entry_id: entryId, attempt, outcome, message: message.slice(0, 1000), created_at: this.now() })
      .execute();
  }
}
