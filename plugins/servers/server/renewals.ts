// The renewal pass (job servers.renewals, daily): a reminder mail once per period when at most
// server_reminder_days are left; at expires_at the server is suspended on the panel (mail); once
// server_delete_grace_days have passed since expires_at it is deleted, panel first (mail). All times
// are measured from expires_at, not from when the pass happened to run, so a late run never moves
// the schedule (reference: the off-by-one that suspended a day early, or never deleted). A server
// renewed while suspended for expiry whose unsuspend failed is unsuspended here.
import { storedCount, type ServerPluginContext } from '@orepanel/sdk/server';
import { DAY_MS, type HostedServers } from './hosted-servers';
import { readRenewal, type ServerRow } from './server-views';
import type { ServersDb } from './tables';

export const RENEWALS_JOB = 'renewals';
const PASS_LEASE_MS = 30 * 60_000;

export class Renewals {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly db: ServersDb,
    private readonly servers: HostedServers,
  ) {}

  private iso(ms: number): string {
    return new Date(ms).toISOString();
  }

  async run(): Promise<string> {
    const { terms, unreadable } = await readRenewal(this.ctx);
    // nobody can renew while the terms cannot be read: suspending or deleting for expiry would be unfair
    if (unreadable) return 'the renewal settings cannot be read: nothing done';
    // with renewals off nobody can renew: nothing expires
    if (!terms.enabled) return 'renewals are off';
    if (!(await this.ctx.pterodactyl.configured())) return 'the panel is not configured';
    const lease = await this.ctx.leases.acquire('renewals-pass', PASS_LEASE_MS);
    if (!lease) return 'another instance is running the renewal pass';
    try {
      const s = await this.ctx.settings.getMany(['server_reminder_days', 'server_delete_grace_days']);
      // a day count that is not a whole number of days (at most ten years) takes its default
      const reminderDays = storedCount(s.server_reminder_days ?? 7, 3650) ?? 7;
      const graceDays = storedCount(s.server_delete_grace_days ?? 7, 3650) ?? 7;
      const nowMs = this.ctx.clock.now();
      const now = this.iso(nowMs);
      const done = { unsuspended: 0, suspended: 0, deleted: 0, reminded: 0, failed: 0 };
      const each = async (rows: ServerRow[], act: (row: ServerRow) => Promise<boolean>) => {
        for (const row of rows) {
          try {
            if (await this.servers.exclusively(row.id, () => act(row))) continue;
          } catch (error) {
            done.failed++;
            this.ctx.log.warn({ err: error, server: row.id }, 'servers: renewal pass could not handle a server');
          }
        }
      };
      const fresh = (id: number) => this.servers.find(id);

      const renewed = await this.db
        .selectFrom('servers')
        .selectAll()
        .where('status', '=', 'suspended')
        .where('suspended_reason', '=', 'expired')
        .where('expires_at', '>', now)
        .execute();
      await each(renewed, async (row) => {
        if (await this.servers.liftExpirySuspension(row.id)) done.unsuspended++;
        return true;
      });

      const expired = await this.db.selectFrom('servers').selectAll().where('status', '=', 'active').where('expires_at', 'is not', null).where('expires_at', '<=', now).execute();
      await each(expired, async (row) => {
        const current = await fresh(row.id);
        if (!current || current.status !== 'active' || current.expires_at === null || current.expires_at > now) return true;
        await this.servers.suspendHeld(current, 'expired');
        done.suspended++;
        await this.mail(current, 'server_suspended', { expires_at: current.expires_at });
        return true;
      });

      const deleteBefore = this.iso(nowMs - graceDays * DAY_MS);
      const overdue = await this.db
        .selectFrom('servers')
        .selectAll()
        .where('status', '=', 'suspended')
        .where('expires_at', 'is not', null)
        .where('expires_at', '<=', deleteBefore)
        .execute();
      await each(overdue, async (row) => {
        const current = await fresh(row.id);
        if (!current || current.status !== 'suspended' || current.expires_at === null || current.expires_at > deleteBefore) return true;
        await this.servers.removeHeld(current);
        done.deleted++;
        await this.mail(current, 'server_deleted', {});
        return true;
      });

      const remindBefore = this.iso(nowMs + reminderDays * DAY_MS);
      const soon = await this.db
        .selectFrom('servers')
        .selectAll()
        .where('status', '=', 'active')
        .where('expires_at', '>', now)
        .where('expires_at', '<=', remindBefore)
        .where((eb) => eb.or([eb('reminded_for', 'is', null), eb('reminded_for', '!=', eb.ref('expires_at'))]))
        .execute();
      for (const row of soon) {
        // one reminder per expiry: marked first, so two passes cannot both mail it
        const marked = await this.db
          .updateTable('servers')
          .set({ reminded_for: row.expires_at })
          .where('id', '=', row.id)
          .where('expires_at', '=', row.expires_at)
          .where((eb) => eb.or([eb('reminded_for', 'is', null), eb('reminded_for', '!=', row.expires_at)]))
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) !== 1) continue;
        const daysLeft = Math.ceil((Date.parse(row.expires_at!) - nowMs) / DAY_MS);
        await this.mail(row, 'server_renewal_reminder', { expires_at: row.expires_at!, days_left: daysLeft });
        done.reminded++;
      }
      return `reminded ${done.reminded}, suspended ${done.suspended}, deleted ${done.deleted}, unsuspended ${done.unsuspended}, failed ${done.failed}`;
    } finally {
      await lease.release();
    }
  }

  private async mail(row: ServerRow, template: string, extra: Record<string, string | number>): Promise<void> {
    const user = await this.ctx.accounts.contact(row.user_id);
    if (!user) return;
    const base = (this.ctx.config.appUrl ?? String((await this.ctx.settings.get('app_url')) ?? '')).replace(/\/+$/, '');
    try {
      await this.ctx.mail.send({
        to: user.email,
        template,
        placeholders: {
          first_name: user.firstName,
          last_name: user.lastName,
          username: user.username,
          email: user.email,
          server_name: row.name,
          link: `${base}/server/${row.id}/renew`,
          ...extra,
        },
      });
    } catch (error) {
      this.ctx.log.warn({ err: error, template }, 'servers: renewal mail not queued');
    }
  }
}
