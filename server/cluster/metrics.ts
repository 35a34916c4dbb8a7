// Prometheus metrics at GET /metrics (issue 17), off unless METRICS_TOKEN or METRICS_ALLOW is set, and
// then only for a scraper that sends the token as a bearer token and/or comes from a listed address:
// request rates and latencies by route, errors, job runs,
// the mail queue's depth, wallet movements and open websockets. Each app has its own registry, so
// two apps in one process (tests, a late third-party plugin's instance) never share or clash.
import { timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { errorBody, sendError } from '../http/errors';
import type { JobStatus } from '../jobs/scheduler';

export interface MetricsSources {
  db: Kysely<unknown>;
  /** pending and failed mails; throws while the database is away (the gauge is then left out) */
  mailQueue: () => Promise<{ pending: number; failed: number }>;
  /** the sockets open on this instance now */
  openSockets: () => number;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class PanelMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly jobRuns: Counter<'job' | 'result'>;
  private readonly jobDuration: Histogram<'job'>;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'orepanel_' });
    this.requests = new Counter({ name: 'orepanel_http_requests_total', help: 'Requests answered, by route and status', labelNames: ['method', 'route', 'status'], registers });
    this.latency = new Histogram({
      name: 'orepanel_http_request_duration_seconds',
      help: 'Time to answer a request, by route',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.jobRuns = new Counter({ name: 'orepanel_job_runs_total', help: 'Scheduled job runs on this instance, by result', labelNames: ['job', 'result'], registers });
    this.jobDuration = new Histogram({
      name: 'orepanel_job_duration_seconds',
      help: 'How long scheduled job runs take',
      labelNames: ['job'],
      buckets: [0.01, 0.1, 1, 10, 60, 300],
      registers,
    });
    new Gauge({
      name: 'orepanel_mail_queue',
      help: 'Mails in the queue, by state',
      labelNames: ['state'],
      registers,
      async collect() {
        try {
          const counts = await sources.mailQueue();
          this.set({ state: 'pending' }, counts.pending);
          this.set({ state: 'failed' }, counts.failed);
        } catch {
          this.reset();
        }
      },
    });
    new Gauge({
      name: 'orepanel_wallet_ledger_entries',
      help: 'Wallet ledger entries written so far (every coin movement is one); its rate is the wallet movements',
      registers,
      async collect() {
        try {
          const { rows } = await sql<{ n: number | string | null }>`select max(id) as n from wallet_ledger`.execute(sources.db);
          this.set(Number(rows[0]?.n ?? 0));
        } catch {
          this.reset();
        }
      },
    });
    new Gauge({
      name: 'orepanel_websockets_open',
      help: 'WebSocket connections open on this instance',
      registers,
      collect() {
        this.set(sources.openSockets());
      },
    });
  }

  /** onResponse: counts the request under its route pattern (never the raw URL: ids would explode the series). */
  observe(request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route };
    this.requests.inc({ ...labels, status: String(reply.statusCode) });
    this.latency.observe(labels, reply.elapsedTime / 1000);
  }

  jobFinished(status: JobStatus): void {
    this.jobRuns.inc({ job: status.name, result: status.lastOk ? 'ok' : 'failed' });
    if (status.lastDurationMs !== null) this.jobDuration.observe({ job: status.name }, status.lastDurationMs / 1000);
  }
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Who may read /metrics: the bearer of `token`, a client at one of `allow`'s addresses — each set one must hold. */
export interface MetricsAccess {
  token: string | null;
  allow: readonly string[] | null;
}

/** `allow` (addresses and CIDRs, checked by the config) as a matcher of client addresses. */
export function addressMatcher(allow: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const item of allow) {
    const [address, prefix] = item.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    // an IPv4 client on a dual-stack socket reads ::ffff:10.0.0.5
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * GET /metrics: 404 while neither METRICS_TOKEN nor METRICS_ALLOW is set (nothing tells a prober it
 * exists), 403 from an address outside METRICS_ALLOW (the client address TRUST_PROXY gives: a public
 * client behind the proxy is not the proxy), 401 without the right bearer token. Outside /api, so no
 * session, rate limit or settings read stands in the way.
 */
export function metricsRoute(app: FastifyInstance, metrics: PanelMetrics | null, access: MetricsAccess): void {
  const allowed = access.allow ? addressMatcher(access.allow) : null;
  app.get(
    '/metrics',
    {
      schema: {
        response: { 200: { content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    async (request, reply) => {
      if (!metrics || (!access.token && !allowed)) return sendError(reply, 404, errorBody('NOT_FOUND', 'Not found.'));
      if (allowed && !allowed(request.ip)) {
        return sendError(reply, 403, errorBody('FORBIDDEN', 'The metrics are answered only to the addresses in METRICS_ALLOW.'));
      }
      if (access.token) {
        const header = request.headers.authorization ?? '';
        const given = header.startsWith('Bearer ') ? header.slice(7) : '';
        if (!sameToken(given, access.token)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          return sendError(reply, 401, errorBody('UNAUTHORIZED', 'The metrics need the METRICS_TOKEN as a bearer token.'));
        }
      }
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(text);
    },
  );
}
