// ctx.pterodactyl's client against the panel stand-in (tests/fixtures/pterodactyl-panel.ts): the
// envelopes unwrapped and every page walked, each of the panel's error shapes turned into its
// PanelError code, 429 waited out as the panel asks, 5xx retried for reads, creations never sent
// twice after an uncertain failure (timeout, reset, 5xx) but found again by external id, and an
// unset address or key answered PANEL_NOT_CONFIGURED without a request. No database involved.
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isPanelError, type CreatePanelServer, type PanelError } from '../../sdk/pterodactyl';
import { panelApi, type PanelApi } from '../../server/pterodactyl/panel-api';
import { PanelTransport, type PanelTuning } from '../../server/pterodactyl/panel-transport';
import { startPterodactylPanel, type PterodactylStandIn, type SampleWorld } from '../fixtures/pterodactyl-panel';

let standIn: PterodactylStandIn;
let world: SampleWorld;
let waits: number[] = [];

const tuning = (over: PanelTuning = {}): PanelTuning => ({
  timeoutMs: 250,
  backoffBaseMs: 10,
  retries: 2,
  pageSize: 3,
  // the waits are recorded, not spent; a wait also moves the stand-in's throttle clock on
  sleep: async (ms) => {
    waits.push(ms);
    standIn.advanceTime(ms);
  },
  ...over,
});

function client(over: PanelTuning = {}, connection?: { baseUrl: string; apiKey: string }): PanelApi {
  return panelApi(new PanelTransport(async () => connection ?? { baseUrl: standIn.url, apiKey: standIn.apiKey }, tuning(over)));
}

async function failure(promise: Promise<unknown>): Promise<PanelError> {
  try {
    await promise;
  } catch (error) {
    if (isPanelError(error)) return error;
    throw error;
  }
  throw new Error('expected a PanelError');
}

const requestsTo = (method: string, path: string | RegExp) =>
  standIn.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));

let serial = 0;
async function serverInput(over: Partial<CreatePanelServer> = {}): Promise<CreatePanelServer> {
  const owner = standIn.addUser({ email: `owner${++serial}@example.com`, username: `owner${serial}` });
  return {
    name: `Server ${serial}`,
    external_id: `op-queue-${serial}`,
    user: owner.id,
    egg: world.eggs.paper.id,
    docker_image: 'ghcr.io/pterodactyl/yolks:java_21',
    startup: world.eggs.paper.startup,
    environment: { MINECRAFT_VERSION: 'latest', SERVER_JARFILE: 'server.jar', DL_PATH: '', BUILD_NUMBER: 'latest' },
    limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100 },
    feature_limits: { databases: 0, allocations: 1, backups: 1 },
    deploy: { locations: [world.locations.ro.id], dedicated_ip: false, port_range: [] },
    ...over,
  };
}

beforeAll(async () => {
  standIn = await startPterodactylPanel();
  world = standIn.seedSample();
});
afterAll(async () => {
  await standIn?.close();
});
afterEach(() => {
  standIn.clearFaults();
  waits = [];
});

