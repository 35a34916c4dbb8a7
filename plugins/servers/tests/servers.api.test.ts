// The customer's server API against the Pterodactyl stand-in: the create form's choices and every
// creation rule (each bad input a 4xx that changes nothing), one create at a time per user even when
// requests race, resize (only the increase is checked), delete (panel first), the servers counter,
// and the admin server list with its permissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, roleWith, testDialects, type SignedInUser } from '../../../tests/api/harness';
import { builtServer, call, createBody, customer, runQueue, startServersWorld, type ServersWorld } from '../../../tests/api/servers-world';

describe.each(testDialects())('servers (%s)', (dialect) => {
  let world: ServersWorld;
  beforeAll(async () => {
    world = await startServersWorld(dialect);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  const db = () => world.panel.services.database.db;
  const queueRows = async (userId: number) =>
    (await db()
      .selectFrom('server_queue' as never)
      .selectAll()
      .where('user_id' as never, '=', userId as never)
      .execute()) as unknown as { id: number; status: string }[];
  const serverRows = async (userId: number) =>
    (await db()
      .selectFrom('servers' as never)
      .selectAll()
      .where('user_id' as never, '=', userId as never)
      .execute()) as unknown as { id: number; ram: number; panel_id: number }[];
  const counter = async (userId: number) =>
    Number((await db().selectFrom('user_counters').select('value').where('user_id', '=', userId).where('name', '=', 'servers').executeTakeFirst())?.value ?? 0);
  const setting = (key: string, value: string | number | boolean) => world.panel.services.settings.set(key, value);
  const patchCatalog = async (url: string, payload: object) => {
    const res = await world.panel.app.inject({ method: 'PATCH', url, payload, headers: { cookie: world.admin.cookie } });
    expect(res.statusCode, res.body).toBe(200);
  };

  describe('the create form', () => {
    it('lists enabled locations and eggs, VIP ones flagged, with free and total resources', async () => {
      const user = await customer(world);
      const res = await call(world, user, 'GET', '/api/user/server/create');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.locations.map((l: { name: string }) => l.name)).toEqual(['Bucharest', 'New York']);
      expect(body.locations[0]).toMatchObject({ vipOnly: false, available: true, reason: null, slots: 50 });
      expect(body.locations[1]).toMatchObject({ vipOnly: true, available: false, reason: 'VIP_ONLY' });
      expect(body.categories[0].eggs).toEqual([expect.objectContaining({ name: 'Paper', vipOnly: false }), expect.objectContaining({ name: 'Vanilla', vipOnly: true })]);
      expect(body.free).toEqual({ ram: 4096, disk: 8192, cpu: 200, ports: 4, databases: 2, backups: 2, server_slots: 2 });
      expect(body.minimums).toEqual({ ram: 256, cpu: 5, disk: 256, ports: 1, databases: 0, backups: 0 });
      expect(body.blockers).toEqual([]);
      expect(body.vip).toBe(false);
    });

    it('opens VIP locations to user.permission.vip', async () => {
      const vip = await customer(world, {}, await roleWith(world.panel, ['user.permission.vip']));
      const body = (await call(world, vip, 'GET', '/api/user/server/create')).json();
      expect(body.vip).toBe(true);
      expect(body.locations[1]).toMatchObject({ available: true, reason: null });
      const res = await call(world, vip, 'POST', '/api/user/server/create', createBody(world, { location_id: world.catalog.us, egg_id: world.catalog.vanilla }));
      expect(res.statusCode, res.body).toBe(201);
    });

    it('hides disabled locations and marks one in maintenance unavailable', async () => {
      const user = await customer(world);
      await patchCatalog(`/api/admin/locations/${world.catalog.us}`, { enabled: false });
      await patchCatalog(`/api/admin/locations/${world.catalog.ro}`, { status: 'maintenance' });
      try {
        const body = (await call(world, user, 'GET', '/api/user/server/create')).json();
        expect(body.locations).toHaveLength(1);
        expect(body.locations[0]).toMatchObject({ name: 'Bucharest', available: false, reason: 'LOCATION_UNAVAILABLE' });
        const res = await call(world, user, 'POST', '/api/user/server/create', createBody(world));
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'LOCATION_UNAVAILABLE', field: 'location_id' });
      } finally {
        await patchCatalog(`/api/admin/locations/${world.catalog.us}`, { enabled: true });
        await patchCatalog(`/api/admin/locations/${world.catalog.ro}`, { status: 'online' });
      }
      expect(await queueRows(user.id)).toEqual([]);
    });

    it('names the blockers: a pending entry, no free slot, too little left', async () => {
      const user = await customer(world, { server_slots: 1 });
      expect((await call(world, user, 'POST', '/api/user/server/create', createBody(world))).statusCode).toBe(201);
      let body = (await call(world, user, 'GET', '/api/user/server/create')).json();
      expect(body.blockers).toEqual(['PENDING_ENTRY', 'NO_FREE_SLOT']);
      expect(body.free).toMatchObject({ ram: 3072, disk: 6144, server_slots: 0 });
      const poor = await customer(world, { ram: 128 });
      body = (await call(world, poor, 'GET', '/api/user/server/create')).json();
      expect(body.blockers).toEqual(['NOT_ENOUGH_RESOURCES']);
    });
  });

  describe('creating', () => {
    const bad: Array<[string, Record<string, unknown>, number, string, string | undefined]> = [
      ['no name', { name: undefined }, 400, 'VALIDATION_ERROR', 'name'],
      ['an empty name', { name: '' }, 400, 'VALIDATION_ERROR', 'name'],
      ['a blank name', { name: '   ' }, 400, 'VALIDATION_ERROR', 'name'],
      ['a name of 65 characters', { name: 'x'.repeat(65) }, 400, 'VALIDATION_ERROR', 'name'],
      ['a description too long', { description: 'x'.repeat(256) }, 400, 'VALIDATION_ERROR', 'description'],
      ['ram as text', { ram: 'lots' }, 400, 'VALIDATION_ERROR', 'ram'],
      ['a negative disk', { disk: -1 }, 400, 'VALIDATION_ERROR', 'disk'],
      ['a fractional cpu', { cpu: 50.5 }, 400, 'VALIDATION_ERROR', 'cpu'],
      ['no location', { location_id: undefined }, 400, 'VALIDATION_ERROR', 'location_id'],
      ['location id 0', { location_id: 0 }, 400, 'VALIDATION_ERROR', 'location_id'],
      ['no backups', { backups: undefined }, 400, 'VALIDATION_ERROR', 'backups'],
      ['ram below 256', { ram: 255 }, 400, 'BELOW_MINIMUM', 'ram'],
      ['cpu below 5', { cpu: 4 }, 400, 'BELOW_MINIMUM', 'cpu'],
      ['disk below 256', { disk: 255 }, 400, 'BELOW_MINIMUM', 'disk'],
      ['no port', { ports: 0 }, 400, 'BELOW_MINIMUM', 'ports'],
      ['an unknown location', { location_id: 9999 }, 400, 'LOCATION_UNAVAILABLE', 'location_id'],
      ['an unknown egg', { egg_id: 9999 }, 400, 'EGG_UNAVAILABLE', 'egg_id'],
      ['a VIP location', { location_id: -1 }, 403, 'VIP_ONLY', 'location_id'],
      ['a VIP egg', { egg_id: -1 }, 403, 'VIP_ONLY', 'egg_id'],
      ['more ram than free', { ram: 4097 }, 409, 'NOT_ENOUGH_RESOURCES', 'ram'],
      ['more disk than free', { disk: 9000 }, 409, 'NOT_ENOUGH_RESOURCES', 'disk'],
      ['more cpu than free', { cpu: 201 }, 409, 'NOT_ENOUGH_RESOURCES', 'cpu'],
      ['more ports than free', { ports: 5 }, 409, 'NOT_ENOUGH_RESOURCES', 'ports'],
      ['more databases than free', { databases: 3 }, 409, 'NOT_ENOUGH_RESOURCES', 'databases'],
      ['more backups than free', { backups: 3 }, 409, 'NOT_ENOUGH_RESOURCES', 'backups'],
    ];
    it.each(bad)('refuses %s, queuing nothing', async (_label, overrides, status, code, field) => {
      const user = await customer(world);
      const body: Record<string, unknown> = createBody(world, overrides);
      if (body.location_id === -1) body.location_id = world.catalog.us;
      if (body.egg_id === -1) body.egg_id = world.catalog.vanilla;
      for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
      const res = await call(world, user, 'POST', '/api/user/server/create', body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error).toMatchObject({ code, ...(field ? { field } : {}) });
      expect(await queueRows(user.id)).toEqual([]);
    });

    it('refuses a body that is not JSON, and no body', async () => {
      const user = await customer(world);
      const garbled = await world.panel.app.inject({
        method: 'POST',
        url: '/api/user/server/create',
        payload: '{"name":',
        headers: { cookie: user.cookie, 'content-type': 'application/json' },
      });
      expect(garbled.statusCode).toBe(400);
      const empty = await world.panel.app.inject({ method: 'POST', url: '/api/user/server/create', headers: { cookie: user.cookie } });
      expect(empty.statusCode).toBe(400);
      expect(await queueRows(user.id)).toEqual([]);
    });

    it('needs a session and allow_servers', async () => {
      expect((await call(world, null, 'GET', '/api/user/server/create')).statusCode).toBe(401);
      expect((await call(world, null, 'POST', '/api/user/server/create', createBody(world))).statusCode).toBe(401);
      const user = await customer(world);
      await setting('allow_servers', false);
      try {
        const res = await call(world, user, 'POST', '/api/user/server/create', createBody(world));
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('FEATURE_DISABLED');
        // the options still answer (resizing reads them), naming why nothing can be created
        const options = await call(world, user, 'GET', '/api/user/server/create');
        expect(options.statusCode).toBe(200);
        expect(options.json().blockers).toContain('SERVERS_DISABLED');
      } finally {
        await setting('allow_servers', true);
      }
      expect(await queueRows(user.id)).toEqual([]);
    });

    it('holds the forced Discord and GitHub links', async () => {
      const user = await customer(world);
      await setting('force_discord_link', true);
      await setting('force_github_link', true);
      try {
        let res = await call(world, user, 'POST', '/api/user/server/create', createBody(world));
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('FORCE_DISCORD_LINK');
        expect((await call(world, user, 'GET', '/api/user/server/create')).json().blockers).toEqual(['FORCE_DISCORD_LINK', 'FORCE_GITHUB_LINK']);
        const link = (provider: 'discord' | 'github') =>
          db()
            .insertInto('auth_oauth_accounts' as never)
            .values({ user_id: user.id, provider, provider_user_id: `${provider}-${user.id}`, provider_username: 'ada', created_at: new Date().toISOString() } as never)
            .execute();
        await link('discord');
        res = await call(world, user, 'POST', '/api/user/server/create', createBody(world));
        expect(res.json().error.code).toBe('FORCE_GITHUB_LINK');
        expect(await queueRows(user.id)).toEqual([]);
        await link('github');
        res = await call(world, user, 'POST', '/api/user/server/create', createBody(world));
        expect(res.statusCode, res.body).toBe(201);
      } finally {
        await setting('force_discord_link', false);
        await setting('force_github_link', false);
      }
    });

    it('queues one entry at a time, and frees it when taken back', async () => {
      const user = await customer(world);
      const first = await call(world, user, 'POST', '/api/user/server/create', createBody(world));
      expect(first.statusCode, first.body).toBe(201);
      const entry = first.json().entry;
      expect(entry).toMatchObject({ status: 'pending', name: 'My server', location: { id: world.catalog.ro, name: 'Bucharest' }, egg: { name: 'Paper' }, attempts: 0 });
      const second = await call(world, user, 'POST', '/api/user/server/create', createBody(world, { name: 'Second' }));
      expect(second.statusCode).toBe(409);
      expect(second.json().error.code).toBe('PENDING_ENTRY');
      const mine = (await call(world, user, 'GET', '/api/user/session/servers')).json();
      expect(mine.queue.map((e: { id: number }) => e.id)).toEqual([entry.id]);

      const stranger = await customer(world);
      expect((await call(world, stranger, 'POST', `/api/user/queue/${entry.id}/delete`)).statusCode).toBe(404);
      expect((await call(world, user, 'POST', '/api/user/queue/abc/delete')).statusCode).toBe(400);
      const taken = await call(world, user, 'POST', `/api/user/queue/${entry.id}/delete`);
      expect(taken.json()).toEqual({ ok: true });
      expect((await call(world, user, 'GET', '/api/user/server/create')).json().free.ram).toBe(4096);
      expect((await call(world, user, 'POST', '/api/user/server/create', createBody(world, { name: 'Second' }))).statusCode).toBe(201);
    });

    it('lets only one of two racing creates through', async () => {
      const user = await customer(world);
      const answers = await Promise.all([1, 2, 3, 4].map((n) => call(world, user, 'POST', '/api/user/server/create', createBody(world, { name: `Race ${n}` }))));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
      expect(await queueRows(user.id)).toHaveLength(1);
    });

    it('never lets racing creates spend the same free resources (admin queue: no one-pending rule)', async () => {
      const target = await customer(world, { ram: 2048, server_slots: 10 });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          call(world, world.admin, 'POST', '/api/admin/server-queue', {
            user_uuid: target.uuid,
            ...createBody(world, { name: `Race ${n}`, ram: 1024, disk: 512, cpu: 10, backups: 0 }),
          }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(2);
      expect(answers.filter((a) => a.statusCode === 409).every((a) => a.json().error.code === 'NOT_ENOUGH_RESOURCES')).toBe(true);
      expect(await queueRows(target.id)).toHaveLength(2);
    });

    it('refuses a location whose slots are all used', async () => {
      const user = await customer(world);
      const used = (await call(world, user, 'GET', '/api/user/server/create')).json().locations[0].used as number;
      await patchCatalog(`/api/admin/locations/${world.catalog.ro}`, { slots: used });
      try {
        expect((await call(world, user, 'GET', '/api/user/server/create')).json().locations[0]).toMatchObject({ available: false, reason: 'LOCATION_FULL' });
        const res = await call(world, user, 'POST', '/api/user/server/create', createBody(world));
        expect(res.statusCode).toBe(409);
        expect(res.json().error).toMatchObject({ code: 'LOCATION_FULL', field: 'location_id' });
      } finally {
        await patchCatalog(`/api/admin/locations/${world.catalog.ro}`, { slots: 50 });
      }
      expect(await queueRows(user.id)).toEqual([]);
    });
  });

  describe('a built server', () => {
    let owner: SignedInUser;
    let id: number;
    beforeAll(async () => {
      owner = await customer(world);
      id = await builtServer(world, owner);
    });

    it('is a servers row and one panel server with the egg defaults, counted for the leaderboard', async () => {
      const res = await call(world, owner, 'GET', `/api/user/server/${id}`);
      expect(res.statusCode).toBe(200);
      const server = res.json();
      expect(server).toMatchObject({
        id,
        status: 'active',
        name: 'My server',
        resources: { ram: 1024, disk: 2048, cpu: 50, ports: 1, databases: 0, backups: 1 },
        expires_at: null,
        renewal: { enabled: false, cost: 100, days: 30 },
      });
      const onPanel = world.ptero.servers().filter((s) => s.id === server.panel_id);
      expect(onPanel).toHaveLength(1);
      expect(onPanel[0]).toMatchObject({
        identifier: server.identifier,
        limits: { memory: 1024, disk: 2048, cpu: 50 },
        feature_limits: { allocations: 1, databases: 0, backups: 1 },
      });
      expect(onPanel[0].container.environment).toMatchObject({ SERVER_JARFILE: 'server.jar', BUILD_NUMBER: 'latest' });
      expect(server.panel_url).toBe(`${world.ptero.url}/server/${server.identifier}`);
      expect(await counter(owner.id)).toBe(1);
    });

    it('is not shown to others, and bad ids are 400', async () => {
      const stranger = await customer(world);
      expect((await call(world, stranger, 'GET', `/api/user/server/${id}`)).statusCode).toBe(404);
      expect((await call(world, stranger, 'POST', `/api/user/server/${id}/update`, { ram: 512, disk: 512, cpu: 10, ports: 1, databases: 0, backups: 0 })).statusCode).toBe(404);
      expect((await call(world, stranger, 'POST', `/api/user/server/${id}/delete`)).statusCode).toBe(404);
      expect((await call(world, owner, 'GET', '/api/user/server/nope')).statusCode).toBe(400);
      expect((await call(world, owner, 'GET', '/api/user/server/99999')).statusCode).toBe(404);
      expect((await call(world, null, 'GET', `/api/user/server/${id}`)).statusCode).toBe(401);
    });

    it('resizes: only the increase is checked against what is free; applied on the panel', async () => {
      const size = { ram: 1024, disk: 2048, cpu: 50, ports: 1, databases: 0, backups: 1 };
      // 4096 total, 1024 used by this server: 3072 free, so 1024 + 3072 is the most
      let res = await call(world, owner, 'POST', `/api/user/server/${id}/update`, { ...size, ram: 4097 });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'NOT_ENOUGH_RESOURCES', field: 'ram' });
      res = await call(world, owner, 'POST', `/api/user/server/${id}/update`, { ...size, cpu: 4 });
      expect(res.json().error).toMatchObject({ code: 'BELOW_MINIMUM', field: 'cpu' });
      res = await call(world, owner, 'POST', `/api/user/server/${id}/update`, { ...size, ram: 'x' });
      expect(res.statusCode).toBe(400);
      res = await call(world, owner, 'POST', `/api/user/server/${id}/update`, { ram: 2048 });
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect((await serverRows(owner.id))[0].ram).toBe(1024);

      res = await call(world, owner, 'POST', `/api/user/server/${id}/update`, { ...size, ram: 4096, disk: 512 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().resources).toMatchObject({ ram: 4096, disk: 512 });
      const panelId = res.json().panel_id;
      expect(world.ptero.servers().find((s) => s.id === panelId)!.limits).toMatchObject({ memory: 4096, disk: 512 });
      expect((await call(world, owner, 'GET', '/api/user/server/create')).json().free).toMatchObject({ ram: 0, disk: 8192 - 512 });

      // the panel refuses: nothing changes here
      world.ptero.fault({ method: 'PATCH', path: /^\/servers\/\d+\/build$/, kind: 'error', status: 500, times: 5 });
      res = await call(world, owner, 'POST', `/api/user/server/${id}/update`, { ...size, ram: 512 });
      world.ptero.clearFaults();
      expect(res.statusCode).toBe(502);
      expect(res.json().error.code).toBe('PANEL_FAILED');
      expect((await serverRows(owner.id))[0].ram).toBe(4096);

      // the panel applies it but its answers are lost (the client's retry too): what the panel now holds is kept
      world.ptero.fault({ method: 'PATCH', path: /^\/servers\/\d+\/build$/, kind: 'timeout-after-effect', times: 2 });
      res = await call(world, owner, 'POST', `/api/user/server/${id}/update`, { ...size, ram: 2048 });
      world.ptero.clearFaults();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().resources.ram).toBe(2048);
      expect((await serverRows(owner.id))[0].ram).toBe(2048);

      res = await call(world, owner, 'POST', `/api/user/server/${id}/update`, size);
      expect(res.statusCode).toBe(200);
      expect(world.ptero.servers().find((s) => s.id === panelId)!.limits).toMatchObject({ memory: 1024, disk: 2048 });
    });

    it('is deleted on the panel first: a panel failure keeps it, then it goes and its resources are freed', async () => {
      const user = await customer(world);
      const serverId = await builtServer(world, user, { name: 'Doomed' });
      const panelId = (await serverRows(user.id))[0].panel_id;
      world.ptero.fault({ method: 'DELETE', path: `/servers/${panelId}`, kind: 'error', status: 500, times: 5 });
      let res = await call(world, user, 'POST', `/api/user/server/${serverId}/delete`);
      world.ptero.clearFaults();
      expect(res.statusCode).toBe(502);
      expect(await serverRows(user.id)).toHaveLength(1);
      expect(await counter(user.id)).toBe(1);

      res = await call(world, user, 'POST', `/api/user/server/${serverId}/delete`);
      expect(res.json()).toEqual({ ok: true });
      expect(await serverRows(user.id)).toHaveLength(0);
      expect(world.ptero.servers().some((s) => s.id === panelId)).toBe(false);
      expect(await counter(user.id)).toBe(0);
      expect((await call(world, user, 'GET', '/api/user/server/create')).json().free).toMatchObject({ ram: 4096, server_slots: 2 });
      expect((await call(world, user, 'POST', `/api/user/server/${serverId}/delete`)).statusCode).toBe(404);
    });

    it('counts a server the panel no longer has as deleted', async () => {
      const user = await customer(world);
      const serverId = await builtServer(world, user, { name: 'Gone' });
      const panelId = (await serverRows(user.id))[0].panel_id;
      const admin = await fetch(`${world.ptero.url}/api/application/servers/${panelId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${world.ptero.apiKey}`, accept: 'application/json' },
      });
      expect(admin.status).toBe(204);
      expect((await call(world, user, 'POST', `/api/user/server/${serverId}/delete`)).json()).toEqual({ ok: true });
      expect(await serverRows(user.id)).toHaveLength(0);
    });
  });

  describe('an account deleted', () => {
    const onPanel = (name: string) => world.ptero.servers().filter((s) => s.name === name).length;

    it('by itself takes its servers off the panel before its rows go', async () => {
      const user = await customer(world);
      await builtServer(world, user, { name: 'Leaving Keep' });
      expect(onPanel('Leaving Keep')).toBe(1);
      const res = await call(world, user, 'POST', '/api/user/session/delete-account', { password: PASSWORD });
      expect(res.statusCode, res.body).toBe(200);
      expect(onPanel('Leaving Keep')).toBe(0);
    });

    it('by an administrator takes its servers off the panel too', async () => {
      const user = await customer(world);
      await builtServer(world, user, { name: 'Banned Fort' });
      const res = await world.panel.app.inject({ method: 'DELETE', url: `/api/admin/users/${user.uuid}`, headers: { cookie: world.admin.cookie } });
      expect(res.statusCode, res.body).toBe(200);
      expect(onPanel('Banned Fort')).toBe(0);
      expect(await world.panel.services.database.db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()).toBeUndefined();
    });
  });

  describe('administration', () => {
    it('lists servers with their owners, searched and paged', async () => {
      const user = await customer(world);
      await builtServer(world, user, { name: 'Findable Castle' });
      const res = await call(world, world.admin, 'GET', '/api/admin/servers?search=findable&page=1');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ total: 1, page: 1, per_page: 25 });
      expect(res.json().servers[0]).toMatchObject({ name: 'Findable Castle', owner: { uuid: user.uuid, username: user.username } });
      const byOwner = (await call(world, world.admin, 'GET', `/api/admin/servers?search=${encodeURIComponent(user.username.toUpperCase())}`)).json();
      expect(byOwner.total).toBe(1);
      expect((await call(world, world.admin, 'GET', '/api/admin/servers?search=%25')).json().total).toBe(0);
      expect((await call(world, world.admin, 'GET', '/api/admin/servers?page=0')).statusCode).toBe(400);
      expect((await call(world, world.admin, 'GET', '/api/admin/servers?page=x')).statusCode).toBe(400);
    });

    it('suspends, unsuspends and deletes on the panel', async () => {
      const user = await customer(world);
      const id = await builtServer(world, user, { name: 'Watched' });
      let res = await call(world, world.admin, 'POST', `/api/admin/servers/${id}/suspend`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'suspended', owner: { uuid: user.uuid } });
      const panelId = res.json().panel_id;
      expect(world.ptero.servers().find((s) => s.id === panelId)!.suspended).toBe(true);
      res = await call(world, world.admin, 'POST', `/api/admin/servers/${id}/unsuspend`);
      expect(res.json()).toMatchObject({ status: 'active', suspended_at: null });
      expect(world.ptero.servers().find((s) => s.id === panelId)!.suspended).toBe(false);
      expect((await call(world, world.admin, 'POST', '/api/admin/servers/99999/suspend')).statusCode).toBe(404);
      for (const action of ['suspend', 'unsuspend', 'delete']) expect((await call(world, world.admin, 'POST', `/api/admin/servers/x/${action}`)).statusCode).toBe(400);
      expect((await call(world, world.admin, 'POST', `/api/admin/servers/${id}/delete`)).json()).toEqual({ ok: true });
      expect(world.ptero.servers().some((s) => s.id === panelId)).toBe(false);
    });

    it('answers 403 without the permission, each route its own', async () => {
      const user = await customer(world);
      const id = await builtServer(world, user, { name: 'Guarded' });
      const routes: Array<['GET' | 'POST', string, string]> = [
        ['GET', '/api/admin/servers', 'admin.servers.list'],
        ['POST', `/api/admin/servers/${id}/suspend`, 'admin.servers.edit'],
        ['POST', `/api/admin/servers/${id}/unsuspend`, 'admin.servers.edit'],
        ['POST', `/api/admin/servers/${id}/delete`, 'admin.servers.delete'],
      ];
      const other = await customer(world, {}, await roleWith(world.panel, ['admin.server.queue.list']));
      for (const [method, url, permission] of routes) {
        expect((await call(world, user, method, url)).statusCode, url).toBe(403);
        expect((await call(world, other, method, url)).statusCode, url).toBe(403);
        const holder = await customer(world, {}, await roleWith(world.panel, [permission]));
        expect((await call(world, holder, method, url)).statusCode, `${url} with ${permission}`).toBe(200);
      }
      await runQueue(world);
    });
  });
});
