// @vitest-environment jsdom
// /server/:id/update: each field goes up to current + free (only the increase is taken from the free
// resources) and says what the change takes or gives back; /server/:id/delete: the name typed to
// confirm, then back to the dashboard.
import { cleanup, renderPlugin, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import { createOptions, serverDetail } from './fixtures';

afterEach(() => cleanup());

async function open(route: string, http: HttpHandlers = {}) {
  const app = await renderPlugin(plugin, {
    manifest,
    route,
    catalogues: { en },
    session: {},
    http: { 'GET /api/user/server/4': { body: serverDetail(4, { name: 'Survival' }) }, 'GET /api/user/server/create': { body: createOptions() }, ...http },
  });
  await app.findByText('Survival');
  return app;
}

describe('update server page', () => {
  it('lets each resource grow by what is free, counts only the increase, and saves the new totals', async () => {
    const app = await open('/server/4/update', { 'POST /api/user/server/4/update': { body: serverDetail(4, { name: 'Survival' }) } });
    const save = () => app.getByRole('button', en.update.submit) as HTMLButtonElement;
    // memory: 1,024 now + 2,048 free
    expect((app.getByLabelText('Memory slider') as HTMLInputElement).max).toBe('3072');
    expect(app.getByText('Now 1,024 MiB · 2,048 MiB free')).toBeTruthy();
    expect(save().disabled).toBe(true);

    await app.type(app.getByLabelText(en.resources.labels.ram), '3584');
    expect(app.getByText('You have only 3,072 MiB free.')).toBeTruthy();
    expect(save().disabled).toBe(true);

    await app.type(app.getByLabelText(en.resources.labels.ram), '3072');
    await app.type(app.getByLabelText(en.resources.labels.disk), '1024');
    expect(app.getByText('Now 1,024 MiB · takes 2,048 MiB of your 2,048 MiB free')).toBeTruthy();
    expect(app.getByText('Now 2,048 MiB · gives 1,024 MiB back')).toBeTruthy();
    expect(app.getByText('takes 2,048 MiB of Memory from your free resources')).toBeTruthy();
    expect(app.getByText('gives 1,024 MiB of Disk back to your free resources')).toBeTruthy();

    await app.click(save());
    await app.waitFor(() => expect(app.location().pathname).toBe('/dashboard'));
    const post = app.httpCalls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ ram: 3072, disk: 1024, cpu: 100, ports: 1, databases: 1, backups: 1 });
  });
});

describe('delete server page', () => {
  it('deletes only once the name is typed, then goes to the dashboard', async () => {
    const app = await open('/server/4/delete', { 'POST /api/user/server/4/delete': { body: { ok: true } } });
    const remove = () => app.getByRole('button', en.delete.submit) as HTMLButtonElement;
    expect(remove().disabled).toBe(true);
    await app.type(app.getByLabelText('Type Survival to confirm'), 'Surv');
    expect(remove().disabled).toBe(true);
    await app.type(app.getByLabelText('Type Survival to confirm'), 'Survival');
    await app.click(remove());
    await app.waitFor(() => expect(app.location().pathname).toBe('/dashboard'));
    expect(app.httpCalls.filter((c) => c.method === 'POST' && c.path === '/api/user/server/4/delete')).toHaveLength(1);
  });

  it('stays and says why when the panel refuses', async () => {
    const app = await open('/server/4/delete', { 'POST /api/user/server/4/delete': { status: 502, body: { error: { code: 'PANEL_FAILED', message: 'panel said no' } } } });
    await app.type(app.getByLabelText('Type Survival to confirm'), 'Survival');
    await app.click(app.getByRole('button', en.delete.submit));
    await app.findByText(en.errors.PANEL_FAILED);
    expect(app.location().pathname).toBe('/server/4/delete');
  });
});
