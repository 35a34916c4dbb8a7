// Changes to a server that exists: resize, renew, delete, suspend, unsuspend. The panel is the
// truth for what runs, so each change is made there first and then recorded here; one change per
// server at a time (its lease, shared with the renewal job), and resources that grow are reserved
// under the user's lock before the panel is asked, so a resize and a create cannot spend the same
// free RAM.
import { isPanelError, type Lease, type PanelBuild, type PanelError, type ServerPluginContext, type WalletTransaction } from '@orepanel/sdk/server';
import { SERVER_RESOURCE_KEYS, type ServerResources } from '../shared/api';
import { storedResources, type AccountResources } from './account-resources';
import type { CreationRules } from './creation-rules';
import { SERVERS_COUNTER } from './queue-worker';
import { readRenewal, type ServerRow } from './server-views';
import type { ServersDb } from './tables';

const SERVER_LEASE_MS = 2 * 60_000;
export const DAY_MS = 86_400_000;

export function buildOf(allocation: number, r: ServerResources): PanelBuild {
  return {
    allocation,
    limits: { memory: r.ram, swap: 0, disk: r.disk, io: 500, cpu: r.cpu },
    feature_limits: { databases: r.databases, backups: r.backups, allocations: r.ports },
  };
}

export class HostedServers {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly db: ServersDb,
    private readonly resources: AccountResources,
    private readonly rules: CreationRules,
  ) {}

  private iso(ms = this.ctx.clock.now()): string {
    return new Date(ms).toISOString();
  }

  find(id: number): Promise<ServerRow | undefined> {
    return this.db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async owned(id: number, userId: number | null): Promise<ServerRow> {
    const row = await this.find(id);
    if (!row || (userId !== null && row.user_id !== userId)) throw this.ctx.httpError(404, 'SERVER_NOT_FOUND', 'This server does not exist.');
    return row;
  }

  forUser(userId: number): Promise<ServerRow[]> {
    return this.db.selectFrom('servers').selectAll().where('user_id', '=', userId).orderBy('id', 'asc').execute();
  }

  /** Runs `work` holding the server's lease (409 SERVER_BUSY while another change runs). */
  async exclusively<T>(serverId: number, work: (lease: Lease) => Promise<T>): Promise<T> {
    const lease = await this.ctx.leases.acquire(`server:${serverId}`, SERVER_LEASE_MS);
    if (!lease) throw this.ctx.httpError(409, 'SERVER_BUSY', 'Another change to this server is under way; try again in a moment.');
    try {
      return await work(lease);
    } finally {
      await lease.release();
    }
  }

  panelFailed(error: unknown, what: string): Error {
    if (isPanelError(error)) {
      if (error.code === 'PANEL_NOT_CONFIGURED') return this.ctx.httpError(503, 'PANEL_NOT_CONFIGURED', 'The host panel is not set up.');
      return this.ctx.httpError(502, 'PANEL_FAILED', `The panel could not ${what}: ${(error as PanelError).detail || error.message}`);
    }
    return error as Error;
  }

  /**
   * New totals for a server. Only the increase is checked against what is free; decreases go down to
   * the minimums. Reserve max(old, new) here first, then the panel, then the new values — a failure
   * puts the old ones back, and neither step ever holds less than the panel might have. A server
   * whose stored amounts are unreadable is not resized: its increase cannot be known.
   */
  async resize(serverId: number, userId: number | null, wanted: ServerResources): Promise<ServerRow> {
    this.rules.checkWanted(wanted);
    const current = await this.owned(serverId, userId);
    return this.exclusively(serverId, async () => {
      const stored = storedResources(await this.owned(serverId, userId));
      if (stored.broken.length > 0) {
        this.ctx.log.warn({ server: serverId, fields: stored.broken }, 'servers: resize refused, the server holds unreadable resources');
        throw this.ctx.httpError(
          409,
          'RESOURCES_UNREADABLE',
          `This server's stored ${stored.broken.join(', ')} cannot be read; an administrator must mend it before it can be resized.`,
          stored.broken[0],
        );
      }
      const before = stored.resources;
      const reserve = { ...before };
      const increase = { ...before };
      for (const key of SERVER_RESOURCE_KEYS) {
        reserve[key] = Math.max(before[key], wanted[key]);
        increase[key] = reserve[key] - before[key];
      }
      await this.resources.underUserLock(current.user_id, async (trx) => {
        const summary = await this.resources.summary(current.user_id, trx);
        if (!summary) throw this.ctx.httpError(404, 'SERVER_NOT_FOUND', 'This server does not exist.');
        this.rules.checkFree(increase, summary);
        await trx
          .updateTable('servers')
          .set({ ...reserve, updated_at: this.iso() })
          .where('id', '=', serverId)
          .execute();
      });
      const restore = () =>
        this.db
          .updateTable('servers')
          .set({ ...before, updated_at: this.iso() })
          .where('id', '=', serverId)
          .execute();
      try {
        const panelServer = await this.ctx.pterodactyl.servers.get(current.panel_id);
        await this.ctx.pterodactyl.servers.updateBuild(current.panel_id, buildOf(panelServer.allocation, wanted));
      } catch (error) {
        if (isPanelError(error) && error.uncertain) {
          // the build may have been applied: keep what the panel now says, if it answers
          const now = await this.ctx.pterodactyl.servers.get(current.panel_id).catch(() => null);
          if (
            now &&
            now.limits.memory === wanted.ram &&
            now.limits.disk === wanted.disk &&
            now.limits.cpu === wanted.cpu &&
            now.feature_limits.allocations === wanted.ports &&
            now.feature_limits.databases === wanted.databases &&
            now.feature_limits.backups === wanted.backups
          ) {
            await this.db
              .updateTable('servers')
              .set({ ...wanted, updated_at: this.iso() })
              .where('id', '=', serverId)
              .execute();
            return (await this.find(serverId))!;
          }
          // unknown: keep max(old, new) reserved (never less than the panel may run with)
          if (!now) throw this.panelFailed(error, 'resize the server');
        }
        await restore();
        throw this.panelFailed(error, 'resize the server');
      }
      await this.db
        .updateTable('servers')
        .set({ ...wanted, updated_at: this.iso() })
        .where('id', '=', serverId)
        .execute();
      return (await this.find(serverId))!;
    });
  }

  /**
   * Pays server_renew_cost (the wallet's idempotency key: a retried request never pays twice) and
   * moves expires_at on by server_renew_days from max(now, expires_at), in one transaction. A server
   * suspended for expiry is unsuspended on the panel; should the panel fail, the renewal stays paid
   * and the renewal job unsuspends it on its next run.
   */
  async renew(serverId: number, userId: number, key: string): Promise<{ row: ServerRow; replayed: boolean }> {
    const { terms, unreadable } = await readRenewal(this.ctx);
    if (unreadable) throw this.ctx.httpError(503, 'RENEWAL_UNAVAILABLE', 'Renewals cannot be paid right now; an administrator must check the renewal settings.');
    await this.owned(serverId, userId);
    return this.exclusively(serverId, async () => {
      const row = await this.owned(serverId, userId);
      const nowMs = this.ctx.clock.now();
      // an unparsable stored expiry renews from now (NaN would make no date at all)
      const from = Math.max(nowMs, (row.expires_at && Date.parse(row.expires_at)) || 0);
      const expires = this.iso(from + terms.days * DAY_MS);
      const apply = async (trx: WalletTransaction) => {
        const db = trx as unknown as ServersDb;
        const changed = await db
          .updateTable('servers')
          .set({ expires_at: expires, updated_at: this.iso(nowMs) })
          .where('id', '=', serverId)
          .where((eb) => (row.expires_at === null ? eb('expires_at', 'is', null) : eb('expires_at', '=', row.expires_at)))
          .executeTakeFirst();
        if (Number(changed.numUpdatedRows) !== 1) throw this.ctx.httpError(409, 'SERVER_BUSY', 'This server changed meanwhile; try again.');
      };
      let replayed = false;
      if (terms.cost > 0) {
        const result = await this.ctx.wallet.debit({
          userId,
          amount: terms.cost,
          kind: 'servers.renew',
          reference: `server:${serverId}`,
          idempotencyKey: `servers.renew:${userId}:${key}`,
          reason: `Renewal of ${row.name}`,
          effect: apply,
        });
        replayed = result.replayed;
        if (replayed && result.entry.reference !== `server:${serverId}`)
          throw this.ctx.httpError(409, 'IDEMPOTENCY_CONFLICT', 'This idempotency key was used for another renewal.', 'idempotency_key');
      } else {
        await this.db.transaction().execute((trx) => apply(trx as unknown as WalletTransaction));
      }
      await this.liftExpirySuspension(serverId).catch((error) =>
        this.ctx.log.warn({ err: error, server: serverId }, 'servers: unsuspend after renewal failed; the renewal job retries'),
      );
      return { row: (await this.find(serverId))!, replayed };
    });
  }

  /** A server suspended for expiry whose expiry now lies ahead is unsuspended (panel first). */
  async liftExpirySuspension(serverId: number): Promise<boolean> {
    const row = await this.find(serverId);
    if (!row || row.status !== 'suspended' || row.suspended_reason !== 'expired') return false;
    if (row.expires_at !== null && Date.parse(row.expires_at) <= this.ctx.clock.now()) return false;
    await this.ctx.pterodactyl.servers.unsuspend(row.panel_id);
    await this.db
      .updateTable('servers')
      .set({ status: 'active', suspended_reason: null, suspended_at: null, updated_at: this.iso() })
      .where('id', '=', serverId)
      .where('status', '=', 'suspended')
      .execute();
    return true;
  }

  /** Panel first (a server the panel no longer has counts as gone), then here; frees its resources. */
  async remove(serverId: number, userId: number | null): Promise<ServerRow> {
    await this.owned(serverId, userId);
    return this.exclusively(serverId, async () => {
      const row = await this.owned(serverId, userId);
      await this.removeHeld(row);
      return row;
    });
  }

  /** Deletes a server whose lease the caller holds. */
  async removeHeld(row: ServerRow): Promise<void> {
    try {
      await this.ctx.pterodactyl.servers.delete(row.panel_id);
    } catch (error) {
      if (!(isPanelError(error) && error.code === 'PANEL_NOT_FOUND')) throw this.panelFailed(error, 'delete the server');
    }
    await this.db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('servers').where('id', '=', row.id).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 1) await this.ctx.counters.add(row.user_id, SERVERS_COUNTER, -1, trx as unknown as WalletTransaction);
    });
  }

  async suspend(serverId: number, reason: 'admin' | 'expired'): Promise<ServerRow> {
    return this.exclusively(serverId, async () => this.suspendHeld(await this.owned(serverId, null), reason));
  }

  async suspendHeld(row: ServerRow, reason: 'admin' | 'expired'): Promise<ServerRow> {
    try {
      await this.ctx.pterodactyl.servers.suspend(row.panel_id);
    } catch (error) {
      throw this.panelFailed(error, 'suspend the server');
    }
    const now = this.iso();
    await this.db
      .updateTable('servers')
      .set({ status: 'suspended', suspended_reason: reason, suspended_at: row.suspended_at ?? now, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    return (await this.find(row.id))!;
  }

  /** An administrator lifts a suspension (an expired server is suspended again by the next renewal pass). */
  async unsuspend(serverId: number): Promise<ServerRow> {
    return this.exclusively(serverId, async () => {
      const row = await this.owned(serverId, null);
      try {
        await this.ctx.pterodactyl.servers.unsuspend(row.panel_id);
      } catch (error) {
        throw this.panelFailed(error, 'unsuspend the server');
      }
      await this.db.updateTable('servers').set({ status: 'active', suspended_reason: null, suspended_at: null, updated_at: this.iso() }).where('id', '=', serverId).execute();
      return (await this.find(serverId))!;
    });
  }
}
