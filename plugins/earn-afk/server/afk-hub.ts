// The AFK sockets of this instance. Each socket's events (its messages, the ticks, its close) run
// one at a time in arrival order on its own queue, and a socket settles the minutes that ended
// before applying anything newer — so what it is paid for depends only on what the server observed,
// in order. One paying socket per user across tabs AND instances: the socket that holds the
// ctx.leases lease `user:<uuid>` (Redis or the database) earns; the others wait on standby. A newer
// tab does not take the lease by itself (two visible tabs would otherwise steal it from each other
// and neither would ever complete a minute); it waits, and takes it when the holder hides, stops
// heart-beating or closes — or at once when the user presses "earn here instead" (takeover).
// Even if two sockets ever believed they held the lease, the wallet's idempotency key per
// (user, UTC minute) pays a minute once.
import type { FastifyRequest } from 'fastify';
import type { Lease, PluginWebSocket, ServerPluginContext } from '@orepanel/sdk/server';
import { AFK_CLOSE, MINUTE_MS, parseClientMessage, type AfkClientMessage, type AfkStateMessage, type AfkStatus } from '../shared/protocol';
import { LiveStretch } from './live-stretch';
import { dayOf, minuteOf, type AfkPayouts, type AfkRates } from './payouts';

/** the hub looks at every socket this often: settle ended minutes, renew or release leases */
export const TICK_MS = 20_000;
/** a lease outlives two missed ticks, so a busy instance does not lose it by accident */
export const LEASE_TTL_MS = 60_000;
/**
 * Sockets reviewed per turn of the event loop. On SQLite every query completes synchronously, so
 * reviewing 10,000 sockets in one go would run as one long chain of microtasks and hold back the
 * heartbeats of every socket for seconds (they would arrive "late" and break their stretches).
 */
const REVIEW_BATCH = 50;
/** per user and instance: enough for every tab anyone keeps open, not enough to exhaust memory */
const MAX_SOCKETS_PER_USER = 8;
const MESSAGE_WINDOW_MS = 10_000;
const MAX_MESSAGES_PER_WINDOW = 30;
/**
 * Transport keep-alive (ws ping/pong, answered by the browser even in a hidden tab) on real time:
 * it finds dead TCP connections and has nothing to do with what is paid.
 */
const KEEPALIVE_MS = 30_000;

const OPEN = 1;

class AfkConnection {
  userId = 0;
  /** the lease is named by uuid: unique even across panels that share one Redis */
  userUuid = '';
  sessionId = 0;
  handled = 0;
  ready = false;
  gone = false;
  readonly stretch = new LiveStretch();
  lease: Lease | null = null;
  renewedAt = 0;
  /** minutes up to this one are decided (paid or not) */
  settledThrough = 0;
  minutes = 0;
  coins = 0;
  lastPayout: { minute: string; coins: number } | null = null;
  rates: AfkRates = { rate: 1, dailyCap: 1 };
  today = { day: -1, earned: 0 };
  lastSentStatus: AfkStatus | null = null;
  alive = true;
  windowStart = 0;
  windowCount = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly socket: PluginWebSocket,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Runs `job` after everything queued before it; a failing job is logged and the queue goes on. */
  run(job: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(() => (this.gone ? undefined : job())).catch(this.onError);
    return this.queue;
  }

  settled(): Promise<void> {
    return this.queue;
  }
}

