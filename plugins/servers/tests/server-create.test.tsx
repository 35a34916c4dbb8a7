// @vitest-environment jsdom
// /server/create: locations (full, VIP-only and offline ones cannot be chosen and say why), category
// then egg (VIP eggs locked without VIP), resources bounded by the minimums and what is free, the
// blockers explained with the way to fix them, and the create request the page sends.
import { cleanup, renderPlugin, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import type { CreateOptionsResponse } from '../shared/api';
import { createOptions, queueEntry } from './fixtures';

afterEach(() => cleanup());

async function open(options: CreateOptionsResponse = createOptions(), http: HttpHandlers = {}) {
  const app = await renderPlugin(plugin, {
    manifest,
    route: '/server/create',
    catalogues: { en },
    session: {},
    settings: { allow_servers: true, store_enabled: true },
    http: { 'GET /api/user/server/create': { body: options }, ...http },
  });
  await app.findByRole('radiogroup', en.create.location.title);
  return app;
}

type App = Awaited<ReturnType<typeof open>>;
const radio = (app: App, name: string) => app.getByRole('radio', name);
const createButton = (app: App) => app.getByRole('button', en.create.submit) as HTMLButtonElement;
const creates = (app: App) => app.httpCalls.filter((c) => c.method === 'POST' && c.path === '/api/user/server/create');

async function chooseAll(app: App) {
  await app.click(radio(app, 'Frankfurt'));
  await app.click(radio(app, 'Minecraft'));
  await app.click(radio(app, 'Paper'));
  await app.type(app.getByLabelText(en.create.details.name), 'My survival world');
}

describe('create server page', () => {
  it('says which resources cannot be counted when the account holds unreadable values', async () => {
    const app = await open(createOptions({ broken_resources: ['databases', 'server_slots'] }));
    expect(app.getByRole('note').textContent).toBe(en.broken.account.replace('{{fields}}', `${en.resources.names.databases}, ${en.broken.fields.server_slots}`));
    app.unmount();
    const sound = await open();
    expect(sound.queryByRole('note')).toBeNull();
    sound.unmount();
  });

  it('offers only the locations and eggs that can be taken, and says why the others cannot', async () => {
    const app = await open();
    expect(radio(app, 'Paris').getAttribute('aria-disabled')).toBe('true');
    expect(radio(app, 'Paris').textContent).toContain(en.create.location.reason.LOCATION_FULL);
    expect(radio(app, 'Paris').textContent).toContain('5 / 5 servers');
    expect(radio(app, 'Vienna').textContent).toContain(en.create.location.reason.VIP_ONLY);
    expect(radio(app, 'Vienna').textContent).toContain(en.common.vip);
    expect(radio(app, 'Oslo').textContent).toContain(en.create.location.status.offline);
    expect(radio(app, 'Frankfurt').textContent).toContain('3 / 10 servers');

    // a location that cannot take a server cannot be chosen
    await app.click(radio(app, 'Paris'));
    expect(radio(app, 'Paris').getAttribute('aria-checked')).toBe('false');
    // Frankfurt is the only open location: chosen already
    expect(radio(app, 'Frankfurt').getAttribute('aria-checked')).toBe('true');

    // the VIP category is locked; Minecraft's eggs show once it is chosen (it is the only open one)
    expect(radio(app, 'Premium').getAttribute('aria-disabled')).toBe('true');
    expect(radio(app, 'Forge').getAttribute('aria-disabled')).toBe('true');
    await app.click(radio(app, 'Forge'));
    expect(radio(app, 'Forge').getAttribute('aria-checked')).toBe('false');
    await app.click(radio(app, 'Paper'));
    expect(radio(app, 'Paper').getAttribute('aria-checked')).toBe('true');
    app.unmount();
  });

  it('opens VIP locations and eggs to VIP members', async () => {
    const options = createOptions({ vip: true });
    options.locations[2] = { ...options.locations[2], available: true, reason: null };
    const app = await open(options);
    expect(radio(app, 'Vienna').getAttribute('aria-disabled')).toBeNull();
    await app.click(radio(app, 'Minecraft'));
    await app.click(radio(app, 'Forge'));
    expect(radio(app, 'Forge').getAttribute('aria-checked')).toBe('true');
    app.unmount();
  });

  it('keeps every resource between the minimum and what is free, and creates only then', async () => {
    const app = await open();
    await chooseAll(app);
    expect(app.getByText('Free: 2,048 MiB · at least 256 MiB')).toBeTruthy();
    // suggested start: within what is free (backups 0 free → 0)
    expect((app.getByLabelText(en.resources.labels.ram) as HTMLInputElement).value).toBe('1024');
    expect((app.getByLabelText(en.resources.labels.backups) as HTMLInputElement).value).toBe('0');
    expect(createButton(app).disabled).toBe(false);

    await app.type(app.getByLabelText(en.resources.labels.ram), '4096');
    expect(app.getByText('You have only 2,048 MiB free.')).toBeTruthy();
    expect(createButton(app).disabled).toBe(true);

    await app.type(app.getByLabelText(en.resources.labels.ram), '128');
    expect(app.getByText('A server needs at least 256 MiB.')).toBeTruthy();
    expect(createButton(app).disabled).toBe(true);

    await app.type(app.getByLabelText(en.resources.labels.cpu), '2.5');
    expect(app.getByText(en.resources.problems.notWhole)).toBeTruthy();

    // the slider cannot leave the bounds either
    const slider = app.getByLabelText('Memory slider') as HTMLInputElement;
    expect([slider.min, slider.max]).toEqual(['256', '2048']);

    await app.type(app.getByLabelText(en.resources.labels.cpu), '150');
    await app.type(app.getByLabelText(en.resources.labels.ram), '2048');
    expect(createButton(app).disabled).toBe(false);
    app.unmount();
  });

  it('sends the choices and goes to the dashboard, where the entry shows as waiting', async () => {
    const app = await open(createOptions(), { 'POST /api/user/server/create': { status: 201, body: { entry: queueEntry(7, { name: 'My survival world' }) } } });
    await chooseAll(app);
    await app.type(app.getByLabelText(en.create.details.description), '  Friends only ');
    await app.click(app.getByRole('button', en.create.resources.useAll));
    await app.click(createButton(app));
    await app.waitFor(() => expect(app.location().pathname).toBe('/dashboard'));
    expect(creates(app)).toHaveLength(1);
    expect(creates(app)[0].body).toEqual({
      name: 'My survival world',
      description: 'Friends only',
      location_id: 1,
      egg_id: 100,
      ram: 2048,
      disk: 4096,
      cpu: 150,
      ports: 2,
      databases: 1,
      backups: 0,
    });
    app.unmount();
  });

  it('puts a refusal about a resource next to it and loads the free resources again', async () => {
    const app = await open(createOptions(), {
      'POST /api/user/server/create': { status: 409, body: { error: { code: 'NOT_ENOUGH_RESOURCES', message: 'not enough ram', field: 'ram' } } },
    });
    await chooseAll(app);
    await app.click(createButton(app));
    await app.findByText(en.errors.NOT_ENOUGH_RESOURCES);
    expect(app.getByLabelText(en.resources.labels.ram).getAttribute('aria-invalid')).toBe('true');
    await app.waitFor(() => expect(app.httpCalls.filter((c) => c.method === 'GET' && c.path === '/api/user/server/create')).toHaveLength(2));
    expect(app.location().pathname).toBe('/server/create');
    app.unmount();
  });

  it('explains each blocker with the way to fix it, and does not offer Create', async () => {
    const app = await open(createOptions({ blockers: ['FORCE_DISCORD_LINK', 'NO_FREE_SLOT', 'PANEL_NOT_CONFIGURED'] }));
    expect(app.getByRole('alert', new RegExp(en.blockers.title))).toBeTruthy();
    expect(app.getByText(en.blockers.text.FORCE_DISCORD_LINK)).toBeTruthy();
    expect(app.getByText(en.blockers.text.PANEL_NOT_CONFIGURED)).toBeTruthy();
    expect(app.getByRole('link', en.blockers.fix.discord).getAttribute('href')).toBe('/account');
    expect(app.getByRole('link', en.blockers.fix.buySlot).getAttribute('href')).toBe('/store');
    await chooseAll(app);
    expect(createButton(app).disabled).toBe(true);
    app.unmount();
  });

  it('says which resources are too short for any server', async () => {
    const options = createOptions({ free: { ram: 128, disk: 4096, cpu: 150, ports: 0, databases: 0, backups: 0, server_slots: 1 }, blockers: ['NOT_ENOUGH_RESOURCES'] });
    const app = await open(options);
    expect(app.getByText('You do not have enough free Memory, Ports for a server. Delete a server, or get more in the store.')).toBeTruthy();
    expect(app.getByRole('link', en.blockers.fix.buyResources).getAttribute('href')).toBe('/store');
    app.unmount();
  });
});
