// @vitest-environment jsdom
// The off-site backups screen: not set up (it says why, and who can set it up), the read-only
// summary for whoever is not root (no form, the secret only as set), the form for root (the secret
// sent only when typed; a refused field next to the field, in words), an unreachable bucket said in
// words with the storage's detail, upload and download offered by permission, a transfer followed
// until it ends, and delete after a confirmation (root only).
import { cleanup, renderPlugin, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import en from '../locales/en.json';
import manifest from '../plugin.json';
import type { CloudStatus, Transfer } from '../shared/wire';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const VIEWER = { user: { role: 4 }, permissions: ['admin.cloud.view'] };
const OPERATOR = { user: { role: 4 }, permissions: ['admin.cloud.view', 'admin.cloud.upload', 'admin.cloud.download'] };
const LOCAL = 'orepanel-20260102-030000-scheduled.opbk';
const REMOTE = 'orepanel-20260101-030000-scheduled.opbk';
const API = '/api/admin/cloud-backups';

function status(overrides: Partial<CloudStatus> = {}): CloudStatus {
  return {
    configured: true,
    connection: {
      endpoint: 'https://s3.example.com',
      region: 'us-east-1',
      bucket: 'panel-copies',
      prefix: 'orepanel-backups/',
      force_path_style: false,
      access_key_id: null,
      secret_set: true,
      auto_upload: true,
      keep: 14,
    },
    remote: {
      state: 'ok',
      error: null,
      data: [{ name: REMOTE, size: 2 * 1024 * 1024, created_at: '2026-01-01T03:00:00.000Z', uploaded_at: '2026-01-01T03:01:00.000Z', kind: 'scheduled', local: false }],
    },
    local: [{ name: LOCAL, size: 3 * 1024 * 1024, created_at: '2026-01-02T03:00:00.000Z', kind: 'scheduled', remote: false }],
    transfer: null,
    ...overrides,
  };
}

const render = (session: typeof ROOT | typeof VIEWER, http: HttpHandlers) =>
  renderPlugin(plugin, { manifest, route: '/mc-admin/cloud-backups', catalogues: { en }, session, http });

describe('the off-site backups screen (/mc-admin/cloud-backups)', () => {
  it('says it is not set up, and that a root administrator sets it up, to whoever is not root', async () => {
    const app = await render(VIEWER, {
      [`GET ${API}`]: {
        body: status({ configured: false, connection: { ...status().connection, bucket: '', secret_set: false }, remote: { state: 'off', error: null, data: [] } }),
      },
    });
    await app.findByText(new RegExp(en.notConfigured.others.slice(0, 40)));
    expect(app.getByText(en.lists.remoteOff)).toBeTruthy();
    expect(app.getByText(en.connection.notConfiguredReadOnly)).toBeTruthy();
    // no form, no upload
    expect(app.queryByRole('button', en.connection.save)).toBeNull();
    expect(app.queryByRole('button', `Upload ${LOCAL} off-site`)).toBeNull();
  });

  it('shows whoever is not root the connection read-only: the secret only as set, no key id', async () => {
    const app = await render(VIEWER, { [`GET ${API}`]: { body: status() } });
    await app.findByText('panel-copies');
    expect(app.getByText('https://s3.example.com')).toBeTruthy();
    expect(app.getByText(en.connection.secretSet)).toBeTruthy();
    expect(app.getByText(en.connection.rootOnly)).toBeTruthy();
    expect(app.queryByRole('button', en.connection.save)).toBeNull();
    // viewing only: neither download nor delete
    expect(app.queryByRole('button', `Download ${REMOTE} to this server`)).toBeNull();
    expect(app.queryByRole('button', `Delete the off-site copy of ${REMOTE}`)).toBeNull();
  });

  it('gives root the form; the secret goes only when typed, and a refused field is said next to it', async () => {
    const app = await render(ROOT, {
      [`GET ${API}`]: { body: status({ connection: { ...status().connection, access_key_id: 'AKIAEXAMPLE' } }) },
      [`PUT ${API}/settings`]: (call) =>
        (call.body as { prefix: string }).prefix.startsWith('/')
          ? { status: 400, body: { error: { code: 'VALIDATION_ERROR', message: 'The folder is a relative path.', field: 'prefix' } } }
          : { body: status({ connection: { ...status().connection, access_key_id: 'AKIAEXAMPLE', keep: 30 } }) },
    });
    await app.findByRole('button', en.connection.save);
    expect((app.getByLabelText(en.connection.fields.accessKeyId) as HTMLInputElement).value).toBe('AKIAEXAMPLE');
    expect((app.getByLabelText(en.connection.fields.secret) as HTMLInputElement).value).toBe('');
    expect(app.getByText(en.connection.hints.secretSet)).toBeTruthy();

    await app.type(app.getByLabelText(en.connection.fields.prefix), '/root/');
    await app.click(app.getByRole('button', en.connection.save));
    await app.findByText(en.fieldErrors.prefix);
    const refused = app.httpCalls.filter((call) => call.method === 'PUT');
    expect(refused).toHaveLength(1);
    expect(refused[0].body).not.toHaveProperty('secret_access_key');

    await app.type(app.getByLabelText(en.connection.fields.prefix), 'copies/');
    await app.type(app.getByLabelText(en.connection.fields.keep), '30');
    await app.click(app.getByRole('button', en.connection.save));
    await app.findByText(en.connection.saved);
    const saved = app.httpCalls.filter((call) => call.method === 'PUT')[1].body;
    expect(saved).toMatchObject({ prefix: 'copies/', keep: 30, bucket: 'panel-copies', access_key_id: 'AKIAEXAMPLE' });
    expect(saved).not.toHaveProperty('secret_access_key');
  });

  it('tests the connection and lists the steps, the failing one in words with the storage’s detail', async () => {
    const app = await render(ROOT, {
      [`GET ${API}`]: { body: status({ connection: { ...status().connection, access_key_id: 'AKIAEXAMPLE' } }) },
      [`POST ${API}/test`]: {
        body: {
          ok: false,
          steps: [
            { step: 'list', ok: true, error: null },
            { step: 'put', ok: false, error: { code: 'CLOUD_ACCESS_DENIED', message: 'The access key may not write objects in the bucket "panel-copies" (AccessDenied).' } },
          ],
        },
      },
    });
    await app.findByRole('button', en.connection.save);
    await app.type(app.getByLabelText(en.connection.fields.secret), 'new-secret');
    await app.click(app.getByRole('button', en.connection.test.button));
    await app.findByText(en.connection.test.failed);
    expect(app.getByText(en.errors.CLOUD_ACCESS_DENIED)).toBeTruthy();
    expect(app.getByText(/may not write objects in the bucket "panel-copies"/)).toBeTruthy();
    expect(app.httpCalls.find((call) => call.method === 'POST')?.body).toMatchObject({ secret_access_key: 'new-secret', bucket: 'panel-copies' });
  });

  it('says in words that the bucket did not answer, and offers no upload then', async () => {
    const app = await render(OPERATOR, {
      [`GET ${API}`]: {
        body: status({ remote: { state: 'unavailable', error: { code: 'CLOUD_UNREACHABLE', message: 'Could not reach s3.example.com (ENOTFOUND).' }, data: [] } }),
      },
    });
    await app.findByText(en.errors.CLOUD_UNREACHABLE);
    expect(app.getByText(/Could not reach s3\.example\.com \(ENOTFOUND\)/)).toBeTruthy();
    expect(app.queryByRole('button', `Upload ${LOCAL} off-site`)).toBeNull();
  });

  it('uploads by permission and follows the transfer until it ends, then lists again', async () => {
    const running: Transfer = {
      id: '0f0e0d0c-0b0a-4000-8000-000000000001',
      direction: 'upload',
      name: LOCAL,
      state: 'running',
      done: 1024 * 1024,
      total: 3 * 1024 * 1024,
      started_by: 'ops',
      started_at: '2026-01-02T04:00:00.000Z',
      finished_at: null,
      error: null,
    };
    let polls = 0;
    const app = await render(OPERATOR, {
      [`GET ${API}`]: { body: status() },
      [`POST ${API}/uploads`]: { status: 202, body: { transfer: running } },
      [`GET ${API}/transfers/:id`]: () => {
        polls++;
        return { body: { transfer: { ...running, state: 'done', done: running.total, finished_at: '2026-01-02T04:01:00.000Z' } } };
      },
    });
    await app.findByText(LOCAL);
    // downloading back is offered for a copy held only off-site; deleting it is root's
    expect(app.getByRole('button', `Download ${REMOTE} to this server`)).toBeTruthy();
    expect(app.queryByRole('button', `Delete the off-site copy of ${REMOTE}`)).toBeNull();
    await app.click(app.getByRole('button', `Upload ${LOCAL} off-site`));
    expect(app.httpCalls.find((call) => call.method === 'POST')?.body).toEqual({ name: LOCAL });
    await app.findByText(`Uploading ${LOCAL}`);
    expect(app.getByRole('progressbar', `Uploading ${LOCAL}`).getAttribute('aria-valuenow')).toBe('33');
    await app.findByText(`Uploaded ${LOCAL}`, { timeout: 3000 });
    expect(polls).toBe(1);
    // the lists are asked again once it ended
    await app.waitFor(() => expect(app.httpCalls.filter((call) => call.method === 'GET' && call.path === API).length).toBeGreaterThanOrEqual(2));
  });

  it('says a failed transfer in words', async () => {
    const app = await render(OPERATOR, {
      [`GET ${API}`]: {
        body: status({
          transfer: {
            id: '0f0e0d0c-0b0a-4000-8000-000000000002',
            direction: 'download',
            name: REMOTE,
            state: 'failed',
            done: 10,
            total: 100,
            started_by: null,
            started_at: '2026-01-02T04:00:00.000Z',
            finished_at: '2026-01-02T04:00:05.000Z',
            error: { code: 'BACKUP_WRONG_KEY', message: 'This archive was encrypted with another key.' },
          },
        }),
      },
    });
    await app.findByText(`The download of ${REMOTE} failed`);
    expect(app.getByText(en.errors.BACKUP_WRONG_KEY)).toBeTruthy();
  });

  it('deletes an off-site copy after a confirmation, for root', async () => {
    const app = await render(ROOT, {
      [`GET ${API}`]: { body: status() },
      [`DELETE ${API}/remote/:name`]: { body: { success: true } },
    });
    await app.findByText(REMOTE);
    await app.click(app.getByRole('button', `Delete the off-site copy of ${REMOTE}`));
    await app.answerDialog(`Delete the off-site copy of ${REMOTE}?`, 'confirm');
    await app.waitFor(() => expect(app.httpCalls.some((call) => call.method === 'DELETE' && call.path === `${API}/remote/${REMOTE}`)).toBe(true));
  });
});
