// The server-catalog plugin on every dialect: locations, egg categories and eggs are created, read,
// searched, edited and deleted by administrators holding the matching permission (spec §2, §6); every
// bad input answers a 4xx with the field and changes nothing; a link to a panel object is checked on
// the panel (a real HTTP stand-in) and unique; an egg's nest is its category's; a category is deleted
// only without eggs; the import from the panel adds what is missing (disabled), renames what is
// linked, reports what the panel lost, and adds each panel object once when run twice or at once; a
// panel that cannot be asked answers a clear 5xx and nothing is saved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { httpError, type CoreDatabase, type ServerPluginContext } from '@orepanel/sdk/server';
import type { ServerCatalog } from '../contract';
import { serverCatalog } from '../server/catalog-service';
import { EggCategories } from '../server/egg-categories';
import { Eggs } from '../server/eggs';
import { Locations } from '../server/locations';
import type { CatalogTables } from '../server/tables';
import { startPterodactylPanel, type PterodactylStandIn, type SampleWorld } from '../../../tests/fixtures/pterodactyl-panel';
import { pluginView, roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

const LOCATIONS = '/api/admin/locations';
const CATEGORIES = '/api/admin/egg-categories';
const EGGS = '/api/admin/eggs';
const SYNC = '/api/admin/catalog/sync';
const PANEL_OBJECTS = '/api/admin/catalog/panel-objects';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

const CATALOG_PERMISSIONS = ['locations', 'nests', 'egg'].flatMap((area) => ['list', 'create', 'edit', 'delete'].map((p) => `admin.${area}.${p}`));

async function usePanel(panel: TestPanel, standIn: PterodactylStandIn): Promise<void> {
  await panel.services.settings.set('pterodactyl_base_url', standIn.url);
  await panel.services.settings.set('pterodactyl_api_key', standIn.apiKey);
}

describe.each(testDialects())('server catalog on %s', (dialect) => {
  let panel: TestPanel;
  let standIn: PterodactylStandIn;
  let world: SampleWorld;
  let admin: SignedInUser;

  beforeAll(async () => {
    standIn = await startPterodactylPanel();
    world = standIn.seedSample();
    panel = await startPanel(dialect, { jobs: false });
    await usePanel(panel, standIn);
    admin = await userWithRole(panel, 8);
  }, 60_000);
  afterAll(async () => {
    await panel?.close();
    await standIn?.close();
  });

  const db = () => panel.services.database.db as unknown as Kysely<CoreDatabase & CatalogTables>;
  const call = (method: Method, url: string, payload?: unknown, who: SignedInUser = admin) =>
    panel.app.inject({ method, url, payload: payload as Record<string, unknown> | undefined, headers: { cookie: who.cookie } });
  const count = async (table: keyof CatalogTables) =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const snapshot = async () => ({
    locations: await db().selectFrom('catalog_locations').selectAll().orderBy('id').execute(),
    categories: await db().selectFrom('catalog_egg_categories').selectAll().orderBy('id').execute(),
    eggs: await db().selectFrom('catalog_eggs').selectAll().orderBy('id').execute(),
  });
  /** the server-catalog.catalog service over this panel's database (the host keeps its registry to itself) */
  const catalogService = (): ServerCatalog => {
    const ctx = { clock: panel.services.clock, httpError } as unknown as ServerPluginContext;
    const catalogDb = pluginView(panel).withTables<CatalogTables>();
    return serverCatalog(new Locations(catalogDb, ctx), new EggCategories(catalogDb, ctx), new Eggs(catalogDb, ctx));
  };
  const auditOf = (action: string) => db().selectFrom('audit_log').select(['action', 'actor_user_id', 'details']).where('action', '=', action).orderBy('id').execute();

  async function created<T>(url: string, body: unknown, key: string): Promise<T> {
    const res = await call('POST', url, body);
    if (res.statusCode !== 201) throw new Error(`create ${url} failed: ${res.statusCode} ${res.body}`);
    return res.json()[key] as T;
  }

  describe('locations', () => {
    it('are created linked to a panel location, read, searched, edited in part and deleted, each change audited', async () => {
      const location = await created<Record<string, unknown> & { id: number }>(
        LOCATIONS,
        {
          name: '  Bucharest  ',
          description: 'Fast in Eastern Europe',
          panel_location_id: world.locations.ro.id,
          slots: 25,
          status: 'online',
          vip_only: true,
          image: 'https://cdn.example.com/ro.png',
        },
        'location',
      );
      expect(location).toMatchObject({
        name: 'Bucharest',
        description: 'Fast in Eastern Europe',
        panel_location_id: world.locations.ro.id,
        slots: 25,
        status: 'online',
        vip_only: true,
        enabled: true,
        image: 'https://cdn.example.com/ro.png',
      });
      expect(typeof location.created_at).toBe('string');

      const one = await call('GET', `${LOCATIONS}/${location.id}`);
      expect(one.statusCode).toBe(200);
      expect(one.json().location).toEqual(location);

      for (const search of ['buchar', 'BUCH', String(world.locations.ro.id)]) {
        const list = await call('GET', `${LOCATIONS}?search=${encodeURIComponent(search)}`);
        expect(list.statusCode).toBe(200);
        expect(
          list.json().data.map((l: { id: number }) => l.id),
          search,
        ).toContain(location.id);
      }
      const none = await call('GET', `${LOCATIONS}?search=${encodeURIComponent('100%_nothing')}`);
      expect(none.json()).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0, total_pages: 0 } });

      const edited = await call('PATCH', `${LOCATIONS}/${location.id}`, { status: 'maintenance', slots: 30, image: '', description: null });
      expect(edited.statusCode).toBe(200);
      expect(edited.json().location).toMatchObject({ name: 'Bucharest', status: 'maintenance', slots: 30, image: null, description: null, vip_only: true });

      // relinking to another panel location is checked on the panel too
      const relinked = await call('PATCH', `${LOCATIONS}/${location.id}`, { panel_location_id: world.locations.us.id, name: 'New York' });
      expect(relinked.statusCode).toBe(200);
      expect(relinked.json().location).toMatchObject({ panel_location_id: world.locations.us.id, name: 'New York' });

      const deleted = await call('DELETE', `${LOCATIONS}/${location.id}`);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ success: true });
      expect((await call('GET', `${LOCATIONS}/${location.id}`)).statusCode).toBe(404);
      expect((await call('DELETE', `${LOCATIONS}/${location.id}`)).json().error.code).toBe('LOCATION_NOT_FOUND');

      const actions = (await db().selectFrom('audit_log').select(['action', 'actor_user_id', 'details']).where('action', 'like', 'admin.location.%').execute()).filter(
        (a) => (JSON.parse(a.details) as { location_id?: number }).location_id === location.id,
      );
      expect(actions.map((a) => a.action)).toEqual(['admin.location.create', 'admin.location.update', 'admin.location.update', 'admin.location.delete']);
      expect(actions.every((a) => Number(a.actor_user_id) === admin.id)).toBe(true);
    });

    it('refuses every bad input with a 4xx naming the field, and changes nothing', async () => {
      const kept = await created<{ id: number }>(LOCATIONS, { name: 'Kept', panel_location_id: world.locations.ro.id }, 'location');
      const before = await snapshot();
      const good = { name: 'Somewhere', panel_location_id: world.locations.us.id };
      const cases: [unknown, number, string, string | undefined][] = [
        [{ panel_location_id: world.locations.us.id }, 400, 'VALIDATION_ERROR', 'name'],
        [{ ...good, name: '   ' }, 400, 'VALIDATION_ERROR', 'name'],
        [{ ...good, name: 'x'.repeat(101) }, 400, 'VALIDATION_ERROR', 'name'],
        [{ name: 'Somewhere' }, 400, 'VALIDATION_ERROR', 'panel_location_id'],
        [{ ...good, panel_location_id: 0 }, 400, 'VALIDATION_ERROR', 'panel_location_id'],
        [{ ...good, panel_location_id: 'abc' }, 400, 'VALIDATION_ERROR', 'panel_location_id'],
        [{ ...good, panel_location_id: 1.5 }, 400, 'VALIDATION_ERROR', 'panel_location_id'],
        [{ ...good, slots: -1 }, 400, 'VALIDATION_ERROR', 'slots'],
        [{ ...good, slots: 2_000_000 }, 400, 'VALIDATION_ERROR', 'slots'],
        [{ ...good, status: 'broken' }, 400, 'VALIDATION_ERROR', 'status'],
        [{ ...good, vip_only: 'maybe' }, 400, 'VALIDATION_ERROR', 'vip_only'],
        [{ ...good, enabled: 'perhaps' }, 400, 'VALIDATION_ERROR', 'enabled'],
        [{ ...good, image: 'javascript:alert(1)' }, 400, 'VALIDATION_ERROR', 'image'],
        [{ ...good, image: 'ftp://example.com/a.png' }, 400, 'VALIDATION_ERROR', 'image'],
        [{ ...good, image: '//evil.example.com/a.png' }, 400, 'VALIDATION_ERROR', 'image'],
        [{ ...good, description: 'd'.repeat(1001) }, 400, 'VALIDATION_ERROR', 'description'],
        // the panel has no such location: its reason comes back on the field
        [{ ...good, panel_location_id: 9999 }, 400, 'PANEL_LOCATION_NOT_FOUND', 'panel_location_id'],
        // already linked to another location
        [{ ...good, panel_location_id: world.locations.ro.id }, 409, 'LOCATION_LINK_TAKEN', 'panel_location_id'],
      ];
      for (const [body, status, code, field] of cases) {
        const res = await call('POST', LOCATIONS, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json().error, JSON.stringify(body)).toMatchObject({ code, ...(field ? { field } : {}) });
      }
      const notFound = await call('POST', LOCATIONS, { ...good, panel_location_id: 9999 });
      expect(notFound.json().error.message).toContain('9999');

      const edits: [unknown, number, string, string | undefined][] = [
        [{}, 400, 'VALIDATION_ERROR', undefined],
        [{ name: '' }, 400, 'VALIDATION_ERROR', 'name'],
        [{ status: 'gone' }, 400, 'VALIDATION_ERROR', 'status'],
        [{ panel_location_id: 9999 }, 400, 'PANEL_LOCATION_NOT_FOUND', 'panel_location_id'],
        [{ name: 'Fine', image: 'data:image/png;base64,AAAA' }, 400, 'VALIDATION_ERROR', 'image'],
      ];
      for (const [body, status, code, field] of edits) {
        const res = await call('PATCH', `${LOCATIONS}/${kept.id}`, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json().error, JSON.stringify(body)).toMatchObject({ code, ...(field ? { field } : {}) });
      }
      for (const url of [`${LOCATIONS}/0`, `${LOCATIONS}/abc`]) expect((await call('GET', url)).statusCode).toBe(400);
      expect((await call('PATCH', `${LOCATIONS}/999999`, { name: 'Nobody' })).statusCode).toBe(404);
      expect((await call('GET', `${LOCATIONS}?per_page=1000`)).statusCode).toBe(400);
      expect(await snapshot()).toEqual(before);
      expect((await call('DELETE', `${LOCATIONS}/${kept.id}`)).statusCode).toBe(200);
    });

    it('links one panel location once, also when two administrators add it at the same moment', async () => {
      const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => call('POST', LOCATIONS, { name: `Race ${i}`, panel_location_id: world.locations.us.id })));
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.statusCode !== 201).every((a) => a.statusCode === 409 && a.json().error.code === 'LOCATION_LINK_TAKEN')).toBe(true);
      const rows = await db().selectFrom('catalog_locations').selectAll().where('panel_location_id', '=', world.locations.us.id).execute();
      expect(rows).toHaveLength(1);
      await db().deleteFrom('catalog_locations').execute();
    });
  });

  describe('egg categories and eggs', () => {
    it('keep an egg in an existing category of the same nest, refuse a category with eggs being deleted or moved, and audit it all', async () => {
      const minecraft = await created<{ id: number; panel_nest_id: number; eggs: number }>(
        CATEGORIES,
        { name: 'Minecraft', panel_nest_id: world.nests.minecraft.id, image: '/images/mc.png' },
        'category',
      );
      expect(minecraft).toMatchObject({ name: 'Minecraft', panel_nest_id: world.nests.minecraft.id, eggs: 0, enabled: true, vip_only: false, image: '/images/mc.png' });
      const rust = await created<{ id: number }>(CATEGORIES, { name: 'Rust', panel_nest_id: world.nests.rust.id, vip_only: true }, 'category');

      const before = await snapshot();
      const badCategories: [unknown, number, string, string | undefined][] = [
        [{ name: 'Nowhere', panel_nest_id: 4242 }, 400, 'PANEL_NEST_NOT_FOUND', 'panel_nest_id'],
        [{ name: 'Twice', panel_nest_id: world.nests.minecraft.id }, 409, 'CATEGORY_LINK_TAKEN', 'panel_nest_id'],
        [{ name: ' ', panel_nest_id: 77 }, 400, 'VALIDATION_ERROR', 'name'],
        [{ name: 'No nest' }, 400, 'VALIDATION_ERROR', 'panel_nest_id'],
      ];
      for (const [body, status, code, field] of badCategories) {
        const res = await call('POST', CATEGORIES, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json().error).toMatchObject({ code, ...(field ? { field } : {}) });
      }

      const paper = await created<{ id: number }>(EGGS, { name: 'Paper', category_id: minecraft.id, panel_egg_id: world.eggs.paper.id, description: 'Fast' }, 'egg');
      expect(paper).toMatchObject({
        name: 'Paper',
        category_id: minecraft.id,
        category_name: 'Minecraft',
        panel_nest_id: world.nests.minecraft.id,
        panel_egg_id: world.eggs.paper.id,
        description: 'Fast',
        enabled: true,
      });
      const badEggs: [unknown, number, string, string | undefined][] = [
        [{ name: 'Ghost', category_id: 999_999, panel_egg_id: world.eggs.vanilla.id }, 400, 'CATEGORY_NOT_FOUND', 'category_id'],
        [{ name: 'Other nest', category_id: minecraft.id, panel_nest_id: world.nests.rust.id, panel_egg_id: world.eggs.vanilla.id }, 400, 'EGG_NEST_MISMATCH', 'panel_nest_id'],
        // the Rust egg is not in the Minecraft nest: the panel does not find it there
        [{ name: 'Wrong nest', category_id: minecraft.id, panel_egg_id: world.eggs.rust.id }, 400, 'PANEL_EGG_NOT_FOUND', 'panel_egg_id'],
        [{ name: 'Unknown', category_id: minecraft.id, panel_egg_id: 9090 }, 400, 'PANEL_EGG_NOT_FOUND', 'panel_egg_id'],
        [{ name: 'Again', category_id: minecraft.id, panel_egg_id: world.eggs.paper.id }, 409, 'EGG_LINK_TAKEN', 'panel_egg_id'],
        [{ name: 'No egg', category_id: minecraft.id }, 400, 'VALIDATION_ERROR', 'panel_egg_id'],
        [{ name: 'No category', panel_egg_id: world.eggs.vanilla.id }, 400, 'VALIDATION_ERROR', 'category_id'],
      ];
      const withPaper = await snapshot();
      for (const [body, status, code, field] of badEggs) {
        const res = await call('POST', EGGS, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json().error, JSON.stringify(body)).toMatchObject({ code, ...(field ? { field } : {}) });
      }
      // moving Paper into the Rust category would put a Minecraft egg under the Rust nest
      const moved = await call('PATCH', `${EGGS}/${paper.id}`, { category_id: rust.id });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().error).toMatchObject({ code: 'PANEL_EGG_NOT_FOUND', field: 'panel_egg_id' });
      expect(await snapshot()).toEqual(withPaper);
      expect(before.categories).toEqual(withPaper.categories);

      const vanilla = await created<{ id: number }>(
        EGGS,
        { name: 'Vanilla', category_id: minecraft.id, panel_nest_id: world.nests.minecraft.id, panel_egg_id: world.eggs.vanilla.id },
        'egg',
      );
      const renamed = await call('PATCH', `${EGGS}/${vanilla.id}`, { name: 'Vanilla Minecraft', vip_only: true, enabled: false });
      expect(renamed.json().egg).toMatchObject({ name: 'Vanilla Minecraft', vip_only: true, enabled: false, panel_egg_id: world.eggs.vanilla.id });

      expect((await call('GET', `${CATEGORIES}/${minecraft.id}`)).json().category.eggs).toBe(2);
      expect((await call('GET', `${EGGS}/category-choices`)).json()).toEqual({
        categories: [
          { id: minecraft.id, name: 'Minecraft', panel_nest_id: world.nests.minecraft.id, enabled: true },
          { id: rust.id, name: 'Rust', panel_nest_id: world.nests.rust.id, enabled: true },
        ],
      });
      const filtered = await call('GET', `${EGGS}?category_id=${minecraft.id}&search=van`);
      expect(filtered.json().data.map((e: { id: number }) => e.id)).toEqual([vanilla.id]);
      expect((await call('GET', `${EGGS}?category_id=${rust.id}`)).json().meta.total).toBe(0);

      const blocked = await call('DELETE', `${CATEGORIES}/${minecraft.id}`);
      expect(blocked.statusCode).toBe(409);
      expect(blocked.json().error.code).toBe('CATEGORY_HAS_EGGS');
      const renested = await call('PATCH', `${CATEGORIES}/${minecraft.id}`, { panel_nest_id: world.nests.rust.id });
      expect(renested.statusCode).toBe(409);
      const nestMove = await call('PATCH', `${CATEGORIES}/${rust.id}`, { panel_nest_id: world.nests.minecraft.id });
      expect(nestMove.statusCode).toBe(409);
      expect(nestMove.json().error).toMatchObject({ code: 'CATEGORY_LINK_TAKEN', field: 'panel_nest_id' });
      expect(await count('catalog_egg_categories')).toBe(2);
      expect(await count('catalog_eggs')).toBe(2);

      // the service the servers plugin reads
      const catalog = catalogService();
      expect((await catalog.eggs()).map((e) => [e.name, e.categoryId, e.panelNestId, e.panelEggId, e.enabled])).toEqual([
        ['Paper', minecraft.id, world.nests.minecraft.id, world.eggs.paper.id, true],
        ['Vanilla Minecraft', minecraft.id, world.nests.minecraft.id, world.eggs.vanilla.id, false],
      ]);
      expect(await catalog.category(rust.id)).toEqual({
        id: rust.id,
        name: 'Rust',
        description: null,
        panelNestId: world.nests.rust.id,
        vipOnly: true,
        enabled: true,
        image: null,
      });
      expect(await catalog.egg(999_999)).toBeNull();

      for (const egg of [paper, vanilla]) expect((await call('DELETE', `${EGGS}/${egg.id}`)).statusCode).toBe(200);
      expect((await call('DELETE', `${CATEGORIES}/${minecraft.id}`)).statusCode).toBe(200);
      expect((await call('DELETE', `${CATEGORIES}/${rust.id}`)).statusCode).toBe(200);
      expect((await auditOf('admin.egg.create')).length).toBe(2);
      expect((await auditOf('admin.egg_category.delete')).length).toBe(2);
    });
  });

  describe('permissions', () => {
    it('answers 403 to an administrator who lacks the one permission a route needs, and lets one who holds it through', async () => {
      const category = await created<{ id: number }>(CATEGORIES, { name: 'Perm nest', panel_nest_id: world.nests.rust.id }, 'category');
      const egg = await created<{ id: number }>(EGGS, { name: 'Perm egg', category_id: category.id, panel_egg_id: world.eggs.rust.id }, 'egg');
      const location = await created<{ id: number }>(LOCATIONS, { name: 'Perm loc', panel_location_id: world.locations.ro.id }, 'location');
      const routes: [Method, string, unknown, string][] = [
        ['GET', LOCATIONS, undefined, 'admin.locations.list'],
        ['GET', `${LOCATIONS}/${location.id}`, undefined, 'admin.locations.list'],
        ['POST', LOCATIONS, { name: 'X', panel_location_id: world.locations.ro.id }, 'admin.locations.create'],
        ['PATCH', `${LOCATIONS}/${location.id}`, { slots: 3 }, 'admin.locations.edit'],
        ['DELETE', `${LOCATIONS}/${location.id}`, undefined, 'admin.locations.delete'],
        ['GET', CATEGORIES, undefined, 'admin.nests.list'],
        ['GET', `${CATEGORIES}/${category.id}`, undefined, 'admin.nests.list'],
        ['POST', CATEGORIES, { name: 'X', panel_nest_id: world.nests.rust.id }, 'admin.nests.create'],
        ['PATCH', `${CATEGORIES}/${category.id}`, { name: 'Y' }, 'admin.nests.edit'],
        ['DELETE', `${CATEGORIES}/${category.id}`, undefined, 'admin.nests.delete'],
        ['GET', EGGS, undefined, 'admin.egg.list'],
        ['GET', `${EGGS}/${egg.id}`, undefined, 'admin.egg.list'],
        // the egg form's category choices: open to egg managers without the nests permissions
        ['GET', `${EGGS}/category-choices`, undefined, 'admin.egg.list'],
        ['POST', EGGS, { name: 'X', category_id: category.id, panel_egg_id: world.eggs.rust.id }, 'admin.egg.create'],
        ['PATCH', `${EGGS}/${egg.id}`, { name: 'Y' }, 'admin.egg.edit'],
        ['DELETE', `${EGGS}/${egg.id}`, undefined, 'admin.egg.delete'],
      ];
      const before = await snapshot();
      for (const [method, url, body, permission] of routes) {
        const lacking = await userWithRole(
          panel,
          await roleWith(
            panel,
            CATALOG_PERMISSIONS.filter((p) => p !== permission),
          ),
        );
        const res = await call(method, url, body, lacking);
        expect(res.statusCode, `${method} ${url} without ${permission}`).toBe(403);
        expect(res.json().error.code).toBe('PERMISSION_DENIED');
      }
      expect(await snapshot()).toEqual(before);
      // holding only the one permission is enough to get past the check (409: the link is taken)
      for (const [method, url, body, permission] of routes.filter(([m]) => m === 'GET' || m === 'POST')) {
        const holder = await userWithRole(panel, await roleWith(panel, [permission]));
        const res = await call(method, url, body, holder);
        expect(res.statusCode, `${method} ${url} with ${permission}`).toBe(method === 'GET' ? 200 : 409);
      }
      const guest = await call('GET', LOCATIONS, undefined, { ...admin, cookie: '' });
      expect(guest.statusCode).toBe(401);

      // importing a kind adds rows of it: it needs that kind's create permission (or admin.root)
      const creates = { locations: 'admin.locations.create', categories: 'admin.nests.create', eggs: 'admin.egg.create' };
      for (const [kind, missing] of Object.entries(creates)) {
        const lacking = await userWithRole(
          panel,
          await roleWith(
            panel,
            CATALOG_PERMISSIONS.filter((p) => p !== missing),
          ),
        );
        const res = await call('POST', `${SYNC}/${kind}`, undefined, lacking);
        expect(res.statusCode, `sync of ${kind} without ${missing}`).toBe(403);
        expect(res.json().error.code).toBe('PERMISSION_DENIED');
      }
      expect(await snapshot()).toEqual(before);
      const noCatalog = await userWithRole(panel, await roleWith(panel, ['admin.users.list']));
      for (const kind of ['locations', 'nests', 'eggs']) expect((await call('GET', `${PANEL_OBJECTS}/${kind}`, undefined, noCatalog)).statusCode).toBe(403);
      // each picker is guarded by the list permission of the form that shows it
      const eggReader = await userWithRole(panel, await roleWith(panel, ['admin.egg.list']));
      expect((await call('GET', `${PANEL_OBJECTS}/eggs`, undefined, eggReader)).statusCode).toBe(200);
      expect((await call('GET', `${PANEL_OBJECTS}/locations`, undefined, eggReader)).statusCode).toBe(403);

      await call('DELETE', `${EGGS}/${egg.id}`);
      await call('DELETE', `${CATEGORIES}/${category.id}`);
      await call('DELETE', `${LOCATIONS}/${location.id}`);
    }, 120_000);
  });

  describe('panel objects for the pickers', () => {
    it('lists the panel locations, nests and eggs, each with the row linked to it here', async () => {
      const location = await created<{ id: number }>(LOCATIONS, { name: 'Picked', panel_location_id: world.locations.us.id }, 'location');
      const res = await call('GET', `${PANEL_OBJECTS}/locations`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.nests).toBeUndefined();
      expect(body.locations).toEqual([
        { id: world.locations.ro.id, short: 'ro-buh', long: 'Bucharest, Romania', linked_id: null },
        { id: world.locations.us.id, short: 'us-nyc', long: 'New York, United States', linked_id: location.id },
      ]);
      const eggs = (await call('GET', `${PANEL_OBJECTS}/eggs`)).json();
      expect(eggs.nests.map((n: { name: string; eggs: { name: string }[] }) => [n.name, n.eggs.map((e) => e.name)])).toEqual([
        ['Minecraft', ['Paper', 'Vanilla Minecraft']],
        ['Rust', ['Rust']],
      ]);
      const nests = (await call('GET', `${PANEL_OBJECTS}/nests`)).json();
      expect(nests.nests.map((n: { name: string; eggs: unknown[] }) => [n.name, n.eggs.length])).toEqual([
        ['Minecraft', 0],
        ['Rust', 0],
      ]);
      expect((await call('GET', `${PANEL_OBJECTS}/planets`)).statusCode).toBe(404);
      await call('DELETE', `${LOCATIONS}/${location.id}`);
    });
  });
});

