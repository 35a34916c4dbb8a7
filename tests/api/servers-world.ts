// A panel with the servers plugin wired to the Pterodactyl stand-in, a catalog made through the
// server-catalog admin API (locations Bucharest and VIP New York, category Minecraft with Paper and
// a VIP Vanilla egg), a ManualClock and jobs driven by hand — shared by the servers, queue and
// renewal tests.
import { expect } from 'vitest';
import { startPterodactylPanel, type PterodactylStandIn, type SampleWorld } from '../fixtures/pterodactyl-panel';
import { ManualClock } from '../fixtures/manual-clock';
import { startPanel, userWithRole, type SignedInUser, type TestDialect, type TestPanel } from './harness';

export const START = Date.UTC(2031, 0, 10, 12, 0, 0);
export const DAY = 86_400_000;

export interface ServersWorld {
  panel: TestPanel;
  ptero: PterodactylStandIn;
  sample: SampleWorld;
  clock: ManualClock;
  admin: SignedInUser;
  catalog: { ro: number; us: number; minecraft: number; paper: number; vanilla: number };
  close(): Promise<void>;
}

export async function startServersWorld(dialect: TestDialect, options: { locationSlots?: number } = {}): Promise<ServersWorld> {
  const ptero = await startPterodactylPanel();
  const sample = ptero.seedSample();
  const clock = new ManualClock(START);
  // short transport limits: a held answer becomes a timeout quickly, retries do not wait
  const panel = await startPanel(dialect, { jobs: false, clock, panel: { timeoutMs: 300, retries: 1, backoffBaseMs: 1, sleep: async () => undefined } });
  await panel.services.settings.set('pterodactyl_base_url', ptero.url);
  await panel.services.settings.set('pterodactyl_api_key', ptero.apiKey);
  const admin = await userWithRole(panel, 8);
  const post = async (url: string, payload: object) => {
    const res = await panel.app.inject({ method: 'POST', url, payload, headers: { cookie: admin.cookie } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Record<string, { id: number }>;
  };
  const ro = (await post('/api/admin/locations', { name: 'Bucharest', panel_location_id: sample.locations.ro.id, slots: options.locationSlots ?? 50, status: 'online' })).location
    .id;
  const us = (await post('/api/admin/locations', { name: 'New York', panel_location_id: sample.locations.us.id, slots: 50, status: 'online', vip_only: true })).location.id;
  const minecraft = (await post('/api/admin/egg-categories', { name: 'Minecraft', panel_nest_id: sample.nests.minecraft.id })).category.id;
  const paper = (await post('/api/admin/eggs', { name: 'Paper', category_id: minecraft, panel_egg_id: sample.eggs.paper.id })).egg.id;
  const vanilla = (await post('/api/admin/eggs', { name: 'Vanilla', category_id: minecraft, panel_egg_id: sample.eggs.vanilla.id, vip_only: true })).egg.id;
  return {
    panel,
    ptero,
    sample,
    clock,
    admin,
    catalog: { ro, us, minecraft, paper, vanilla },
    close: async () => {
      await panel.close();
      await ptero.close();
    },
  };
}

export interface Totals {
  ram?: number;
  disk?: number;
  cpu?: number;
  ports?: number;
  databases?: number;
  backups?: number;
  server_slots?: number;
}

/** A customer (role 1, or the given one) with these resource totals. */
export async function customer(world: ServersWorld, totals: Totals = {}, role = 1): Promise<SignedInUser> {
  const user = await userWithRole(world.panel, role);
  await world.panel.services.database.db
    .updateTable('users')
    .set({ ram: 4096, disk: 8192, cpu: 200, ports: 4, databases: 2, backups: 2, server_slots: 2, ...totals })
    .where('id', '=', user.id)
    .execute();
  return user;
}

export function createBody(world: ServersWorld, overrides: Record<string, unknown> = {}) {
  return { name: 'My server', location_id: world.catalog.ro, egg_id: world.catalog.paper, ram: 1024, disk: 2048, cpu: 50, ports: 1, databases: 0, backups: 1, ...overrides };
}

export async function call(world: ServersWorld, user: SignedInUser | null, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return world.panel.app.inject({ method, url, payload: payload as object, headers: user ? { cookie: user.cookie } : {} });
}

export const runQueue = (world: ServersWorld) => world.panel.services.scheduler.runNow('servers.queue');
export const runRenewals = (world: ServersWorld) => world.panel.services.scheduler.runNow('servers.renewals');

export function jobMessage(world: ServersWorld, name: string): string | null {
  return world.panel.services.scheduler.statuses().find((s) => s.name === name)?.lastMessage ?? null;
}

/** Queues a server for `user` and builds it; returns the local server id. */
export async function builtServer(world: ServersWorld, user: SignedInUser, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await call(world, user, 'POST', '/api/user/server/create', createBody(world, overrides));
  expect(res.statusCode, res.body).toBe(201);
  await runQueue(world);
  const mine = (await call(world, user, 'GET', '/api/user/session/servers')).json() as { servers: { id: number; name: string }[] };
  const server = mine.servers.find((s) => s.name === (overrides.name ?? 'My server'));
  expect(server, JSON.stringify(mine)).toBeTruthy();
  return server!.id;
}
