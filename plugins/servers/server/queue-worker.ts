// The queue worker (job servers.queue, every minute and kicked after each create): builds pending
// entries on the panel. The panel server carries external_id orepanel-queue-<entry id>, which makes
// creation safe to retry: after any failure that may have taken effect (a timeout, a reset, a 5xx)
// or a worker that died mid-build, the panel is asked for that id before anything is created again
// (reference behaviour: reconcile by external_id before retrying or refunding). One entry is worked
// by one worker: it holds the entry's lease and moves it pending → building with a conditional UPDATE.
import {
  insertedId,
  isPanelError,
  storedCount,
  type CreatePanelServer,
  type PanelEgg,
  type PanelServer,
  type ServerPluginContext,
  type WalletTransaction,
} from '@orepanel/sdk/server';
import type { ServerCatalog } from '../../server-catalog/contract';
import type { ServerResources } from '../shared/api';
import { storedResources } from './account-resources';
import { readRenewal, type QueueRow } from './server-views';
import type { ServerQueue } from './server-queue';
import type { ServersDb } from './tables';

export const QUEUE_JOB = 'queue';
export const SERVERS_COUNTER = 'servers';
const DAY_MS = 86_400_000;
const ENTRY_LEASE_MS = 5 * 60_000;
/** entries looked at per run; the rest wait for the next minute (or the next kick) */
const BATCH = 20;
const BACKOFF_BASE_MS = 60_000;
const BACKOFF_MAX_MS = 60 * 60_000;

export function externalIdOf(entryId: number): string {
  return `orepanel-queue-${entryId}`;
}

/** 1, 2, 4 … minutes after the n-th failed attempt, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/** Egg variable defaults, overridden by nothing: the panel validates every variable but fills none. */
export function environmentOf(egg: PanelEgg): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const variable of egg.variables ?? []) environment[variable.env_variable] = variable.default_value ?? '';
  return environment;
}

class PermanentFailure extends Error {}

/** How many attempts an entry has had (an unreadable count as none: the limit still ends it). */
const attemptsOf = (entry: QueueRow): number => storedCount(entry.attempts) ?? 0;

type Outcome = 'completed' | 'reconciled' | 'retry' | 'failed';