describe.each(testDialects())('import from the panel on %s', (dialect) => {
  let panel: TestPanel;
  let standIn: PterodactylStandIn;
  let world: SampleWorld;
  let admin: SignedInUser;

  beforeAll(async () => {
    standIn = await startPterodactylPanel();
    world = standIn.seedSample();
    panel = await startPanel(dialect, { jobs: false });
    admin = await userWithRole(panel, 8);
  }, 60_000);
  afterAll(async () => {
    await panel?.close();
    await standIn?.close();
  });

  const db = () => panel.services.database.db as unknown as Kysely<CoreDatabase & CatalogTables>;
  const call = (method: Method, url: string, payload?: unknown) =>
    panel.app.inject({ method, url, payload: payload as Record<string, unknown> | undefined, headers: { cookie: admin.cookie } });
  const snapshot = async () => ({
    locations: await db().selectFrom('catalog_locations').selectAll().orderBy('id').execute(),
    categories: await db().selectFrom('catalog_egg_categories').selectAll().orderBy('id').execute(),
    eggs: await db().selectFrom('catalog_eggs').selectAll().orderBy('id').execute(),
  });
  const empty = { created: 0, updated: 0, missing_on_panel: [] };

  /** every kind, in the order an administrator would import them (eggs go into linked categories) */
  const syncAll = async () => {
    const answers = [];
    for (const kind of ['locations', 'categories', 'eggs']) answers.push(await call('POST', `${SYNC}/${kind}`));
    return answers;
  };
  const merged = (answers: { json(): Record<string, unknown> }[]) => Object.assign({}, ...answers.map((a) => a.json()));

  it('says no panel is configured, saving nothing', async () => {
    const res = await call('POST', `${SYNC}/locations`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('PANEL_NOT_CONFIGURED');
    expect((await call('GET', `${PANEL_OBJECTS}/locations`)).json().error.code).toBe('PANEL_NOT_CONFIGURED');
    // without a panel, links are taken on trust
    const offline = await call('POST', LOCATIONS, { name: 'Offline', panel_location_id: world.locations.ro.id, enabled: true });
    expect(offline.statusCode).toBe(201);
    await usePanel(panel, standIn);
    // renamed by the import below (linked), not duplicated
    expect(offline.json().location.name).toBe('Offline');
  });

  it('adds what is missing (disabled, for review), renames what is linked, and reports what the panel lost', async () => {
    // a row whose panel object is gone (written directly: the API would refuse the link)
    const now = new Date().toISOString();
    await db()
      .insertInto('catalog_locations')
      .values({
        name: 'Closed DC',
        description: null,
        panel_location_id: 9001,
        slots: 5,
        status: 'offline',
        vip_only: 0,
        enabled: 1,
        image: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const answers = await syncAll();
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const report = merged(answers);
    const closed = await db().selectFrom('catalog_locations').select('id').where('panel_location_id', '=', 9001).executeTakeFirstOrThrow();
    expect(report).toEqual({
      locations: { created: 1, updated: 1, missing_on_panel: [{ id: Number(closed.id), name: 'Closed DC', panel_id: 9001 }] },
      categories: { created: 2, updated: 0, missing_on_panel: [] },
      eggs: { created: 3, updated: 0, missing_on_panel: [] },
    });
    const state = await snapshot();
    const ro = state.locations.find((l) => Number(l.panel_location_id) === world.locations.ro.id)!;
    // the linked one keeps what the administrator set and takes the panel's name
    expect(ro).toMatchObject({ name: 'Bucharest, Romania' });
    expect(Number(ro.enabled)).toBe(1);
    const us = state.locations.find((l) => Number(l.panel_location_id) === world.locations.us.id)!;
    expect(us).toMatchObject({ name: 'New York, United States', status: 'online' });
    expect([Number(us.enabled), Number(us.slots)]).toEqual([0, 0]);
    expect(state.categories.map((c) => [c.name, Number(c.panel_nest_id), Number(c.enabled)])).toEqual([
      ['Minecraft', world.nests.minecraft.id, 0],
      ['Rust', world.nests.rust.id, 0],
    ]);
    const categoryOf = new Map(state.categories.map((c) => [Number(c.panel_nest_id), Number(c.id)]));
    expect(state.eggs.map((e) => [e.name, Number(e.category_id), Number(e.panel_nest_id), Number(e.panel_egg_id), Number(e.enabled)])).toEqual([
      ['Paper', categoryOf.get(world.nests.minecraft.id), world.nests.minecraft.id, world.eggs.paper.id, 0],
      ['Vanilla Minecraft', categoryOf.get(world.nests.minecraft.id), world.nests.minecraft.id, world.eggs.vanilla.id, 0],
      ['Rust', categoryOf.get(world.nests.rust.id), world.nests.rust.id, world.eggs.rust.id, 0],
    ]);
    const audit = await db().selectFrom('audit_log').select(['details', 'actor_user_id']).where('action', '=', 'admin.catalog.sync').execute();
    expect(audit.map((a) => JSON.parse(a.details))).toEqual([
      { kind: 'locations', created: 1, updated: 1 },
      { kind: 'categories', created: 2, updated: 0 },
      { kind: 'eggs', created: 3, updated: 0 },
    ]);

    // run again: nothing to do, nothing changed
    const again = merged(await syncAll());
    expect(again).toEqual({ locations: { ...empty, missing_on_panel: report.locations.missing_on_panel }, categories: empty, eggs: empty });
    expect(await snapshot()).toEqual(state);
    await db().deleteFrom('catalog_locations').where('panel_location_id', '=', 9001).execute();
  });

  it('adds each new panel object once when imports run at the same time', async () => {
    const fra = standIn.addLocation({ short: 'de-fra', long: 'Frankfurt, Germany' });
    const valheim = standIn.addNest({ name: 'Valheim' });
    standIn.addEgg(valheim.id, { name: 'Valheim Plus' });
    standIn.addEgg(world.nests.minecraft.id, { name: 'Forge' });
    const total = async (kind: 'locations' | 'categories' | 'eggs') => {
      const answers = await Promise.all(Array.from({ length: 3 }, () => call('POST', `${SYNC}/${kind}`)));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
      return answers.reduce((sum, a) => sum + (a.json()[kind].created as number), 0);
    };
    expect([await total('locations'), await total('categories'), await total('eggs')]).toEqual([1, 1, 2]);
    const state = await snapshot();
    expect(state.locations.filter((l) => Number(l.panel_location_id) === fra.id)).toHaveLength(1);
    expect(state.categories.filter((c) => Number(c.panel_nest_id) === valheim.id)).toHaveLength(1);
    expect(state.eggs.map((e) => e.name).sort()).toEqual(['Forge', 'Paper', 'Rust', 'Valheim Plus', 'Vanilla Minecraft']);
  });

  it('answers a clear 5xx and saves nothing when the panel cannot be asked', async () => {
    standIn.addLocation({ short: 'fr-par', long: 'Paris, France' });
    const before = await snapshot();
    // the panel fails on the eggs, after the nests were read: still nothing is saved
    standIn.fault({ path: /^\/nests\/\d+\/eggs/, kind: 'error', status: 503, times: Infinity });
    try {
      const res = await call('POST', `${SYNC}/eggs`);
      expect([502, 503]).toContain(res.statusCode);
      expect(res.json().error.code).toMatch(/^PANEL_/);
      const egg = await call('POST', EGGS, { name: 'Down', category_id: Number(before.categories[0].id), panel_egg_id: 7777 });
      expect([502, 503]).toContain(egg.statusCode);
    } finally {
      standIn.clearFaults();
    }
    expect(await snapshot()).toEqual(before);

    // a panel that refuses connections
    await panel.services.settings.set('pterodactyl_base_url', 'http://127.0.0.1:1');
    try {
      const res = await call('POST', `${SYNC}/locations`);
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('PANEL_UNREACHABLE');
      const created = await call('POST', LOCATIONS, { name: 'Paris', panel_location_id: 4444 });
      expect(created.statusCode).toBe(503);
      expect(created.json().error.code).toBe('PANEL_UNREACHABLE');
    } finally {
      await usePanel(panel, standIn);
    }
    expect(await snapshot()).toEqual(before);
  }, 60_000);
});
