// While a restore replaces the panel's database, every other part of the panel keeps its hands off it.
//
// Why: on MariaDB a restore cannot be one transaction (DDL commits as it goes), so whatever reads or
// writes meanwhile meets tables halfway rebuilt. A settings reload set off by the cache counters, for
// one, wrote the defaults into an emptied settings table and broke the put-back of a failed restore;
// a purchase made then would be lost the same way. On SQLite and PostgreSQL the same requests would
// only wait on the restore's locks, and then read what they waited for.
//
// While the hold is on, here and (through the broadcast bus) on the other instances:
// - /api answers 503 PANEL_RESTORING at once, and /readyz is not ready (balancers and jobs wait);
// - the parts that joined it start no work: the cache counters are not read, scheduled jobs do not
//   start (each reads `active` first);
// - it begins once the API requests under way have ended (or DRAIN_MS passed), so none of them
//   writes into the middle of it.
// Another instance keeps a hold it heard of for HOLD_TTL_MS after the last renewal: an instance that
// died holding it does not keep the cluster answering 503.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { BroadcastBus } from '../realtime/broadcast';
import { within } from '../within';

/** how long a hold waits for the requests under way before it begins anyway */
export const DRAIN_MS = 10_000;
/** a hold heard from another instance lapses this long after its last renewal */
export const HOLD_TTL_MS = 30_000;
const RENEW_MS = 10_000;
const CHANNEL = 'core:database.hold';

export class DatabaseHold {
  private readonly instance = randomBytes(9).toString('base64url');
  private depth = 0;
  private heldElsewhereUntil = 0;
  /** each resolves once its part's work under way has ended (each part starts none while the hold is active) */
  private readonly settlers: (() => Promise<void>)[] = [];
  private inFlight = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly options: {
      bus: BroadcastBus;
      log: FastifyBaseLogger;
      drainMs?: number;
      /** the clock of the remote hold's lapse (tests move it) */
      now?: () => number;
    },
  ) {}

  /** True while this instance or another replaces the database. */
  get active(): boolean {
    return this.depth > 0 || this.heldElsewhereUntil > this.now();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.options.bus.subscribe(CHANNEL, (text) => this.heard(text));
  }

  close(): void {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    try {
      unsubscribe?.();
    } catch {
      /* the bus is closed already */
    }
  }

  /** A part of the panel that reads `active` before it starts work: the hold begins once `settled()` resolves. */
  join(settled: () => Promise<void>): void {
    this.settlers.push(settled);
  }

  /** An API request begins; the function returned ends it (once, however often it is called). */
  requestStarted(): () => void {
    this.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    };
  }

  /** Runs `work` with the panel held still (see the top of this file). Holds nest. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.depth++;
    let renewal: NodeJS.Timeout | null = null;
    try {
      if (this.depth === 1) {
        await this.announce(true);
        renewal = setInterval(() => void this.announce(true), RENEW_MS);
        renewal.unref();
        await this.settled();
      }
      return await work();
    } finally {
      if (renewal) clearInterval(renewal);
      this.depth--;
      if (this.depth === 0) await this.announce(false);
    }
  }

  /**
   * Resolves once the parts that joined have no work under way and no API request is under way, or
   * after DRAIN_MS (a job waiting for the very restore that holds would otherwise wait for ever).
   */
  private async settled(): Promise<void> {
    const idle = this.inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    const drainMs = this.options.drainMs ?? DRAIN_MS;
    const quiet = Promise.all([...this.settlers.map((settled) => settled()), idle]).then(() => true);
    if (!(await within(quiet, drainMs, false))) {
      this.options.log.warn({ requests: this.inFlight }, `the database hold begins with work still under way after ${drainMs} ms`);
    }
  }

  private async announce(holding: boolean): Promise<void> {
    try {
      await this.options.bus.publish(CHANNEL, JSON.stringify({ from: this.instance, holding }));
    } catch (error) {
      // the hold here goes on: the other instances' own refresh catches up after the restore
      this.options.log.warn({ err: error, holding }, 'telling the other instances about the database hold failed');
    }
  }

  private heard(text: string): void {
    let message: { from?: unknown; holding?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.from === this.instance || typeof message.holding !== 'boolean') return;
    this.heldElsewhereUntil = message.holding ? this.now() + HOLD_TTL_MS : 0;
  }
}