export class QueueWorker {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly db: ServersDb,
    private readonly queue: ServerQueue,
    private readonly catalog: () => ServerCatalog,
  ) {}

  private iso(ms = this.ctx.clock.now()): string {
    return new Date(ms).toISOString();
  }

  /** One pass over the due entries; the message goes to the health page. */
  async run(): Promise<string> {
    if (!(await this.ctx.pterodactyl.configured())) return 'the panel is not configured: nothing built';
    const now = this.iso();
    const due = await this.db
      .selectFrom('server_queue')
      .select(['id', 'status'])
      .where((eb) => eb.or([eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]), eb('status', '=', 'building')]))
      .orderBy('id')
      .limit(BATCH)
      .execute();
    const counts: Record<Outcome, number> = { completed: 0, reconciled: 0, retry: 0, failed: 0 };
    for (const candidate of due) {
      const outcome = await this.work(candidate.id, candidate.status === 'building');
      if (outcome) counts[outcome]++;
    }
    return `built ${counts.completed}, reconciled ${counts.reconciled}, to retry ${counts.retry}, failed ${counts.failed}`;
  }

  /** Claims and builds one entry; null when another worker has it or it is no longer due. */
  async work(entryId: number, orphan: boolean): Promise<Outcome | null> {
    const lease = await this.ctx.leases.acquire(`queue-entry:${entryId}`, ENTRY_LEASE_MS);
    // another worker holds it: it is building the entry right now
    if (!lease) return null;
    try {
      const now = this.iso();
      // a building entry whose lease we got lost its worker mid-build: take it over (and reconcile)
      const claim = orphan
        ? this.db
            .updateTable('server_queue')
            .set((eb) => ({ attempts: eb('attempts', '+', 1), updated_at: now }))
            .where('id', '=', entryId)
            .where('status', '=', 'building')
        : this.db
            .updateTable('server_queue')
            .set((eb) => ({ status: 'building', attempts: eb('attempts', '+', 1), updated_at: now }))
            .where('id', '=', entryId)
            .where('status', '=', 'pending')
            .where('next_attempt_at', '<=', now);
      if (Number((await claim.executeTakeFirst()).numUpdatedRows) !== 1) return null;
      // (its owner's account may have gone meanwhile, taking the entry with it)
      const entry = await this.queue.find(entryId);
      return entry ? await this.build(entry, orphan) : null;
    } finally {
      await lease.release();
    }
  }

  private async build(entry: QueueRow, orphan: boolean): Promise<Outcome> {
    const panel = this.ctx.pterodactyl;
    const externalId = externalIdOf(entry.id);
    const attempt = attemptsOf(entry);
    // what the entry asks for is checked before the panel hears of it: an unreadable amount (written
    // past the API) is never sent — JSON would turn ±Infinity into null, which the panel takes as 0
    const stored = storedResources(entry);
    if (stored.broken.length > 0) {
      this.ctx.log.warn({ entry: entry.id, fields: stored.broken }, 'server queue: an entry holds unreadable resources; failed without building');
      return this.fail(entry, `The entry's stored ${stored.broken.join(', ')} cannot be read; nothing was built.`);
    }
    try {
      // an earlier attempt may have created it without our hearing back
      if (attempt > 1 || orphan) {
        const found = await panel.servers.findByExternalId(externalId);
        if (found) return await this.complete(entry, found, 'reconciled');
      }
      const input = await this.creation(entry, stored.resources, externalId);
      const created = await panel.servers.create(input);
      return await this.complete(entry, created, 'completed');
    } catch (error) {
      if (error instanceof PermanentFailure) return this.fail(entry, error.message);
      if (isPanelError(error)) {
        // a second create of the same external id is refused by the panel: the first one got there
        if (error.uncertain || (error.code === 'PANEL_VALIDATION' && error.field === 'external_id')) {
          const found = await panel.servers.findByExternalId(externalId).catch(() => undefined);
          if (found) return this.complete(entry, found, 'reconciled');
          if (found === undefined) return this.retry(entry, `${error.detail || error.message} (the panel could not be asked whether it was created; asking again next time)`, true);
          return this.retry(entry, error.detail || error.message, false);
        }
        if (error.transient) return this.retry(entry, error.detail || error.message, false);
        return this.fail(entry, error.detail || error.message);
      }
      // our own side failed (e.g. the database after the panel created it): the next attempt reconciles
      this.ctx.log.error({ err: error, entry: entry.id }, 'server queue: attempt failed');
      return this.retry(entry, error instanceof Error ? error.message : String(error), true);
    }
  }

  private async creation(entry: QueueRow, resources: ServerResources, externalId: string): Promise<CreatePanelServer> {
    // a server made now must get its expiry; while the renewal settings cannot be read, wait for them
    if ((await readRenewal(this.ctx)).unreadable) throw new Error('The renewal settings cannot be read; the server is built once they are mended.');
    const catalog = this.catalog();
    const location = await catalog.location(entry.location_id);
    if (!location || !location.enabled) throw new PermanentFailure('The location no longer exists or was disabled.');
    const egg = await catalog.egg(entry.egg_id);
    if (!egg || !egg.enabled) throw new PermanentFailure('The egg no longer exists or was disabled.');
    const account = await this.ctx.pterodactyl.accountFor(entry.user_id);
    const panelEgg = await this.ctx.pterodactyl.nests.egg(egg.panelNestId, egg.panelEggId);
    const image = panelEgg.docker_image || Object.values(panelEgg.docker_images ?? {})[0];
    if (!image) throw new PermanentFailure(`The panel's egg ${panelEgg.name} has no docker image.`);
    return {
      name: entry.name,
      external_id: externalId,
      description: entry.description,
      user: account.id,
      egg: panelEgg.id,
      docker_image: image,
      startup: panelEgg.startup,
      environment: environmentOf(panelEgg),
      limits: { memory: resources.ram, swap: 0, disk: resources.disk, io: 500, cpu: resources.cpu },
      feature_limits: { databases: resources.databases, backups: resources.backups, allocations: resources.ports },
      deploy: { locations: [location.panelLocationId], dedicated_ip: false, port_range: [] },
      start_on_completion: true,
    };
  }

  /** The panel has the server: the entry becomes a servers row, once (unique queue_entry_id, panel_id). */
  private async complete(entry: QueueRow, server: PanelServer, outcome: 'completed' | 'reconciled'): Promise<Outcome> {
    const renewal = (await readRenewal(this.ctx)).terms;
    const nowMs = this.ctx.clock.now();
    const now = this.iso(nowMs);
    await this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('server_queue')
        .set({ status: 'completed', last_error: null, updated_at: now })
        .where('id', '=', entry.id)
        .where('status', '=', 'building')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new Error(`queue entry ${entry.id} is no longer building`);
      const values = {
        user_id: entry.user_id,
        queue_entry_id: entry.id,
        panel_id: server.id,
        identifier: server.identifier,
        name: entry.name,
        description: entry.description,
        location_id: entry.location_id,
        egg_id: entry.egg_id,
        ram: entry.ram,
        disk: entry.disk,
        cpu: entry.cpu,
        ports: entry.ports,
        databases: entry.databases,
        backups: entry.backups,
        status: 'active' as const,
        suspended_reason: null,
        suspended_at: null,
        expires_at: renewal.enabled ? this.iso(nowMs + renewal.days * DAY_MS) : null,
        reminded_for: null,
        created_at: now,
        updated_at: now,
      };
      const serverId = await insertedId(this.ctx.dialect, trx.insertInto('servers').values(values));
      await trx.updateTable('server_queue').set({ server_id: serverId }).where('id', '=', entry.id).execute();
      await this.ctx.counters.add(entry.user_id, SERVERS_COUNTER, 1, trx as unknown as WalletTransaction);
      const message =
        outcome === 'reconciled'
          ? `The panel already had server ${server.identifier} (id ${server.id}) from an earlier attempt.`
          : `Created server ${server.identifier} (id ${server.id}).`;
      await this.queue.log(entry.id, attemptsOf(entry), outcome, message, trx);
    });
    return outcome;
  }

  private async retry(entry: QueueRow, message: string, uncertain: boolean): Promise<Outcome> {
    const attempt = attemptsOf(entry);
    const max = Number((await this.ctx.settings.get('server_queue_max_attempts')) ?? 10);
    // giving up frees the reservation: only once the panel has said it does not have the server
    if (attempt >= max && !uncertain) return this.fail(entry, `${message} (gave up after ${attempt} attempts)`);
    const next = this.iso(this.ctx.clock.now() + backoffMs(attempt));
    await this.db
      .updateTable('server_queue')
      .set({ status: 'pending', next_attempt_at: next, last_error: message.slice(0, 1000), updated_at: this.iso() })
      .where('id', '=', entry.id)
      .where('status', '=', 'building')
      .execute();
    await this.queue.log(entry.id, attempt, 'retry', `${message} — next attempt at ${next}`);
    return 'retry';
  }

  private async fail(entry: QueueRow, message: string): Promise<Outcome> {
    await this.db
      .updateTable('server_queue')
      .set({ status: 'failed', last_error: message.slice(0, 1000), updated_at: this.iso() })
      .where('id', '=', entry.id)
      .where('status', '=', 'building')
      .execute();
    await this.queue.log(entry.id, attemptsOf(entry), 'failed', message);
    return 'failed';
  }
}
