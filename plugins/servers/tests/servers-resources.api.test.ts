// Resources a customer asks for, and rows that hold values no request could have written (issue 9,
// defect 1): every resource is checked at create and resize, databases and backups included, and
// nothing reaches the panel when a check fails; an account's free amounts are never more than it
// owns, whatever its other rows hold; and a row with a broken number (negative, absurd, on SQLite
// text or a REAL ±Infinity) is flagged in every list that shows it while the rest still answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects, type SignedInUser } from '../../../tests/api/harness';
import { builtServer, call, createBody, customer, runQueue, startServersWorld, type ServersWorld } from '../../../tests/api/servers-world';

type Row = Record<string, unknown>;

describe.each(testDialects())('servers: resources and broken rows (%s)', (dialect) => {
  let world: ServersWorld;
  beforeAll(async () => {
    world = await startServersWorld(dialect);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  const db = () => world.panel.services.database.db;
  /** The catalogue choice and resources of the rows these tests write straight into the tables. */
  const smallServer = () => ({ location_id: world.catalog.ro, egg_id: world.catalog.paper, ram: 512, disk: 512, cpu: 10, ports: 1, databases: 0, backups: 0 });
  const rowsOf = async (table: 'server_queue' | 'servers', userId: number) =>
    (await db()
      .selectFrom(table as never)
      .selectAll()
      .where('user_id' as never, '=', userId as never)
      .orderBy('id' as never)
      .execute()) as unknown as Row[];
  const panelServerOf = (panelId: number) => world.ptero.servers().find((s) => s.id === panelId);
  /** Writes values straight into a row, past every check (as a hand edit or an old bug would). */
  const spoil = (table: 'server_queue' | 'servers' | 'users', id: number, values: Row) =>
    db()
      .updateTable(table as never)
      .set(values as never)
      .where('id' as never, '=', id as never)
      .execute();
  /** A server row for `user` that the panel does not know (so no panel call can touch it). */
  let fakePanelId = 900_000;
  const insertServer = async (user: SignedInUser, name: string, values: Row = {}): Promise<number> => {
    const now = new Date(world.clock.now()).toISOString();
    fakePanelId += 1;
    await db()
      .insertInto('servers' as never)
      .values({
        user_id: user.id,
        queue_entry_id: null,
        panel_id: fakePanelId,
        identifier: `fake${fakePanelId}`,
        name,
        description: null,
        ...smallServer(),
        status: 'active',
        suspended_reason: null,
        suspended_at: null,
        expires_at: null,
        reminded_for: null,
        created_at: now,
        updated_at: now,
        ...values,
      } as never)
      .execute();
    const row = (await rowsOf('servers', user.id)).find((r) => r.name === name)!;
    return Number(row.id);
  };
  const insertEntry = async (user: SignedInUser, name: string, values: Row = {}): Promise<number> => {
    const now = new Date(world.clock.now()).toISOString();
    await db()
      .insertInto('server_queue' as never)
      .values({
        user_id: user.id,
        name,
        description: null,
        ...smallServer(),
        status: 'failed',
        next_attempt_at: now,
        last_error: 'refused',
        server_id: null,
        created_by: null,
        created_at: now,
        updated_at: now,
        ...values,
      } as never)
      .execute();
    const row = (await rowsOf('server_queue', user.id)).find((r) => r.name === name)!;
    return Number(row.id);
  };

  describe('creating: every resource is checked before anything is queued', () => {
    // the strings are what the issue sent (coerced to ±Infinity by the old host); the raw texts are
    // JSON numbers that parse to ±Infinity or lose their last digits
    const bad: Array<[string, Record<string, unknown> | string, string]> = [
      ['databases -1', { databases: -1 }, 'databases'],
      ['backups -1', { backups: -1 }, 'backups'],
      ['databases 101 (above the most a server may have)', { databases: 101 }, 'databases'],
      ['backups 1e6', { backups: 1_000_000 }, 'backups'],
      ['databases 2^53', '"databases":9007199254740993', 'databases'],
      ['databases 1e309 (Infinity)', '"databases":1e309', 'databases'],
      ['backups -1e309 (-Infinity)', '"backups":-1e309', 'backups'],
      ['databases "-Infinity"', { databases: '-Infinity' }, 'databases'],
      ['backups "-1e309"', { backups: '-1e309' }, 'backups'],
      ['a fractional database', { databases: 0.5 }, 'databases'],
    ];
    const send = (user: SignedInUser, url: string, base: Record<string, unknown>, change: Record<string, unknown> | string) => {
      if (typeof change !== 'string') return call(world, user, 'POST', url, { ...base, ...change });
      const key = change.slice(1, change.indexOf('"', 1));
      const rest = { ...base };
      delete rest[key];
      const payload = `${JSON.stringify(rest).slice(0, -1)},${change}}`;
      return world.panel.app.inject({ method: 'POST', url, payload, headers: { cookie: user.cookie, 'content-type': 'application/json' } });
    };

    it.each(bad)('refuses %s with a 400 naming the field: no queue row, nothing built on the panel', async (_label, change, field) => {
      const user = await customer(world, { databases: 2, backups: 5 });
      const before = world.ptero.servers().length;
      const res = await send(user, '/api/user/server/create', createBody(world), change);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ field });
      const byAdmin = await send(world.admin, '/api/admin/server-queue', { user_uuid: user.uuid, ...createBody(world) }, change);
      expect(byAdmin.statusCode, byAdmin.body).toBe(400);
      expect(await rowsOf('server_queue', user.id)).toEqual([]);
      await runQueue(world);
      expect(world.ptero.servers().length).toBe(before);
      expect(await rowsOf('servers', user.id)).toEqual([]);
    });

    it('refuses more databases or backups than the account has free (409), at the exact amount it queues', async () => {
      const user = await customer(world, { databases: 1, backups: 5 });
      let res = await call(world, user, 'POST', '/api/user/server/create', createBody(world, { databases: 2 }));
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'NOT_ENOUGH_RESOURCES', field: 'databases' });
      res = await call(world, user, 'POST', '/api/user/server/create', createBody(world, { backups: 6 }));
      expect(res.json().error).toMatchObject({ code: 'NOT_ENOUGH_RESOURCES', field: 'backups' });
      expect(await rowsOf('server_queue', user.id)).toEqual([]);
      res = await call(world, user, 'POST', '/api/user/server/create', createBody(world, { databases: 1, backups: 5 }));
      expect(res.statusCode, res.body).toBe(201);
    });

    it('names every minimum in the create options, databases and backups included', async () => {
      const user = await customer(world);
      const body = (await call(world, user, 'GET', '/api/user/server/create')).json();
      expect(body.minimums).toEqual({ ram: 256, cpu: 5, disk: 256, ports: 1, databases: 0, backups: 0 });
    });
  });

  describe('resizing: the increase of every resource is checked against what is free', () => {
    const size = { ram: 1024, disk: 2048, cpu: 50, ports: 1, databases: 0, backups: 1 };

    it('refuses 100 databases and 100 backups on an account that owns 1 and 5; the panel keeps the old build', async () => {
      const user = await customer(world, { databases: 1, backups: 5 });
      const id = await builtServer(world, user, size);
      const panelId = Number((await rowsOf('servers', user.id))[0].panel_id);
      for (const wanted of [{ databases: 100, backups: 100 }, { databases: 2 }, { backups: 6 }]) {
        const res = await call(world, user, 'POST', `/api/user/server/${id}/update`, { ...size, ...wanted });
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json().error.code).toBe('NOT_ENOUGH_RESOURCES');
      }
      expect(panelServerOf(panelId)!.feature_limits).toMatchObject({ databases: 0, backups: 1 });
      expect((await rowsOf('servers', user.id))[0]).toMatchObject({ databases: 0, backups: 1 });
      const res = await call(world, user, 'POST', `/api/user/server/${id}/update`, { ...size, databases: 1, backups: 5 });
      expect(res.statusCode, res.body).toBe(200);
      expect(panelServerOf(panelId)!.feature_limits).toMatchObject({ databases: 1, backups: 5 });
    });

    const spoilers: Array<[string, Row]> = [
      ['negative databases and backups', { databases: -1000, backups: -1000 }],
      ...(dialect === 'sqlite' ? ([['a REAL -Infinity (the issue’s row)', { databases: -Infinity, backups: -Infinity }]] as Array<[string, Row]>) : []),
    ];
    it.each(spoilers)('is not fooled by another row of the account holding %s: refused, nothing applied on the panel', async (_label, values) => {
      const user = await customer(world, { databases: 1, backups: 5 });
      const id = await builtServer(world, user, size);
      const panelId = Number((await rowsOf('servers', user.id))[0].panel_id);
      await insertServer(user, 'Spoiled', values);
      const requests = world.ptero.requests.length;
      const res = await call(world, user, 'POST', `/api/user/server/${id}/update`, { ...size, databases: 100, backups: 100 });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(world.ptero.requests.slice(requests).filter((r) => r.method === 'PATCH')).toEqual([]);
      expect(panelServerOf(panelId)!.feature_limits).toMatchObject({ databases: 0, backups: 1 });
      // and what it owns is never counted as more than it owns
      const options = (await call(world, user, 'GET', '/api/user/server/create')).json();
      expect(options.free.databases).toBeLessThanOrEqual(1);
      expect(options.free.backups).toBeLessThanOrEqual(5);
      // an increase of what can be counted still goes through
      const ram = await call(world, user, 'POST', `/api/user/server/${id}/update`, { ...size, ram: 2048 });
      expect(ram.statusCode, ram.body).toBe(200);
    });

    it('refuses to resize a server whose own stored resources are broken (409), asking the panel nothing', async () => {
      const user = await customer(world);
      const id = await insertServer(user, 'Self-spoiled', { databases: -3 });
      const requests = world.ptero.requests.length;
      const res = await call(world, user, 'POST', `/api/user/server/${id}/update`, { ...size, databases: 0 });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.code).toBe('RESOURCES_UNREADABLE');
      expect(world.ptero.requests.length).toBe(requests);
    });
  });

  describe('a broken row takes no page down', () => {
    let owner: SignedInUser;
    let bystander: SignedInUser;
    let goodServer: number;
    let badServer: number;
    let goodEntry: number;
    let badEntry: number;
    const bad: Row = dialect === 'sqlite' ? { databases: -Infinity, backups: Infinity, ram: 'lots' } : { databases: -5, backups: 2_000_000_000 };

    beforeAll(async () => {
      owner = await customer(world, { server_slots: 10, ram: 8192 });
      bystander = await customer(world);
      goodServer = await builtServer(world, owner, { name: 'Good server' });
      badServer = await insertServer(owner, 'Bad server', bad);
      goodEntry = await insertEntry(owner, 'Good entry');
      badEntry = await insertEntry(owner, 'Bad entry', { ...bad, attempts: -2 });
    });

    it('GET /api/admin/servers: 200, the broken server flagged, the others whole', async () => {
      const res = await call(world, world.admin, 'GET', '/api/admin/servers');
      expect(res.statusCode, res.body).toBe(200);
      const servers = res.json().servers as Row[];
      const badOne = servers.find((s) => s.id === badServer)!;
      expect(badOne).toMatchObject({ name: 'Bad server', broken: true });
      expect(badOne.broken_fields).toEqual(expect.arrayContaining(['databases', 'backups']));
      expect(Object.values(badOne.resources as Row).every((v) => Number.isSafeInteger(v) && (v as number) >= 0)).toBe(true);
      expect(servers.find((s) => s.id === goodServer)).toMatchObject({ name: 'Good server', broken: false, broken_fields: [], resources: { ram: 1024, databases: 0, backups: 1 } });
    });

    it('GET /api/admin/server-queue: 200, the broken entry flagged, the others whole', async () => {
      const res = await call(world, world.admin, 'GET', '/api/admin/server-queue');
      expect(res.statusCode, res.body).toBe(200);
      const entries = res.json().entries as Row[];
      expect(entries.find((e) => e.id === badEntry)).toMatchObject({ name: 'Bad entry', broken: true, attempts: 0 });
      expect(entries.find((e) => e.id === badEntry)!.broken_fields).toEqual(expect.arrayContaining(['databases', 'backups', 'attempts']));
      expect(entries.find((e) => e.id === goodEntry)).toMatchObject({ name: 'Good entry', broken: false, broken_fields: [] });
      const one = await call(world, world.admin, 'GET', `/api/admin/server-queue/${badEntry}`);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json().entry).toMatchObject({ broken: true });
    });

    it('GET /api/user/session/servers: 200 with both lists, the broken rows flagged', async () => {
      const res = await call(world, owner, 'GET', '/api/user/session/servers');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { servers: Row[]; queue: Row[] };
      expect(body.servers.map((s) => [s.name, s.broken])).toEqual([
        ['Good server', false],
        ['Bad server', true],
      ]);
      expect(body.queue.map((e) => [e.name, e.broken])).toEqual([
        ['Bad entry', true],
        ['Good entry', false],
      ]);
      const detail = await call(world, owner, 'GET', `/api/user/server/${badServer}`);
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json()).toMatchObject({ broken: true });
    });

    it('GET /api/user/server/create: 200; what the broken values hold counts as nothing free, and says so', async () => {
      const res = await call(world, owner, 'GET', '/api/user/server/create');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.free).toMatchObject({ databases: 0, backups: 0 });
      expect(body.broken_resources).toEqual(expect.arrayContaining(['databases', 'backups']));
      expect(Object.values(body.free as Row).every((v) => Number.isSafeInteger(v) && (v as number) >= 0)).toBe(true);
      const other = await call(world, bystander, 'GET', '/api/user/server/create');
      expect(other.statusCode, other.body).toBe(200);
      expect(other.json().broken_resources).toEqual([]);
      expect(other.json().free).toMatchObject({ databases: 2, backups: 2 });
    });

    it('a broken total on the account: the session and the create options answer, counting it as nothing', async () => {
      const user = await customer(world);
      await spoil('users', user.id, dialect === 'sqlite' ? { ram: Infinity, databases: 'many', minutes_afk: -Infinity } : { ram: -4096, databases: -1, minutes_afk: -5 });
      const session = await call(world, user, 'GET', '/api/user/session');
      expect(session.statusCode, session.body).toBe(200);
      expect(session.json().billing).toMatchObject({ ram: 0, databases: 0, disk: 8192 });
      expect(session.json().stats.minutes_afk).toBe(0);
      const options = await call(world, user, 'GET', '/api/user/server/create');
      expect(options.statusCode, options.body).toBe(200);
      expect(options.json()).toMatchObject({ totals: { ram: 0, databases: 0, disk: 8192 }, free: { ram: 0, databases: 0 } });
      expect(options.json().broken_resources).toEqual(expect.arrayContaining(['ram', 'databases']));
      expect(options.json().blockers).toContain('NOT_ENOUGH_RESOURCES');
    });

    it('a catalog location with a broken slot count: flagged in its admin list, not offered, not built on', async () => {
      const now = new Date(world.clock.now()).toISOString();
      const values = {
        name: 'Broken Bay',
        description: null,
        panel_location_id: 777_777,
        slots: dialect === 'sqlite' ? Infinity : -1,
        status: 'online',
        vip_only: 0,
        enabled: 1,
        image: null,
        created_at: now,
        updated_at: now,
      };
      await db()
        .insertInto('catalog_locations' as never)
        .values(values as never)
        .execute();
      try {
        const list = await call(world, world.admin, 'GET', '/api/admin/locations?per_page=100');
        expect(list.statusCode, list.body).toBe(200);
        const rows = list.json().data as Row[];
        expect(rows.find((l) => l.name === 'Broken Bay')).toMatchObject({ broken: true, broken_fields: ['slots'], slots: 0 });
        expect(rows.find((l) => l.name === 'Bucharest')).toMatchObject({ broken: false, broken_fields: [] });
        const options = await call(world, bystander, 'GET', '/api/user/server/create');
        expect(options.statusCode, options.body).toBe(200);
        expect((options.json().locations as Row[]).map((l) => l.name)).not.toContain('Broken Bay');
        const id = Number(rows.find((l) => l.name === 'Broken Bay')!.id);
        const res = await call(world, bystander, 'POST', '/api/user/server/create', createBody(world, { location_id: id }));
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'LOCATION_UNAVAILABLE', field: 'location_id' });
      } finally {
        await db()
          .deleteFrom('catalog_locations' as never)
          .where('name' as never, '=', 'Broken Bay' as never)
          .execute();
      }
    });

    it('the worker refuses a pending entry with broken resources: it fails, nothing is built on the panel', async () => {
      const user = await customer(world);
      // what the panel itself would take: null for ±Infinity (JSON), or a huge whole number
      const unbuildable = dialect === 'sqlite' ? { databases: -Infinity, backups: -Infinity } : { databases: 2_000_000_000, backups: 2_000_000_000 };
      const entry = await insertEntry(user, 'Bad pending', { ...unbuildable, status: 'pending', last_error: null });
      const before = world.ptero.servers().length;
      await runQueue(world);
      expect(world.ptero.servers().length).toBe(before);
      expect((await rowsOf('server_queue', user.id)).find((r) => Number(r.id) === entry)).toMatchObject({ status: 'failed' });
      expect(await rowsOf('servers', user.id)).toEqual([]);
    });
  });
});
