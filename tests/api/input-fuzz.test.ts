// The route-walking fuzz test (issue 9), generated from the route registry like the authz matrix:
// every API route × anonymous / customer / administrator × the catalogue of bad input its own schemas
// refuse (fuzz-catalogue.ts). It must show 0 answers of 5xx, 0 accepted (every case is a 4xx), and
// nothing changed: row counts of every table, every balance and resource total, the settings, and
// the servers and accounts on the Pterodactyl stand-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../server/http/route-registry';
import { casesFor, plausible, refusedJson, refusedText, uploadCases } from './fuzz-catalogue';
import { testDialects, userWithRole, type SignedInUser } from './harness';
import { builtServer, customer, startServersWorld, type ServersWorld } from './servers-world';

describe('the fuzz catalogue', () => {
  it('spoils a bounded integer in every way the policy must refuse', () => {
    const labels = refusedJson({ type: 'integer', minimum: 1, maximum: 10 }).map(([label]) => label);
    expect(labels).toEqual(expect.arrayContaining(['numeric string', 'one-item array', '+Infinity', '-Infinity', 'above maximum', 'below minimum', 'fraction', 'null']));
    expect(refusedText({ type: 'integer', minimum: 1, maximum: 10 }, false).map(([, text]) => text)).toEqual(
      expect.arrayContaining(['1e309', 'Infinity', '0x10', '11', '0', '1.5']),
    );
  });

  it('builds a plausible base body and one case per spoiled field, missing field and extra field', () => {
    const route: RegisteredRoute = {
      method: 'POST',
      url: '/api/things/:id',
      auth: true,
      permission: null,
      flag: null,
      rateLimit: null,
      appRateLimit: true,
      responses: {},
      plugin: null,
      websocket: false,
      input: {
        params: { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 99 } } },
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 2, maxLength: 9 }, on: { type: 'boolean' } } },
      },
    };
    expect(plausible(route.input.body as Record<string, unknown>)).toEqual({ name: 'aa' });
    const labels = casesFor(route).map((c) => c.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        'param id: 1e309',
        'body: name: missing',
        'body: extra field',
        'body: __proto__ key',
        'body: on: boolean string',
        'body: name: 100 KB string',
        'body: malformed JSON',
        'query: unknown parameter',
      ]),
    );
    expect(casesFor(route).find((c) => c.label === 'body: on: boolean string')?.payload).toBe('{"name":"aa","on":"true"}');
  });
});

describe('the fuzz catalogue of an upload route', () => {
  it('adds forms a file check must refuse, with the plausible fields of the body', () => {
    const cases = uploadCases('/api/things', { name: 'aa', count: 1 });
    expect(cases.map((c) => c.label)).toEqual(['form: an executable named as an image', 'form: an HTML page named as an image', 'form: cut short']);
    expect(cases[0]?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(cases[0]?.payload).toContain('name="count"\r\n\r\n1\r\n');
    expect(cases[0]?.payload).toContain('filename="cat.png"');
  });
});

const IDENTITIES = ['anonymous', 'customer', 'administrator'] as const;

describe.each(testDialects().filter((d) => d !== 'mysql'))('route-walking fuzz on %s', (dialect) => {
  let world: ServersWorld;
  let people: Record<(typeof IDENTITIES)[number], SignedInUser | null>;

  beforeAll(async () => {
    world = await startServersWorld(dialect);
    // thousands of requests from one address: the app-wide limit would answer 429 for most of them
    await world.panel.services.settings.set('rate_limit_enabled', false);
    const buyer = await customer(world, { ram: 8192, disk: 16384, cpu: 400, ports: 6, databases: 4, backups: 4, server_slots: 3 });
    await world.panel.services.wallet.credit({ userId: buyer.id, amount: 5000, kind: 'test.seed', idempotencyKey: `fuzz-seed:${buyer.id}` });
    await builtServer(world, buyer);
    people = { anonymous: null, customer: buyer, administrator: await userWithRole(world.panel, 8) };
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  /** Everything a bad request could change, in one comparable value. */
  async function snapshot() {
    const db = world.panel.services.database.db;
    const tables = (await db.introspection.getTables()).map((t) => t.name).sort();
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const row = await db
        .selectFrom(table as 'users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.n);
    }
    const users = await db
      .selectFrom('users')
      .select(['id', 'role_id', 'coins', 'ram', 'disk', 'cpu', 'ports', 'databases', 'backups', 'server_slots', 'banned', 'email', 'password_hash'])
      .orderBy('id')
      .execute();
    const settings = await db.selectFrom('settings').selectAll().orderBy('key').execute();
    return { counts, users, settings, panelServers: world.ptero.servers(), panelUsers: world.ptero.users() };
  }

  it('answers every bad input on every API route with a 4xx, for anonymous, a customer and an administrator, and changes nothing', async () => {
    const routes = world.panel.services.routes.list().filter((r) => r.url.startsWith('/api/') && !r.websocket && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(140);
    const before = await snapshot();
    const wrong: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const identity of IDENTITIES) {
        const person = people[identity];
        for (const fuzz of casesFor(route)) {
          const headers: Record<string, string> = {};
          if (person) headers.cookie = person.cookie;
          if (fuzz.contentType) headers['content-type'] = fuzz.contentType;
          const res = await world.panel.app.inject({ method: route.method as 'GET', url: fuzz.url, headers, ...(fuzz.payload !== undefined ? { payload: fuzz.payload } : {}) });
          sent++;
          if (res.statusCode < 400 || res.statusCode >= 500) wrong.push(`${res.statusCode} ${route.method} ${route.url} as ${identity} — ${fuzz.label}: ${res.body.slice(0, 160)}`);
        }
      }
    }
    expect(wrong, wrong.slice(0, 40).join('\n')).toEqual([]);
    expect(sent).toBeGreaterThan(3000);
    expect(await snapshot()).toEqual(before);
  }, 600_000);
});
