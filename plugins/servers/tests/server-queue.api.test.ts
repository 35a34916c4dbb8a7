// The creation queue against the Pterodactyl stand-in with faults injected while a server is being
// created: whatever the panel does (answers lost after the server was made, resets, 5xx, 429), each
// entry ends as exactly one panel server and one servers row, or fails with the panel's message and
// frees what it reserved; a worker that died mid-build is taken over once its lease expires; the
// admin queue API and its permissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultSpec } from '../../../tests/fixtures/pterodactyl-panel';
import { roleWith, testDialects, type SignedInUser } from '../../../tests/api/harness';
import { call, createBody, customer, jobMessage, runQueue, startServersWorld, type ServersWorld } from '../../../tests/api/servers-world';

const MINUTE = 60_000;

describe.each(testDialects())('server queue (%s)', (dialect) => {
  let world: ServersWorld;
  beforeAll(async () => {
    world = await startServersWorld(dialect);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  const db = () => world.panel.services.database.db;
  type Entry = { id: number; status: string; attempts: number; last_error: string | null; server_id: number | null };
  const entryRow = async (id: number) =>
    (await db()
      .selectFrom('server_queue' as never)
      .selectAll()
      .where('id' as never, '=', id as never)
      .executeTakeFirst()) as unknown as Entry | undefined;
  const serverRows = async (userId: number) =>
    (await db()
      .selectFrom('servers' as never)
      .selectAll()
      .where('user_id' as never, '=', userId as never)
      .execute()) as unknown as { id: number; panel_id: number }[];
  const panelServersOf = (entryId: number) => world.ptero.servers().filter((s) => s.external_id === `orepanel-queue-${entryId}`);
  const logs = async (entryId: number) =>
    (await call(world, world.admin, 'GET', `/api/admin/server-queue/${entryId}`)).json().logs as { outcome: string; message: string; attempt: number }[];

  const queueFor = async (user: SignedInUser, overrides: Record<string, unknown> = {}): Promise<number> => {
    const res = await call(world, user, 'POST', '/api/user/server/create', createBody(world, overrides));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().entry.id;
  };

  /** Runs the worker, moving the clock past each backoff, until the entry is no longer pending. */
  const workUntilSettled = async (entryId: number) => {
    for (let i = 0; i < 8; i++) {
      await runQueue(world);
      const entry = await entryRow(entryId);
      if (entry?.status !== 'pending') return entry;
      world.clock.advance(61 * MINUTE);
    }
    return entryRow(entryId);
  };

  const faults: Array<[string, Omit<FaultSpec, 'path' | 'method'>]> = [
    ['the answer lost after the server was made (timeout)', { kind: 'timeout-after-effect' }],
    ['the connection reset after the server was made', { kind: 'reset-after-effect' }],
    ['a reset before anything happened', { kind: 'reset' }],
    ['a timeout before anything happened', { kind: 'timeout' }],
    ['a 500', { kind: 'error', status: 500 }],
    ['a 502 from the proxy', { kind: 'error', status: 502 }],
    ['429 Too Many Attempts (twice: the client retry too)', { kind: 'rate-limit', times: 2 }],
    ['three failures in a row', { kind: 'error', status: 503, times: 3 }],
  ];

  it.each(faults)('survives %s: one panel server, one servers row, nothing lost', async (_label, fault) => {
    const user = await customer(world);
    const entryId = await queueFor(user);
    world.ptero.fault({ method: 'POST', path: '/servers', ...fault });
    const entry = await workUntilSettled(entryId);
    world.ptero.clearFaults();
    expect(entry).toMatchObject({ status: 'completed' });
    expect(panelServersOf(entryId)).toHaveLength(1);
    const rows = await serverRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].panel_id).toBe(panelServersOf(entryId)[0].id);
    expect(entry!.server_id).toBe(rows[0].id);
    const outcomes = (await logs(entryId)).map((l) => l.outcome);
    expect(outcomes.at(-1)).toMatch(/^(completed|reconciled)$/);
    if (fault.kind.endsWith('after-effect')) expect(outcomes).toEqual(['reconciled']);
    else expect(outcomes[0]).toBe('retry');
    const mine = (await call(world, user, 'GET', '/api/user/session/servers')).json();
    expect(mine.servers).toHaveLength(1);
    expect(mine.queue).toEqual([]);
  });

  it('fails for good on the panel refusing (no node with room) and frees what it held', async () => {
    const user = await customer(world, { ram: 32768, disk: 32768 });
    // ro-node-1 has 16 GiB, ro-node-2 is in maintenance
    const entryId = await queueFor(user, { ram: 20000 });
    expect((await call(world, user, 'GET', '/api/user/server/create')).json().free.ram).toBe(32768 - 20000);
    await runQueue(world);
    const entry = await entryRow(entryId);
    expect(entry).toMatchObject({ status: 'failed' });
    expect(entry!.last_error).toMatch(/No nodes satisfying the requirements/);
    expect(panelServersOf(entryId)).toHaveLength(0);
    expect((await logs(entryId)).map((l) => l.outcome)).toEqual(['failed']);
    const options = (await call(world, user, 'GET', '/api/user/server/create')).json();
    expect(options.free.ram).toBe(32768);
    expect(options.blockers).toEqual([]);
    const mine = (await call(world, user, 'GET', '/api/user/session/servers')).json();
    expect(mine.queue[0]).toMatchObject({ id: entryId, status: 'failed', last_error: expect.stringMatching(/No nodes/) });
    // a failed entry may be cleared by its owner
    expect((await call(world, user, 'POST', `/api/user/queue/${entryId}/delete`)).json()).toEqual({ ok: true });
  });

  it('gives up after server_queue_max_attempts passing faults, freeing the reservation', async () => {
    await world.panel.services.settings.set('server_queue_max_attempts', 2);
    try {
      const user = await customer(world);
      const entryId = await queueFor(user);
      world.ptero.fault({ method: 'POST', path: '/servers', kind: 'rate-limit', times: Infinity });
      await runQueue(world);
      expect(await entryRow(entryId)).toMatchObject({ status: 'pending', attempts: 1 });
      // not due before its backoff
      await runQueue(world);
      expect(await entryRow(entryId)).toMatchObject({ status: 'pending', attempts: 1 });
      world.clock.advance(2 * MINUTE);
      await runQueue(world);
      world.ptero.clearFaults();
      const entry = await entryRow(entryId);
      expect(entry).toMatchObject({ status: 'failed', attempts: 2 });
      expect(entry!.last_error).toMatch(/gave up after 2 attempts/);
      expect(panelServersOf(entryId)).toHaveLength(0);
      expect((await call(world, user, 'GET', '/api/user/server/create')).json().free.ram).toBe(4096);
    } finally {
      await world.panel.services.settings.set('server_queue_max_attempts', 10);
    }
  });

  /** What a worker that died right after its create call leaves behind: the panel server, a building entry. */
  const createdByDeadWorker = async (user: SignedInUser, entryId: number) => {
    const panelUser = world.ptero.addUser({ email: `dead${entryId}@example.com`, username: `dead${entryId}` });
    const res = await fetch(`${world.ptero.url}/api/application/servers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.ptero.apiKey}`, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'My server',
        external_id: `orepanel-queue-${entryId}`,
        user: panelUser.id,
        egg: world.sample.eggs.paper.id,
        docker_image: 'ghcr.io/pterodactyl/yolks:java_21',
        startup: 'java -jar server.jar',
        environment: { SERVER_JARFILE: 'server.jar', BUILD_NUMBER: 'latest', MINECRAFT_VERSION: 'latest', DL_PATH: '' },
        limits: { memory: 1024, swap: 0, disk: 2048, io: 500, cpu: 50 },
        feature_limits: { databases: 0, backups: 1, allocations: 1 },
        deploy: { locations: [world.sample.locations.ro.id], dedicated_ip: false, port_range: [] },
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  };
  const markBuilding = (entryId: number) =>
    db()
      .updateTable('server_queue' as never)
      .set({ status: 'building', attempts: 1 } as never)
      .where('id' as never, '=', entryId as never)
      .execute();

  it('takes over a building entry once its dead worker’s lease expires, reconciling instead of creating again', async () => {
    const user = await customer(world);
    const entryId = await queueFor(user);
    await markBuilding(entryId);
    await createdByDeadWorker(user, entryId);
    await db()
      .insertInto('leases' as never)
      .values({ name: `servers:queue-entry:${entryId}`, holder: 'a-worker-that-died', expires_at: world.clock.now() + 5 * MINUTE } as never)
      .execute();
    await runQueue(world);
    expect(await entryRow(entryId)).toMatchObject({ status: 'building' });
    expect(await serverRows(user.id)).toHaveLength(0);
    // the user cannot take it back while it is being built
    const busy = await call(world, user, 'POST', `/api/user/queue/${entryId}/delete`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.code).toBe('QUEUE_ENTRY_BUSY');
    expect((await call(world, world.admin, 'POST', `/api/admin/server-queue/${entryId}/delete`)).statusCode).toBe(409);

    world.clock.advance(5 * MINUTE + 1);
    await runQueue(world);
    expect(await entryRow(entryId)).toMatchObject({ status: 'completed', attempts: 2 });
    expect(panelServersOf(entryId)).toHaveLength(1);
    expect(await serverRows(user.id)).toHaveLength(1);
    expect((await logs(entryId)).map((l) => l.outcome)).toEqual(['reconciled']);
  });

  it('builds a building entry left without a lease and without a panel server', async () => {
    const user = await customer(world);
    const entryId = await queueFor(user);
    await markBuilding(entryId);
    await runQueue(world);
    expect(await entryRow(entryId)).toMatchObject({ status: 'completed' });
    expect(panelServersOf(entryId)).toHaveLength(1);
    expect(jobMessage(world, 'servers.queue')).toMatch(/built 1/);
  });

  it('does nothing while the panel is not configured, and says so', async () => {
    const user = await customer(world);
    const entryId = await queueFor(user);
    await world.panel.services.settings.set('pterodactyl_api_key', '');
    try {
      await runQueue(world);
      expect(jobMessage(world, 'servers.queue')).toMatch(/not configured/);
      expect(await entryRow(entryId)).toMatchObject({ status: 'pending', attempts: 0 });
      const res = await call(world, await customer(world), 'POST', '/api/user/server/create', createBody(world));
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('PANEL_NOT_CONFIGURED');
      expect((await call(world, user, 'GET', '/api/user/server/create')).json().blockers).toContain('PANEL_NOT_CONFIGURED');
    } finally {
      await world.panel.services.settings.set('pterodactyl_api_key', world.ptero.apiKey);
    }
    await runQueue(world);
    expect(await entryRow(entryId)).toMatchObject({ status: 'completed' });
  });

  describe('administration', () => {
    it('queues for a user: their resources and VIP rules, not the one-pending rule', async () => {
      const target = await customer(world, { server_slots: 3 });
      const body = (overrides: Record<string, unknown> = {}) => ({ user_uuid: target.uuid, ...createBody(world, overrides) });
      let res = await call(world, world.admin, 'POST', '/api/admin/server-queue', body());
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().entry).toMatchObject({ status: 'pending', owner: { uuid: target.uuid, username: target.username } });
      res = await call(world, world.admin, 'POST', '/api/admin/server-queue', body({ name: 'Second' }));
      expect(res.statusCode).toBe(201);
      res = await call(world, world.admin, 'POST', '/api/admin/server-queue', body({ name: 'VIP', egg_id: world.catalog.vanilla }));
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'VIP_ONLY', field: 'egg_id' });
      res = await call(world, world.admin, 'POST', '/api/admin/server-queue', body({ name: 'Big', ram: 3000 }));
      expect(res.json().error).toMatchObject({ code: 'NOT_ENOUGH_RESOURCES', field: 'ram' });
      res = await call(world, world.admin, 'POST', '/api/admin/server-queue', { ...body(), user_uuid: 'no-such-user' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({ code: 'USER_NOT_FOUND', field: 'user_uuid' });
      res = await call(world, world.admin, 'POST', '/api/admin/server-queue', createBody(world));
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'user_uuid' });
      res = await call(world, world.admin, 'POST', '/api/admin/server-queue', body({ ram: 100 }));
      expect(res.json().error).toMatchObject({ code: 'BELOW_MINIMUM', field: 'ram' });
      const rows = await db()
        .selectFrom('server_queue' as never)
        .selectAll()
        .where('user_id' as never, '=', target.id as never)
        .execute();
      expect(rows).toHaveLength(2);
    });

    it('lists, filters, shows an entry with its logs, pages the logs, deletes', async () => {
      const user = await customer(world);
      const entryId = await queueFor(user, { name: 'Listed' });
      let res = await call(world, world.admin, 'GET', '/api/admin/server-queue?status=pending');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().entries.every((e: { status: string }) => e.status === 'pending')).toBe(true);
      expect(res.json().entries.some((e: { id: number }) => e.id === entryId)).toBe(true);
      expect(res.json()).toMatchObject({ page: 1, per_page: 25 });
      expect((await call(world, world.admin, 'GET', '/api/admin/server-queue?status=lost')).statusCode).toBe(400);
      expect((await call(world, world.admin, 'GET', '/api/admin/server-queue?page=-1')).statusCode).toBe(400);

      // (other entries may be due in the same run: the fault hits every create)
      world.ptero.fault({ method: 'POST', path: '/servers', kind: 'error', status: 500, times: Infinity });
      await runQueue(world);
      world.ptero.clearFaults();
      res = await call(world, world.admin, 'GET', `/api/admin/server-queue/${entryId}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().entry).toMatchObject({ id: entryId, status: 'pending', attempts: 1, owner: { uuid: user.uuid } });
      expect(res.json().logs).toEqual([expect.objectContaining({ entry_id: entryId, attempt: 1, outcome: 'retry' })]);
      expect((await call(world, world.admin, 'GET', '/api/admin/server-queue/99999')).statusCode).toBe(404);
      expect((await call(world, world.admin, 'GET', '/api/admin/server-queue/x')).statusCode).toBe(400);

      res = await call(world, world.admin, 'GET', '/api/admin/server-queue/logs?page=1');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().logs[0]).toMatchObject({ entry_id: entryId, entry_name: 'Listed', outcome: 'retry', owner: { uuid: user.uuid } });
      expect(res.json().total).toBeGreaterThan(0);

      expect((await call(world, world.admin, 'POST', `/api/admin/server-queue/${entryId}/delete`)).json()).toEqual({ ok: true });
      expect(await entryRow(entryId)).toBeUndefined();
      expect((await call(world, world.admin, 'POST', `/api/admin/server-queue/${entryId}/delete`)).statusCode).toBe(404);
    });

    it('answers 403 without the permission, each route its own', async () => {
      const user = await customer(world);
      const entryId = await queueFor(user);
      const routes: Array<['GET' | 'POST', string, string, object | undefined, number]> = [
        ['GET', '/api/admin/server-queue', 'admin.server.queue.list', undefined, 200],
        ['GET', `/api/admin/server-queue/${entryId}`, 'admin.server.queue.view', undefined, 200],
        ['GET', '/api/admin/server-queue/logs', 'admin.server.queue.logs.view', undefined, 200],
        ['POST', '/api/admin/server-queue', 'admin.server.queue.create', { user_uuid: user.uuid, ...createBody(world, { ram: 512 }) }, 201],
        ['POST', `/api/admin/server-queue/${entryId}/delete`, 'admin.server.queue.delete', undefined, 200],
      ];
      const other = await customer(world, {}, await roleWith(world.panel, ['admin.servers.list']));
      for (const [method, url, permission, payload, ok] of routes) {
        expect((await call(world, user, method, url, payload)).statusCode, url).toBe(403);
        expect((await call(world, other, method, url, payload)).statusCode, url).toBe(403);
        const holder = await customer(world, {}, await roleWith(world.panel, [permission]));
        expect((await call(world, holder, method, url, payload)).statusCode, `${url} with ${permission}`).toBe(ok);
      }
    });
  });
});
