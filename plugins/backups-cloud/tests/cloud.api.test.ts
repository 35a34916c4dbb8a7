// The off-site copies against a local S3-compatible server (s3rver): the connection set up by
// admin.root only, "Test connection" saying which step failed, an archive uploaded, listed off-site,
// removed locally, downloaded back byte for byte; names checked; not configured and an unreachable
// bucket answered in words with nothing lost; the bucket's retention; the automatic upload after a
// scheduled backup; who may do what.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleWith, startPanel, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { startTestS3, type TestS3 } from '../../../tests/api/s3-server';
import type { CloudSettingsInput, CloudStatus, ConnectionTest, Transfer } from '../shared/wire';

const API = '/api/admin/cloud-backups';
/** S3's smallest part: the panel under test sends parts of this size, so a test archive needs several */
const PART_BYTES = 5 * 1024 * 1024;
const BUCKET = 'offsite';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('off-site copies of the backups', () => {
  let s3: TestS3;
  let panel: TestPanel;
  let root: SignedInUser;
  let operator: SignedInUser;
  let viewer: SignedInUser;
  let plain: SignedInUser;
  let form: CloudSettingsInput;

  const call = (who: SignedInUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    panel.app.inject({ method, url, payload, headers: who ? { cookie: who.cookie } : {} });
  const status = async (who: SignedInUser = root): Promise<CloudStatus> => {
    const res = await call(who, 'GET', API);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as CloudStatus;
  };
  /** follows a transfer to its end, as the screen does */
  const ended = async (started: LightMyRequestResponse): Promise<Transfer> => {
    expect(started.statusCode, started.body).toBe(202);
    let transfer = (started.json() as { transfer: Transfer }).transfer;
    for (let i = 0; i < 400 && transfer.state === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      transfer = (await call(root, 'GET', `${API}/transfers/${transfer.id}`)).json().transfer as Transfer;
    }
    return transfer;
  };
  const archive = () => panel.services.panelBackup.create('manual');
  const localBytes = (name: string) => readFileSync(join(panel.services.panelBackup.directory, name));
  const remoteKeys = async () => (await s3.keys('')).sort();
  const configure = async (values: Partial<CloudSettingsInput> = {}) => {
    const res = await call(root, 'PUT', `${API}/settings`, { ...form, ...values });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as CloudStatus;
  };

  beforeAll(async () => {
    s3 = await startTestS3(BUCKET);
    panel = await startPanel('sqlite', { objectStoragePartBytes: PART_BYTES, jobs: false });
    root = await userWithRole(panel, 8);
    const operatorRole = await roleWith(panel, ['admin.cloud.view', 'admin.cloud.upload', 'admin.cloud.download', 'admin.plugins.edit', 'admin.settings.edit']);
    operator = await userWithRole(panel, operatorRole);
    viewer = await userWithRole(panel, await roleWith(panel, ['admin.cloud.view']));
    plain = await userWithRole(panel, 1);
    form = {
      endpoint: s3.env.FILES_S3_ENDPOINT,
      region: 'us-east-1',
      bucket: BUCKET,
      access_key_id: 'S3RVER',
      secret_access_key: 'S3RVER',
      prefix: 'panel-one/',
      force_path_style: true,
      auto_upload: true,
      keep: 14,
    };
  });
  afterAll(async () => {
    await panel?.close();
    await s3?.close();
  });

  it('starts not configured, and says so instead of failing', async () => {
    const first = await status();
    expect(first.configured).toBe(false);
    // not set up: the backups screen shows its archives as plain local ones
    expect((await call(root, 'GET', '/api/admin/backups')).json()).toMatchObject({ remote: 'off' });
    expect(first.remote).toEqual({ state: 'off', error: null, data: [] });
    expect(first.connection).toMatchObject({ bucket: '', prefix: 'orepanel-backups/', secret_set: false, auto_upload: true, keep: 14 });

    const made = await archive();
    for (const [url, body] of [
      [`${API}/uploads`, { name: made.name }],
      [`${API}/downloads`, { name: made.name }],
    ] as const) {
      const res = await call(root, 'POST', url, body);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'CLOUD_NOT_CONFIGURED', message: expect.stringContaining('root administrator') });
    }
    const del = await call(root, 'DELETE', `${API}/remote/${made.name}`);
    expect(del.json().error.code).toBe('CLOUD_NOT_CONFIGURED');
    await panel.services.panelBackup.remove(made.name);
  });

  it('lets only admin.root change the connection, on this screen and on the plugins’ configuration screen', async () => {
    for (const who of [operator, viewer]) {
      const res = await call(who, 'PUT', `${API}/settings`, form);
      expect(res.statusCode).toBe(403);
      const test = await call(who, 'POST', `${API}/test`, form);
      expect(test.statusCode).toBe(403);
    }
    // the generic configuration route holds to the settings' rootOnly
    const generic = await panel.app.inject({
      method: 'PATCH',
      url: '/api/admin/plugins/backups-cloud/config',
      payload: { values: { cloud_bucket: 'attacker-bucket' } },
      headers: { cookie: operator.cookie },
    });
    expect(generic.statusCode, generic.body).toBe(403);
    expect(generic.json().error.code).toBe('ROOT_ONLY_SETTING');
    expect((await status()).configured).toBe(false);
  });

  it('refuses a form that cannot work, naming the field, and changes nothing', async () => {
    const cases: [Partial<CloudSettingsInput>, string][] = [
      [{ endpoint: 'ftp://files.example' }, 'endpoint'],
      [{ endpoint: 'https://user:pw@s3.example' }, 'endpoint'],
      [{ region: 'us east' }, 'region'],
      [{ bucket: 'x' }, 'bucket'],
      [{ access_key_id: '' }, 'access_key_id'],
      [{ prefix: '../elsewhere/' }, 'prefix'],
      [{ prefix: '/abs/' }, 'prefix'],
      [{ secret_access_key: undefined }, 'secret_access_key'],
    ];
    for (const [change, field] of cases) {
      const body = { ...form, ...change };
      if ('secret_access_key' in change && change.secret_access_key === undefined) delete body.secret_access_key;
      const res = await call(root, 'PUT', `${API}/settings`, body);
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().error.field, JSON.stringify(change)).toBe(field);
    }
    for (const bad of [
      { ...form, keep: 0 },
      { ...form, keep: 1001 },
      { ...form, extra: 1 },
      { ...form, force_path_style: 'yes' },
    ]) {
      expect((await call(root, 'PUT', `${API}/settings`, bad)).statusCode).toBe(400);
    }
    expect((await status()).connection).toMatchObject({ bucket: '', secret_set: false });
  });

  it('tests a connection step by step, saying which step failed', async () => {
    const good = await call(root, 'POST', `${API}/test`, form);
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toEqual({
      ok: true,
      steps: (['list', 'put', 'get', 'remove'] as const).map((step) => ({ step, ok: true, error: null })),
    } satisfies ConnectionTest);
    // the probe object is gone
    expect(await remoteKeys()).toEqual([]);

    const noBucket = (await call(root, 'POST', `${API}/test`, { ...form, bucket: 'missing-bucket' })).json() as ConnectionTest;
    expect(noBucket.ok).toBe(false);
    expect(noBucket.steps).toEqual([{ step: 'list', ok: false, error: { code: 'CLOUD_NO_SUCH_BUCKET', message: expect.stringContaining('missing-bucket') } }]);

    const wrongKey = (await call(root, 'POST', `${API}/test`, { ...form, access_key_id: 'NOT-A-KEY' })).json() as ConnectionTest;
    expect(wrongKey.steps[0]).toMatchObject({ step: 'list', ok: false, error: { code: 'CLOUD_CREDENTIALS_REFUSED' } });

    const port = await closedPort();
    const nowhere = (await call(root, 'POST', `${API}/test`, { ...form, endpoint: `http://127.0.0.1:${port}` })).json() as ConnectionTest;
    expect(nowhere.steps[0]).toMatchObject({ step: 'list', ok: false, error: { code: 'CLOUD_UNREACHABLE', message: expect.stringContaining(`127.0.0.1:${port}`) } });
    // testing saves nothing
    expect((await status()).configured).toBe(false);
  });

  it('saves the connection for root; the secret never comes back, the key id only to root', async () => {
    const saved = await configure();
    expect(saved.configured).toBe(true);
    expect(saved.connection).toEqual({ ...form, secret_access_key: undefined, access_key_id: 'S3RVER', secret_set: true });
    const raw = await panel.services.database.db.selectFrom('settings').select(['key', 'value']).where('key', '=', 'cloud_secret_access_key').executeTakeFirst();
    // sealed with the install's key, as every secret setting
    expect(raw?.value).toBeTruthy();
    expect(raw?.value).not.toBe('S3RVER');
    const seen = await status(viewer);
    expect(seen.connection.access_key_id).toBeNull();
    expect(JSON.stringify(seen)).not.toContain('S3RVER');
    expect(seen.remote).toEqual({ state: 'ok', error: null, data: [] });
    // leaving the secret out keeps it
    const again = await configure({ secret_access_key: undefined, keep: 14 });
    expect(again.connection.secret_set).toBe(true);
    const audit = await panel.services.database.db.selectFrom('audit_log').select(['action', 'details']).where('action', '=', 'admin.cloud.settings_update').execute();
    expect(audit.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(audit)).not.toContain('"S3RVER"');
  });

  it('uploads a local archive, lists it off-site, and brings it back byte for byte after the local copy is gone', async () => {
    const made = await archive();
    const original = localBytes(made.name);
    expect((await status()).local.find((a) => a.name === made.name)).toMatchObject({ remote: false });

    const upload = await ended(await call(operator, 'POST', `${API}/uploads`, { name: made.name }));
    expect(upload).toMatchObject({
      direction: 'upload',
      name: made.name,
      state: 'done',
      done: original.length,
      total: original.length,
      started_by: operator.username,
      error: null,
    });
    expect(await remoteKeys()).toEqual([`panel-one/${made.name}`]);
    const listed = await status(viewer);
    expect(listed.remote.data).toEqual([
      { name: made.name, size: original.length, created_at: made.createdAt.replace(/\.\d{3}Z$/, '.000Z'), uploaded_at: expect.any(String), kind: 'manual', local: true },
    ]);
    expect(listed.local.find((a) => a.name === made.name)).toMatchObject({ remote: true });
    expect(listed.transfer).toMatchObject({ id: upload.id, state: 'done' });

    // a second upload of the same archive is refused, nothing sent twice
    const twice = await call(operator, 'POST', `${API}/uploads`, { name: made.name });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('CLOUD_ALREADY_OFFSITE');

    // the backups screen's list learns where each archive is from this plugin's service
    const backupsList = async () => (await call(root, 'GET', '/api/admin/backups')).json() as { data: { name: string; where: string }[]; remote: string };
    expect(await backupsList()).toMatchObject({ remote: 'ok', data: expect.arrayContaining([expect.objectContaining({ name: made.name, where: 'both' })]) });

    await panel.services.panelBackup.remove(made.name);
    expect((await status()).remote.data[0]).toMatchObject({ name: made.name, local: false });
    expect((await backupsList()).data.find((row) => row.name === made.name)).toMatchObject({ where: 'remote' });
    const download = await ended(await call(operator, 'POST', `${API}/downloads`, { name: made.name }));
    expect(download).toMatchObject({ direction: 'download', state: 'done', done: original.length, total: original.length, error: null });
    expect(sha(localBytes(made.name))).toBe(sha(original));
    // the engine reads it as an archive of this install
    expect((await panel.services.panelBackup.verify(made.name)).kind).toBe('manual');

    // a download of an archive that is here already is refused
    const dup = await call(operator, 'POST', `${API}/downloads`, { name: made.name });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('BACKUP_EXISTS');

    const actions = (await panel.services.database.db.selectFrom('audit_log').select('action').where('action', 'like', 'admin.cloud.%').execute()).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['admin.cloud.upload', 'admin.cloud.download']));
  });

  it('sends an archive larger than two parts as a multipart upload, and gets it back whole', async () => {
    // rows enough to make a large archive (archives are not compressed): random text in the audit log
    const db = panel.services.database.db;
    const rows = Array.from({ length: 1100 }, () => ({
      action: 'test.filler',
      details: JSON.stringify({ filler: randomBytes(5000).toString('hex') }),
      created_at: new Date().toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 100)
      await db
        .insertInto('audit_log')
        .values(rows.slice(i, i + 100))
        .execute();
    const made = await archive();
    const original = localBytes(made.name);
    expect(original.length).toBeGreaterThan(2 * PART_BYTES);
    const upload = await ended(await call(root, 'POST', `${API}/uploads`, { name: made.name }));
    expect(upload).toMatchObject({ state: 'done', done: original.length, total: original.length });
    await panel.services.panelBackup.remove(made.name);
    const download = await ended(await call(root, 'POST', `${API}/downloads`, { name: made.name }));
    expect(download.state).toBe('done');
    expect(sha(localBytes(made.name))).toBe(sha(original));
    await panel.services.panelBackup.remove(made.name);
    await db.deleteFrom('audit_log').where('action', '=', 'test.filler').execute();
  });

  it('takes archive names only: never a path, never another object of the bucket', async () => {
    for (const name of [
      '../secret.opbk',
      'orepanel-20260101-000000-manual.opbk/../x',
      'a/b.opbk',
      'orepanel-20260101-000000-manual.zip',
      '..',
      'orepanel-20260101-000000-evil.opbk',
      `orepanel-20260101-000000-${'1'.repeat(4)}-manual.opbk`,
    ]) {
      for (const [method, url, body] of [
        ['POST', `${API}/uploads`, { name }],
        ['POST', `${API}/downloads`, { name }],
      ] as const) {
        const res = await call(root, method, url, body);
        expect(res.statusCode, `${url} ${name}`).toBe(400);
      }
      const del = await call(root, 'DELETE', `${API}/remote/${encodeURIComponent(name)}`);
      expect([400, 404], name).toContain(del.statusCode);
    }
  });

  it('answers an unreachable bucket with a 502 in words and loses nothing', async () => {
    const made = await archive();
    const port = await closedPort();
    await configure({ endpoint: `http://127.0.0.1:${port}`, secret_access_key: undefined });
    const listed = await status();
    expect(listed.remote).toMatchObject({ state: 'unavailable', error: { code: 'CLOUD_UNREACHABLE', message: expect.stringContaining(`127.0.0.1:${port}`) }, data: [] });
    expect(listed.local.some((a) => a.name === made.name)).toBe(true);

    const up = await call(root, 'POST', `${API}/uploads`, { name: made.name });
    expect(up.statusCode, up.body).toBe(502);
    expect(up.json().error).toMatchObject({ code: 'CLOUD_UNREACHABLE', message: expect.stringContaining('Could not reach') });
    const down = await call(root, 'POST', `${API}/downloads`, { name: 'orepanel-20200101-000000-manual.opbk' });
    expect(down.statusCode).toBe(502);
    const del = await call(root, 'DELETE', `${API}/remote/orepanel-20200101-000000-manual.opbk`);
    expect(del.statusCode).toBe(502);
    // the local archive is untouched
    expect((await panel.services.panelBackup.list()).some((a) => a.name === made.name)).toBe(true);
    await configure({ secret_access_key: undefined });
    await panel.services.panelBackup.remove(made.name);
  });

  it('keeps only the newest archives off-site after each upload, and never touches other objects', async () => {
    // objects of someone else in the same folder: neither listed nor removed
    const foreign = ['panel-one/notes.txt', 'panel-one/orepanel-notes.opbk'];
    const client = new S3Client({ region: 'us-east-1', endpoint: form.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    for (const Key of foreign) await client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: 'not an archive' }));
    client.destroy();
    await configure({ keep: 2, secret_access_key: undefined });
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const made = await archive();
      names.push(made.name);
      expect((await ended(await call(root, 'POST', `${API}/uploads`, { name: made.name }))).state).toBe('done');
    }
    const remote = (await status()).remote.data.map((a) => a.name);
    expect(remote).toHaveLength(2);
    expect(remote).toEqual([...names].reverse().slice(0, 2));
    expect(await panel.services.database.db.selectFrom('audit_log').select('action').where('action', '=', 'cloud.retention').executeTakeFirst()).toBeTruthy();
    expect(await remoteKeys()).toEqual(expect.arrayContaining(foreign));
    await configure({ keep: 14, secret_access_key: undefined });
  });

  it('lets only admin.root delete an off-site copy', async () => {
    const name = (await status()).remote.data[0].name;
    for (const who of [operator, viewer]) expect((await call(who, 'DELETE', `${API}/remote/${name}`)).statusCode).toBe(403);
    const res = await call(root, 'DELETE', `${API}/remote/${name}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await status()).remote.data.some((a) => a.name === name)).toBe(false);
    expect((await call(root, 'DELETE', `${API}/remote/${name}`)).json().error.code).toBe('CLOUD_ARCHIVE_NOT_FOUND');
  });

  it('uploads each scheduled backup on its own, and only those', async () => {
    const scheduled = await panel.services.panelBackup.create('scheduled');
    const manual = await archive();
    await panel.services.events.emit('backup.created', { name: manual.name, kind: 'manual', size: manual.size, createdAt: manual.createdAt });
    await panel.services.events.emit('backup.created', { name: scheduled.name, kind: 'scheduled', size: scheduled.size, createdAt: scheduled.createdAt });
    let remote: string[] = [];
    for (let i = 0; i < 200 && !remote.includes(scheduled.name); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      remote = (await status()).remote.data.map((a) => a.name);
    }
    expect(remote).toContain(scheduled.name);
    expect(remote).not.toContain(manual.name);
    const auto = (await status()).transfer;
    expect(auto).toMatchObject({ name: scheduled.name, started_by: null });

    // switched off: the next scheduled one stays local
    await configure({ auto_upload: false, secret_access_key: undefined });
    const next = await panel.services.panelBackup.create('scheduled');
    await panel.services.events.emit('backup.created', { name: next.name, kind: 'scheduled', size: next.size, createdAt: next.createdAt });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await status()).remote.data.some((a) => a.name === next.name)).toBe(false);
  });

  it('answers who may see and move copies', async () => {
    const made = await archive();
    expect((await call(null, 'GET', API)).statusCode).toBe(401);
    expect((await call(plain, 'GET', API)).statusCode).toBe(403);
    expect((await call(viewer, 'POST', `${API}/uploads`, { name: made.name })).statusCode).toBe(403);
    expect((await call(viewer, 'POST', `${API}/downloads`, { name: made.name })).statusCode).toBe(403);
    expect((await call(plain, 'GET', `${API}/transfers/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(403);
    expect((await call(viewer, 'GET', `${API}/transfers/00000000-0000-4000-8000-000000000000`)).json().error.code).toBe('CLOUD_TRANSFER_NOT_FOUND');
  });
});
