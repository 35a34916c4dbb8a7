// Uploads and downloads of archives run as transfers beside the requests, one at a time across every
// instance of the panel: a transfer holds the plugin's `transfer` lease from start to end, so a second
// one — a click on another instance, the automatic upload after a scheduled backup — is refused
// while it runs. The request that starts one answers at once; the screen follows it by its id.
//
// A transfer's state lives in memory and is published on the plugin's broadcast channel at each
// change (progress at most a few times a second), so whichever instance a poll lands on knows it.
// Not in a table: a restore replaces every table, and an archive taken mid-transfer would bring a
// "running" row back to life. A running transfer is published again every RENEW_EVERY_MS; one not
// heard of for STALE_AFTER_MS (its instance stopped) is shown as interrupted.
import { randomUUID } from 'node:crypto';
import type { BroadcastValue, Lease, ServerPluginContext } from '@orepanel/sdk/server';
import { TRANSFER_DIRECTIONS, TRANSFER_STATES, type Transfer, type TransferDirection } from '../shared/wire';

const LEASE = 'transfer';
const LEASE_TTL_MS = 120_000;
const RENEW_EVERY_MS = 30_000;
const STALE_AFTER_MS = 3 * 60_000;
const PUBLISH_EVERY_MS = 400;
const KEEP_FINISHED = 20;
const CHANNEL = 'transfers';

export interface TransferSpec {
  direction: TransferDirection;
  name: string;
  startedBy: string | null;
}

export interface TransferWork {
  /** moves the bytes; `progress(done, total)` as they go */
  run(progress: (done: number, total: number) => void): Promise<void>;
  /** once the bytes are moved or failed, before the end is published: the audit log, retention */
  after?(transfer: Transfer): Promise<void>;
}

interface Entry {
  transfer: Transfer;
  seq: number;
  /** when this instance last heard of it (clock ms) */
  heardAt: number;
}

/** The API error a failed transfer reports: the coded errors the work throws, one plain message for the rest. */
export function transferError(error: unknown): { code: string; message: string } {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  // a coded error of ours or the archive engine's (not a Node.js system error such as ENOENT, whose words name paths)
  if (error instanceof Error && typeof code === 'string' && /^(CLOUD|BACKUP)_[A-Z0-9_]+$/.test(code)) return { code, message: error.message };
  return { code: 'CLOUD_TRANSFER_FAILED', message: 'The transfer failed; the server log has the details. Nothing was removed.' };
}

function isTransfer(value: unknown): value is Transfer {
  if (!value || typeof value !== 'object') return false;
  const t = value as Partial<Record<keyof Transfer, unknown>>;
  return (
    typeof t.id === 'string' &&
    typeof t.name === 'string' &&
    (TRANSFER_DIRECTIONS as readonly unknown[]).includes(t.direction) &&
    (TRANSFER_STATES as readonly unknown[]).includes(t.state) &&
    typeof t.done === 'number' &&
    typeof t.total === 'number' &&
    typeof t.started_at === 'string'
  );
}

export class Transfers {
  private readonly entries = new Map<string, Entry>();
  private readonly runs = new Map<string, Promise<void>>();

  constructor(private readonly ctx: ServerPluginContext) {}

  /** Hears the transfers of the other instances. */
  async listen(): Promise<void> {
    await this.ctx.broadcast.subscribe(CHANNEL, (message) => {
      if (!message || typeof message !== 'object' || Array.isArray(message)) return;
      const { seq, transfer } = message as { seq?: unknown; transfer?: unknown };
      if (typeof seq === 'number' && isTransfer(transfer)) this.keep(transfer, seq);
    });
  }

  private keep(transfer: Transfer, seq: number): void {
    const known = this.entries.get(transfer.id);
    if (known && known.seq > seq) return;
    this.entries.set(transfer.id, { transfer, seq, heardAt: this.ctx.clock.now() });
    const finished = [...this.entries.values()].filter((e) => e.transfer.state !== 'running').sort((a, b) => (a.transfer.started_at < b.transfer.started_at ? 1 : -1));
    for (const entry of finished.slice(KEEP_FINISHED)) this.entries.delete(entry.transfer.id);
  }

  private publish(entry: Entry): void {
    this.keep({ ...entry.transfer }, entry.seq);
    void this.ctx.broadcast.publish(CHANNEL, { seq: entry.seq, transfer: { ...entry.transfer } as unknown as BroadcastValue }).catch(() => undefined);
  }