export class AfkHub {
  private readonly connections = new Set<AfkConnection>();
  private readonly byUser = new Map<number, Set<AfkConnection>>();
  private cancelTick: (() => void) | null = null;
  private reviewing = false;
  private reviewAgain = false;
  private readonly keepalive: NodeJS.Timeout;
  private readonly unsubscribe: Array<() => void> = [];
  private stopped = false;

  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly payouts: AfkPayouts,
  ) {
    this.scheduleTick();
    this.keepalive = setInterval(() => this.checkAlive(), KEEPALIVE_MS);
    this.keepalive.unref();
    this.unsubscribe.push(
      ctx.events.on('session.ended', ({ sessionId }) => this.closeWhere((c) => c.sessionId === sessionId, AFK_CLOSE.SESSION_ENDED, 'session ended')),
      ctx.events.on('user.deleted', ({ userId }) => this.closeWhere((c) => c.userId === userId, AFK_CLOSE.SESSION_ENDED, 'account deleted')),
      ctx.events.on('plugin.state', ({ id, enabled }) => {
        if (id === ctx.id && !enabled) this.closeWhere(() => true, AFK_CLOSE.FEATURE_DISABLED, 'AFK is turned off');
      }),
    );
  }

  /** A socket the route accepted (session, origin and flag already checked). Listeners attach now. */
  open(socket: PluginWebSocket, request: FastifyRequest): void {
    const conn = new AfkConnection(socket, (error) => this.ctx.log.error({ err: error }, 'afk socket event failed'));
    this.connections.add(conn);
    socket.on('message', (data, isBinary) => this.received(conn, isBinary ? null : String(data)));
    socket.on('pong', () => {
      conn.alive = true;
    });
    socket.on('close', () => void conn.run(() => this.closed(conn, true)));
    void conn.run(() => this.start(conn, request));
  }

  /** Settles, releases every lease and closes every socket (the panel is stopping). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTick?.();
    clearInterval(this.keepalive);
    for (const off of this.unsubscribe) off();
    await Promise.all(
      [...this.connections].map((conn) =>
        conn.run(async () => {
          await this.closed(conn, true);
          conn.socket.close(AFK_CLOSE.GOING_AWAY, 'server restarting');
        }),
      ),
    );
  }

  // --- events ---------------------------------------------------------------------------------

  private async start(conn: AfkConnection, request: FastifyRequest): Promise<void> {
    const user = await this.ctx.auth.currentUser(request);
    if (!user) return this.refuse(conn, AFK_CLOSE.SESSION_ENDED, 'not signed in');
    const siblings = this.byUser.get(user.id) ?? new Set<AfkConnection>();
    if (siblings.size >= MAX_SOCKETS_PER_USER) return this.refuse(conn, AFK_CLOSE.TOO_MANY, 'too many AFK connections');
    conn.userId = user.id;
    conn.userUuid = user.uuid;
    conn.sessionId = user.sessionId;
    siblings.add(conn);
    this.byUser.set(user.id, siblings);
    const now = this.ctx.clock.now();
    conn.settledThrough = minuteOf(now) - 1;
    conn.rates = await this.payouts.rates();
    conn.today = { day: dayOf(now), earned: await this.payouts.earnedOn(user.id, dayOf(now)) };
    conn.ready = true;
    this.send(conn, now);
  }

  private received(conn: AfkConnection, text: string | null): void {
    const at = this.ctx.clock.now();
    if (at - conn.windowStart >= MESSAGE_WINDOW_MS) {
      conn.windowStart = at;
      conn.windowCount = 0;
    }
    if (++conn.windowCount > MAX_MESSAGES_PER_WINDOW) return void conn.run(() => this.refuse(conn, AFK_CLOSE.TOO_MANY, 'too many messages'));
    const message = text === null ? null : parseClientMessage(text);
    if (!message) return void conn.run(() => this.refuse(conn, AFK_CLOSE.PROTOCOL, 'unknown message'));
    void conn.run(() => this.handle(conn, message, at));
  }

  private async handle(conn: AfkConnection, message: AfkClientMessage, at: number): Promise<void> {
    if (!conn.ready) return;
    conn.handled++;
    await this.settle(conn, at);
    if (conn.gone) return;
    if (message.type === 'heartbeat') {
      conn.stretch.beat(at, message.visible, conn.lease !== null);
      // a hidden page gives its lease up at once: another visible tab of the user may take it
      if (!message.visible && conn.lease) await this.giveUp(conn);
      else if (message.visible && !conn.lease && !this.capped(conn, at)) await this.tryAcquire(conn, false);
    } else if (!conn.lease && conn.stretch.isLive(at) && !this.capped(conn, at)) {
      await this.tryAcquire(conn, true);
    }
    this.send(conn, at);
  }

  /** Every TICK_MS: settle ended minutes, renew, release or take leases. */
  private async review(conn: AfkConnection, at: number): Promise<void> {
    if (!conn.ready) return;
    if ((await this.ctx.settings.get('afk_enabled')) !== true) return this.refuse(conn, AFK_CLOSE.FEATURE_DISABLED, 'AFK is turned off');
    await this.settle(conn, at);
    if (conn.gone) return;
    conn.rates = await this.payouts.rates();
    if (!conn.lease || conn.today.day !== dayOf(at)) conn.today = { day: dayOf(at), earned: await this.payouts.earnedOn(conn.userId, dayOf(at)) };
    const live = conn.stretch.isLive(at);
    if (!live) conn.stretch.interrupt();
    const capped = this.capped(conn, at);
    if (conn.lease) {
      if (!live || capped) await this.giveUp(conn);
      else if (this.ctx.clock.now() - conn.renewedAt >= TICK_MS / 2) await this.renew(conn);
    } else if (live && !capped) {
      await this.tryAcquire(conn, false);
    }
    if (this.status(conn, at) !== conn.lastSentStatus) this.send(conn, at);
  }

  /** The socket is gone: `settleFirst` pays the minutes that ended while it was still open. */
  private async closed(conn: AfkConnection, settleFirst: boolean): Promise<void> {
    if (conn.gone) return;
    conn.gone = !settleFirst;
    if (conn.ready) {
      if (settleFirst) await this.settle(conn, this.ctx.clock.now());
      conn.gone = true;
      if (conn.lease) await this.giveUp(conn);
      const siblings = this.byUser.get(conn.userId);
      siblings?.delete(conn);
      if (siblings?.size === 0) this.byUser.delete(conn.userId);
    }
    conn.gone = true;
    this.connections.delete(conn);
  }

  // --- rules ----------------------------------------------------------------------------------

  /** Decides every minute that ended by `at`: pays the ones this socket observed in full. */
  private async settle(conn: AfkConnection, at: number): Promise<void> {
    const through = minuteOf(at) - 1;
    while (conn.settledThrough < through) {
      const minute = conn.settledThrough + 1;
      if (conn.lease && conn.stretch.covers(minute)) await this.pay(conn, minute);
      if (conn.gone) return;
      conn.settledThrough = minute;
      // without the lease no later minute can be covered
      if (!conn.lease) conn.settledThrough = through;
    }
  }

  private async pay(conn: AfkConnection, minute: number): Promise<void> {
    // the lease is checked right before paying: a takeover on any instance stops this socket here
    if (!(await this.renew(conn))) return;
    if (!(await this.sessionValid(conn))) return this.refuse(conn, AFK_CLOSE.SESSION_ENDED, 'session ended');
    conn.rates = await this.payouts.rates();
    const outcome = await this.payouts.payMinute(conn.userId, minute, conn.rates, conn.today);
    conn.today = { day: dayOf(minute * MINUTE_MS), earned: outcome.earnedToday };
    if (outcome.paid > 0) {
      conn.minutes++;
      conn.coins += outcome.paid;
      conn.lastPayout = { minute: new Date(minute * MINUTE_MS).toISOString(), coins: outcome.paid };
      this.send(conn, this.ctx.clock.now());
    }
  }

  private capped(conn: AfkConnection, at: number): boolean {
    return conn.today.day === dayOf(at) && conn.today.earned >= conn.rates.dailyCap;
  }

  /** The session behind the socket is still signed in, not revoked or expired, the user not banned. */
  private sessionValid(conn: AfkConnection): Promise<boolean> {
    // session expiry is the wall clock's business (sessions are stamped with it), not the AFK clock's
    return this.ctx.auth.sessionLive(conn.sessionId);
  }

  // --- the lease ------------------------------------------------------------------------------

  private async tryAcquire(conn: AfkConnection, takeover: boolean): Promise<void> {
    const lease = await this.ctx.leases.acquire(`user:${conn.userUuid}`, LEASE_TTL_MS, { takeover });
    if (!lease) return;
    if (conn.gone) return lease.release();
    conn.lease = lease;
    conn.renewedAt = this.ctx.clock.now();
    conn.stretch.leaseTaken(conn.renewedAt);
    if (!takeover) return;
    // siblings here learn at once; on other instances at their next renewal (at most TICK_MS)
    for (const sibling of this.byUser.get(conn.userId) ?? []) {
      if (sibling !== conn && sibling.lease) void sibling.run(async () => this.lost(sibling));
    }
  }

  private async renew(conn: AfkConnection): Promise<boolean> {
    if (!conn.lease) return false;
    if (await conn.lease.renew()) {
      conn.renewedAt = this.ctx.clock.now();
      return true;
    }
    this.lost(conn);
    return false;
  }

  /** Another socket (here or on another instance) holds the lease now. */
  private lost(conn: AfkConnection): void {
    if (!conn.lease) return;
    conn.lease = null;
    conn.stretch.interrupt();
    this.send(conn, this.ctx.clock.now());
  }

  /** Releases the lease and lets a live sibling of this instance take it at once. */
  private async giveUp(conn: AfkConnection): Promise<void> {
    const lease = conn.lease;
    if (!lease) return;
    conn.lease = null;
    conn.stretch.interrupt();
    await lease.release();
    for (const sibling of this.byUser.get(conn.userId) ?? []) {
      if (sibling === conn || sibling.lease || sibling.gone) continue;
      void sibling.run(async () => {
        const at = this.ctx.clock.now();
        if (!sibling.lease && sibling.stretch.isLive(at) && !this.capped(sibling, at)) {
          await this.tryAcquire(sibling, false);
          this.send(sibling, at);
        }
      });
    }
  }

  // --- sockets --------------------------------------------------------------------------------

  private status(conn: AfkConnection, at: number): AfkStatus {
    if (this.capped(conn, at)) return 'capped';
    if (!conn.stretch.isLive(at)) return 'paused';
    return conn.lease ? 'earning' : 'standby';
  }

  private send(conn: AfkConnection, at: number): void {
    if (!conn.ready || conn.socket.readyState !== OPEN) return;
    const status = this.status(conn, at);
    const earnedToday = conn.today.day === dayOf(at) ? conn.today.earned : 0;
    const message: AfkStateMessage = {
      type: 'state',
      status,
      rate: conn.rates.rate,
      dailyCap: conn.rates.dailyCap,
      earnedToday,
      remainingToday: Math.max(0, conn.rates.dailyCap - earnedToday),
      resetsAt: (dayOf(at) + 1) * 86_400_000,
      session: { minutes: conn.minutes, coins: conn.coins },
      nextPayoutAt: status === 'earning' ? conn.stretch.nextPayoutAt(at) : null,
      lastPayout: conn.lastPayout,
      handled: conn.handled,
      serverTime: at,
    };
    conn.lastSentStatus = status;
    conn.socket.send(JSON.stringify(message));
  }

  /** Ends the socket with `code`, paying nothing more (the session ended, the feature is off…). */
  private async refuse(conn: AfkConnection, code: number, reason: string): Promise<void> {
    await this.closed(conn, false);
    conn.socket.close(code, reason);
  }

  private closeWhere(match: (conn: AfkConnection) => boolean, code: number, reason: string): void {
    for (const conn of this.connections) if (conn.ready && match(conn)) void conn.run(() => this.refuse(conn, code, reason));
  }

  private scheduleTick(): void {
    if (this.stopped) return;
    const now = this.ctx.clock.now();
    const next = (Math.floor(now / TICK_MS) + 1) * TICK_MS;
    this.cancelTick = this.ctx.clock.setTimeout(() => {
      void this.reviewAll();
      this.scheduleTick();
    }, next - now);
  }

  /**
   * Reviews every socket, REVIEW_BATCH at a time, letting socket I/O in between batches. Ticks that
   * fall due while a round is still running are folded into one more round right after it.
   */
  private async reviewAll(): Promise<void> {
    if (this.reviewing) {
      this.reviewAgain = true;
      return;
    }
    this.reviewing = true;
    try {
      const all = [...this.connections];
      for (let i = 0; i < all.length && !this.stopped; i += REVIEW_BATCH) {
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        const at = this.ctx.clock.now();
        await Promise.all(all.slice(i, i + REVIEW_BATCH).map((conn) => conn.run(() => this.review(conn, at))));
      }
    } finally {
      this.reviewing = false;
    }
    if (this.reviewAgain && !this.stopped) {
      this.reviewAgain = false;
      await this.reviewAll();
    }
  }

  private checkAlive(): void {
    for (const conn of this.connections) {
      if (!conn.alive) {
        conn.socket.terminate();
        continue;
      }
      conn.alive = false;
      conn.socket.ping();
    }
  }
}