describe('envelopes and paging', () => {
  it('walks every page of a list (7 locations, 3 a page → 3 requests)', async () => {
    for (let i = 0; i < 5; i++) standIn.addLocation({ short: `extra-${i}`, long: `Extra ${i}` });
    const before = standIn.requests.length;
    const locations = await client().locations.list();
    expect(locations).toHaveLength(7);
    expect(locations[0]).toEqual({ id: world.locations.ro.id, short: 'ro-buh', long: 'Bucharest, Romania' });
    const pages = standIn.requests.slice(before).map((r) => new URLSearchParams(r.query).get('page'));
    expect(pages).toEqual(['1', '2', '3']);
  });

  it('the stand-in serialises empty pagination links as [] and fills next/previous', async () => {
    const one = await fetch(`${standIn.url}/api/application/nests?per_page=50`, { headers: { authorization: `Bearer ${standIn.apiKey}`, accept: 'application/json' } });
    const body = (await one.json()) as { object: string; meta: { pagination: { links: unknown; total: number } } };
    expect(body.object).toBe('list');
    expect(body.meta.pagination.links).toEqual([]);
    const paged = await fetch(`${standIn.url}/api/application/locations?per_page=2&page=2`, { headers: { authorization: `Bearer ${standIn.apiKey}` } });
    const links = ((await paged.json()) as { meta: { pagination: { links: Record<string, string> } } }).meta.pagination.links;
    expect(links.previous).toContain('page=1');
    expect(links.next).toContain('page=3');
  });

  it('reads eggs with their variables and nodes with their capacity', async () => {
    const eggs = await client().nests.eggs(world.nests.minecraft.id);
    expect(eggs.map((e) => e.name)).toEqual(['Paper', 'Vanilla Minecraft']);
    const paper = eggs[0];
    expect(paper.docker_images).toMatchObject({ 'Java 21': 'ghcr.io/pterodactyl/yolks:java_21' });
    expect(paper.variables.find((v) => v.env_variable === 'SERVER_JARFILE')).toMatchObject({ default_value: 'server.jar', rules: expect.stringContaining('required') });
    const one = await client().nests.egg(world.nests.rust.id, world.eggs.rust.id);
    expect(one.variables.map((v) => v.env_variable)).toContain('LEVEL');
    const nodes = await client().nodes.list();
    expect(nodes.find((n) => n.id === world.nodes.ro2.id)).toMatchObject({ maintenance_mode: true, memory: 8192, location_id: world.locations.ro.id });
  });

  it('finds a user by exact e-mail although the panel’s filter matches partially', async () => {
    standIn.addUser({ email: 'bada@example.com', username: 'bada' });
    const ada = standIn.addUser({ email: 'ada@example.com', username: 'ada1' });
    const found = await client().users.findByEmail('ADA@example.com');
    expect(found?.id).toBe(ada.id);
    expect(await client().users.findByEmail('nobody@example.com')).toBeNull();
  });

  it('an update sends the fields the panel requires with the change', async () => {
    const user = standIn.addUser({ email: 'upd@example.com', username: 'upd', first_name: 'Up', last_name: 'Date' });
    const updated = await client().users.update(user.id, { password: 'n3w-secret-pass' });
    expect(updated).toMatchObject({ email: 'upd@example.com', username: 'upd', first_name: 'Up' });
    expect(standIn.users().find((u) => u.id === user.id)?.password).toBe('n3w-secret-pass');
  });
});