  /** A running transfer nobody has heard of for a while: its instance stopped. */
  private view(entry: Entry): Transfer {
    if (entry.transfer.state === 'running' && !this.runs.has(entry.transfer.id) && this.ctx.clock.now() - entry.heardAt > STALE_AFTER_MS) {
      return {
        ...entry.transfer,
        state: 'failed',
        error: { code: 'CLOUD_TRANSFER_INTERRUPTED', message: 'The panel instance doing this transfer stopped before it ended. Start it again.' },
      };
    }
    return { ...entry.transfer };
  }

  get(id: string): Transfer | null {
    const entry = this.entries.get(id);
    return entry ? this.view(entry) : null;
  }

  /** the running transfer, else the one that ended last */
  current(): Transfer | null {
    const all = [...this.entries.values()].map((entry) => this.view(entry));
    const running = all.find((t) => t.state === 'running');
    if (running) return running;
    return all.sort((a, b) => ((a.finished_at ?? a.started_at) < (b.finished_at ?? b.started_at) ? 1 : -1))[0] ?? null;
  }

  /** Resolves when this instance's run of transfer `id` has ended (at once for an unknown one). */
  settled(id: string): Promise<void> {
    return this.runs.get(id) ?? Promise.resolve();
  }

  /** every run of this instance, ended (tests, and the panel stopping) */
  async idle(): Promise<void> {
    await Promise.all([...this.runs.values()]);
  }

  /**
   * Starts `work` when no transfer runs on any instance; null when one does. The transfer is
   * published before this resolves, so a poll right after the answer finds it.
   */
  async start(spec: TransferSpec, work: TransferWork): Promise<Transfer | null> {
    const lease = await this.ctx.leases.acquire(LEASE, LEASE_TTL_MS);
    if (!lease) return null;
    const entry: Entry = {
      seq: 1,
      heardAt: this.ctx.clock.now(),
      transfer: {
        id: randomUUID(),
        direction: spec.direction,
        name: spec.name,
        state: 'running',
        done: 0,
        total: 0,
        started_by: spec.startedBy,
        started_at: new Date(this.ctx.clock.now()).toISOString(),
        finished_at: null,
        error: null,
      },
    };
    this.publish(entry);
    const run = this.run(entry, lease, work).finally(() => this.runs.delete(entry.transfer.id));
    this.runs.set(entry.transfer.id, run);
    return { ...entry.transfer };
  }

  private async run(entry: Entry, lease: Lease, work: TransferWork): Promise<void> {
    let publishedAt = 0;
    let stopRenewing = false;
    let cancelTimer: (() => void) | null = null;
    // keeps the lease and tells the other instances the transfer is alive
    const renew = () => {
      cancelTimer = this.ctx.clock.setTimeout(() => {
        if (stopRenewing) return;
        void lease.renew().catch(() => false);
        entry.seq += 1;
        this.publish(entry);
        renew();
      }, RENEW_EVERY_MS);
    };
    renew();
    try {
      await work.run((done, total) => {
        entry.transfer.done = done;
        entry.transfer.total = total;
        const now = this.ctx.clock.now();
        if (now - publishedAt >= PUBLISH_EVERY_MS) {
          publishedAt = now;
          entry.seq += 1;
          this.publish(entry);
        }
      });
      entry.transfer.state = 'done';
    } catch (error) {
      entry.transfer.state = 'failed';
      entry.transfer.error = transferError(error);
      this.ctx.log.warn({ err: error, transfer: entry.transfer.id, direction: entry.transfer.direction, name: entry.transfer.name }, 'backups-cloud: a transfer failed');
    }
    // before the end is published: a poll that sees the transfer ended sees what follows it too
    entry.transfer.finished_at = new Date(this.ctx.clock.now()).toISOString();
    try {
      await work.after?.({ ...entry.transfer });
    } catch (error) {
      this.ctx.log.error({ err: error, transfer: entry.transfer.id }, 'backups-cloud: what follows a transfer failed');
    } finally {
      stopRenewing = true;
      (cancelTimer as (() => void) | null)?.();
      entry.seq += 1;
      this.publish(entry);
      await lease.release().catch(() => undefined);
    }
  }
}