describe('the panel’s errors as PanelError codes', () => {
  it('404 → PANEL_NOT_FOUND; findByExternalId → null', async () => {
    expect(await failure(client().servers.get(99_999))).toMatchObject({ code: 'PANEL_NOT_FOUND', status: 404, detail: 'The requested resource could not be found on the server.' });
    expect(await client().servers.findByExternalId('nope')).toBeNull();
  });

  it('422 → PANEL_VALIDATION naming the field (meta.source_field)', async () => {
    const error = await failure(client().users.create({ email: 'x@example.com', username: '-bad-', first_name: 'X', last_name: 'Y' }));
    expect(error).toMatchObject({ code: 'PANEL_VALIDATION', status: 422, field: 'username', uncertain: false });
    const taken = await failure(client().users.create({ email: 'ada@example.com', username: 'someoneelse', first_name: 'X', last_name: 'Y' }));
    expect(taken).toMatchObject({ code: 'PANEL_VALIDATION', field: 'email', detail: 'The email has already been taken.' });
  });

  it('a missing egg variable is refused, not filled from its default', async () => {
    const input = await serverInput();
    const { BUILD_NUMBER: _dropped, ...environment } = input.environment;
    const error = await failure(client().servers.create({ ...input, environment }));
    expect(error).toMatchObject({ code: 'PANEL_VALIDATION', field: 'environment.BUILD_NUMBER', detail: 'The Build Number variable field is required.' });
    const rust = await failure(
      client().servers.create({
        ...(await serverInput()),
        egg: world.eggs.rust.id,
        environment: { HOSTNAME: 'x', LEVEL: 'Moon', WORLD_SIZE: '3000', MAX_PLAYERS: '40', RCON_PASS: 'p' },
      }),
    );
    expect(rust).toMatchObject({ code: 'PANEL_VALIDATION', field: 'environment.LEVEL' });
    expect(standIn.servers()).toHaveLength(0);
  });

  it('400 NoViableNodeException → PANEL_REJECTED with the panel’s message', async () => {
    const error = await failure(client().servers.create(await serverInput({ limits: { memory: 999_999, swap: 0, disk: 1024, io: 500, cpu: 100 } })));
    expect(error).toMatchObject({ code: 'PANEL_REJECTED', status: 400, detail: expect.stringContaining('No nodes satisfying') });
  });

  it('401 (wrong key) and 403 (not a root admin) → PANEL_AUTH, not retried', async () => {
    const wrong = await failure(client({}, { baseUrl: standIn.url, apiKey: 'ptla_wrong' }).locations.list());
    expect(wrong).toMatchObject({ code: 'PANEL_AUTH', status: 401, transient: false });
    const notRoot = await failure(client({}, { baseUrl: standIn.url, apiKey: standIn.nonRootKey }).locations.list());
    expect(notRoot).toMatchObject({ code: 'PANEL_AUTH', status: 403, detail: 'This account does not have permission to access the API.' });
    expect(waits).toEqual([]);
  });

  it('not configured → PANEL_NOT_CONFIGURED without a request', async () => {
    const before = standIn.requests.length;
    expect(await failure(client({}, { baseUrl: '', apiKey: standIn.apiKey }).nodes.list())).toMatchObject({ code: 'PANEL_NOT_CONFIGURED' });
    expect(await failure(client({}, { baseUrl: standIn.url, apiKey: '' }).nodes.list())).toMatchObject({ code: 'PANEL_NOT_CONFIGURED' });
    expect(standIn.requests.length).toBe(before);
  });

  it('an address that redirects (http → https) → PANEL_ERROR naming the target, the key not sent on', async () => {
    const redirecting = createHttpServer((_req, res) => {
      res.writeHead(301, { location: 'https://panel.example.com/api/application/locations' });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = redirecting.address() as { port: number };
      const error = await failure(client({}, { baseUrl: `http://127.0.0.1:${port}`, apiKey: 'ptla_x' }).locations.list());
      expect(error).toMatchObject({ code: 'PANEL_ERROR', status: 301, detail: expect.stringContaining('https://panel.example.com') });
    } finally {
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });

  it('a slow answer within the timeout is simply waited for (latency fault)', async () => {
    standIn.fault({ method: 'GET', path: '/nodes', kind: 'latency', ms: 50 });
    expect(await client().nodes.list()).toHaveLength(3);
    expect(waits).toEqual([]);
  });

  it('a proxy’s HTML 502 after the retries → PANEL_ERROR', async () => {
    standIn.fault({ method: 'GET', path: '/nodes', kind: 'error', status: 502, times: 3 });
    expect(await failure(client().nodes.list())).toMatchObject({ code: 'PANEL_ERROR', status: 502, transient: true });
    expect(waits).toHaveLength(2);
  });
});

describe('retries', () => {
  it('5xx on a read is retried with growing waits, then succeeds', async () => {
    standIn.fault({ method: 'GET', path: '/locations', kind: 'error', status: 503, times: 2 });
    const before = requestsTo('GET', '/locations').length;
    expect((await client().locations.list()).length).toBeGreaterThan(0);
    expect(requestsTo('GET', '/locations').length - before).toBe(5); // 2 refused + 3 pages
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThanOrEqual(10); // base 10 ms, doubled, half-jittered
  });

  it('429 waits what Retry-After asks, then succeeds', async () => {
    standIn.fault({ method: 'GET', path: /^\/nests\/\d+$/, kind: 'rate-limit', retryAfter: 7 });
    const nest = await client().nests.get(world.nests.rust.id);
    expect(nest.name).toBe('Rust');
    expect(waits).toEqual([7000]);
  });

  it('the real throttle: over the per-minute limit → 429 with the panel’s headers, waited out', async () => {
    const strict = await startPterodactylPanel({ rateLimit: 2 });
    try {
      strict.addLocation({ short: 'one' });
      const strictWaits: number[] = [];
      const api = panelApi(
        new PanelTransport(async () => ({ baseUrl: strict.url, apiKey: strict.apiKey }), {
          ...tuning(),
          sleep: async (ms) => {
            strictWaits.push(ms);
            strict.advanceTime(ms);
          },
        }),
      );
      await api.locations.list();
      await api.locations.list();
      const raw = await fetch(`${strict.url}/api/application/locations`, { headers: { authorization: `Bearer ${strict.apiKey}` } });
      expect(raw.status).toBe(429);
      expect(await raw.json()).toEqual({ errors: [{ code: 'ThrottleRequestsException', status: '429', detail: 'Too Many Attempts.' }] });
      expect(raw.headers.get('x-ratelimit-limit')).toBe('2');
      expect(raw.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(raw.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      expect(await api.locations.list()).toHaveLength(1);
      expect(strictWaits).toHaveLength(1);
      expect(strictWaits[0]).toBeGreaterThan(50_000); // the rest of the minute
    } finally {
      await strict.close();
    }
  });

  it('a Retry-After beyond what the client waits out → PANEL_RATE_LIMITED at once', async () => {
    standIn.fault({ path: '/locations', kind: 'rate-limit', retryAfter: 3600 });
    expect(await failure(client().locations.list())).toMatchObject({ code: 'PANEL_RATE_LIMITED', status: 429, transient: true });
    expect(waits).toEqual([]);
  });

  it('a refused connection → PANEL_UNREACHABLE (retried, not uncertain: it never arrived)', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const down = client({}, { baseUrl: `http://127.0.0.1:${port}`, apiKey: 'ptla_x' });
    expect(await failure(down.locations.list())).toMatchObject({ code: 'PANEL_UNREACHABLE', uncertain: false, transient: true });
    expect(waits).toHaveLength(2);
    // a creation may be sent again when it never arrived
    waits = [];
    expect(await failure(down.servers.create(await serverInput()))).toMatchObject({ code: 'PANEL_UNREACHABLE', uncertain: false });
    expect(waits).toHaveLength(2);
  });
});

describe('creations after an uncertain failure', () => {
  it('timeout after the panel acted → PANEL_TIMEOUT uncertain, sent once; found by external id', async () => {
    const input = await serverInput();
    standIn.fault({ method: 'POST', path: '/servers', kind: 'timeout-after-effect' });
    const error = await failure(client().servers.create(input));
    expect(error).toMatchObject({ code: 'PANEL_TIMEOUT', uncertain: true, transient: true });
    expect(requestsTo('POST', '/servers').filter((r) => (r.body as { external_id?: string }).external_id === input.external_id)).toHaveLength(1);
    const found = await client().servers.findByExternalId(input.external_id);
    expect(found).toMatchObject({ external_id: input.external_id, name: input.name, suspended: false, limits: { memory: 1024 } });
    // the external id stays unique: creating again is refused, so a blind retry could never double it
    expect(await failure(client().servers.create(input))).toMatchObject({ code: 'PANEL_VALIDATION', field: 'external_id' });
  });

  it('timeout before the panel acted → uncertain too; the look-up finds nothing', async () => {
    const input = await serverInput();
    standIn.fault({ method: 'POST', path: '/servers', kind: 'timeout' });
    expect(await failure(client().servers.create(input))).toMatchObject({ code: 'PANEL_TIMEOUT', uncertain: true });
    expect(await client().servers.findByExternalId(input.external_id)).toBeNull();
  });

  it('a reset connection → PANEL_UNREACHABLE uncertain, not retried (before and after the effect)', async () => {
    const before = await serverInput();
    standIn.fault({ method: 'POST', path: '/servers', kind: 'reset' });
    expect(await failure(client().servers.create(before))).toMatchObject({ code: 'PANEL_UNREACHABLE', uncertain: true });
    expect(await client().servers.findByExternalId(before.external_id)).toBeNull();
    const after = await serverInput();
    standIn.fault({ method: 'POST', path: '/servers', kind: 'reset-after-effect' });
    expect(await failure(client().servers.create(after))).toMatchObject({ code: 'PANEL_UNREACHABLE', uncertain: true });
    expect(await client().servers.findByExternalId(after.external_id)).not.toBeNull();
    expect(waits).toEqual([]);
  });

  it('a 500 on a creation → PANEL_ERROR uncertain, sent once', async () => {
    const input = await serverInput();
    standIn.fault({ method: 'POST', path: '/servers', kind: 'error', status: 500 });
    const count = requestsTo('POST', '/servers').length;
    expect(await failure(client().servers.create(input))).toMatchObject({ code: 'PANEL_ERROR', status: 500, uncertain: true });
    expect(requestsTo('POST', '/servers').length).toBe(count + 1);
  });
});

describe('servers', () => {
  it('deploys on a public node out of maintenance, updates, suspends, and deletes freeing the allocation', async () => {
    const api = client();
    const created = await api.servers.create(await serverInput({ name: 'Lifecycle' }));
    expect(created.node).toBe(world.nodes.ro1.id); // ro2 is in maintenance
    expect(created.identifier).toHaveLength(8);
    const allocation = standIn.allocations().find((a) => a.id === created.allocation);
    expect(allocation?.server).toBe(created.id);

    const built = await api.servers.updateBuild(created.id, {
      allocation: created.allocation,
      limits: { ...created.limits, memory: 2048 },
      feature_limits: created.feature_limits,
    });
    expect(built.limits.memory).toBe(2048);
    const renamed = await api.servers.updateDetails(created.id, { name: 'Renamed', user: created.user });
    expect(renamed.name).toBe('Renamed');

    await api.servers.suspend(created.id);
    await api.servers.suspend(created.id); // no-op when already suspended
    expect((await api.servers.get(created.id)).suspended).toBe(true);
    await api.servers.unsuspend(created.id);
    expect((await api.servers.get(created.id)).suspended).toBe(false);

    // the answer to the delete is lost: the retry meets a 404, which is what was wanted
    standIn.fault({ method: 'DELETE', path: `/servers/${created.id}`, kind: 'timeout-after-effect' });
    await api.servers.delete(created.id);
    expect(standIn.servers().some((s) => s.id === created.id)).toBe(false);
    expect(standIn.allocations().find((a) => a.id === created.allocation)?.server).toBeNull();
  });

  it('a server being transferred → PANEL_CONFLICT (409), not retried', async () => {
    const created = await client().servers.create(await serverInput());
    standIn.setTransferring(created.id, true);
    try {
      expect(await failure(client().servers.suspend(created.id))).toMatchObject({ code: 'PANEL_CONFLICT', status: 409, transient: false });
      expect(waits).toEqual([]);
    } finally {
      standIn.setTransferring(created.id, false);
    }
    await client().servers.suspend(created.id);
  });

  it('no free allocation on the nodes with room → PANEL_REJECTED NoViableAllocation; a full node → NoViableNode', async () => {
    const location = standIn.addLocation({ short: 'tiny' });
    standIn.addNode({ locationId: location.id, memory: 2048, disk: 10_240, ports: [30000] });
    const api = client();
    const deploy = { locations: [location.id], dedicated_ip: false, port_range: [] };
    await api.servers.create(await serverInput({ deploy }));
    expect(await failure(api.servers.create(await serverInput({ deploy, limits: { memory: 512, swap: 0, disk: 1024, io: 500, cpu: 100 } })))).toMatchObject({
      code: 'PANEL_REJECTED',
      detail: expect.stringContaining('No allocations satisfying'),
    });
    expect(await failure(api.servers.create(await serverInput({ deploy, limits: { memory: 4096, swap: 0, disk: 1024, io: 500, cpu: 100 } })))).toMatchObject({
      code: 'PANEL_REJECTED',
      detail: expect.stringContaining('No nodes satisfying'),
    });
  });

  it('lists every server across pages and builds the customer’s link', async () => {
    await client().servers.create(await serverInput());
    await client().servers.create(await serverInput());
    const all = await client().servers.list();
    expect(all.length).toBe(standIn.servers().length);
    expect(all.length).toBeGreaterThan(3);
    expect(await client().serverUrl('abcd1234')).toBe(`${standIn.url}/server/abcd1234`);
  });
});
