// ctx.files through a fixture plugin: uploads only on routes that declare them, type by bytes,
// limits that leave nothing behind, metadata removed, and files served privately.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_PLUGINS, ROOT, secondInstance, startPanel, type TestPanel } from './harness';
import { multipartForm } from './multipart-form';
import { startTestS3, type TestS3 } from './s3-server';

const FILE_PLUGINS = join(ROOT, 'tests', 'fixtures', 'file-plugins');
const GPS = 'GPSLatitude 44.4268N';

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function pngWithExif(): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('eXIf', Buffer.from(`MM\0*${GPS}`, 'latin1')),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const form = multipartForm;

describe.each(['disk', 's3'] as const)('the file service, %s store', (store) => {
  let panel: TestPanel;
  let app: FastifyInstance;
  let s3: TestS3 | null = null;
  /** every file the store holds (on S3: under the panel's prefix) */
  const storedFiles = async (): Promise<string[]> => {
    if (s3) return s3.keys('panel-a/');
    try {
      return readdirSync(join(panel.database.dataDir, 'files'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name);
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    if (store === 's3') s3 = await startTestS3();
    panel = await startPanel('sqlite', { pluginDirs: [REPO_PLUGINS, FILE_PLUGINS], env: s3 ? { ...s3.env, FILES_S3_PREFIX: 'panel-a/' } : {} });
    app = panel.app;
  });
  afterAll(async () => {
    await panel?.close();
    await s3?.close();
  });

  it('keeps an upload under a random key, by the type of its bytes, without its metadata, and serves it privately', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/fx-files',
      ...(await form([{ name: '../../etc/holiday <photo>.txt', bytes: pngWithExif(), claim: 'text/plain' }], { note: 'hi' })),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { files: { key: string; type: string; size: number; name: string }[]; fields: Record<string, string> };
    expect(body.fields).toEqual({ note: 'hi' });
    const [file] = body.files;
    expect(file?.type).toBe('image/png');
    expect(file?.key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(file?.name).toBe('holiday _photo_.txt');

    const served = await app.inject({ url: `/api/fx-files/${file?.key}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('private, no-store');
    expect(served.headers['content-disposition']).toBe(`inline; filename="holiday _photo_.txt"; filename*=UTF-8''holiday%20_photo_.txt`);
    expect(served.rawPayload.length).toBe(file?.size);
    expect(served.rawPayload.includes(Buffer.from(GPS))).toBe(false);
    expect(served.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    // on disk the data and its description; on S3 one object under the prefix
    expect(await storedFiles()).toHaveLength(store === 's3' ? 1 : 2);
    if (store === 's3') expect(existsSync(join(panel.database.dataDir, 'files'))).toBe(false);

    expect((await app.inject({ method: 'DELETE', url: `/api/fx-files/${file?.key}` })).json()).toEqual({ deleted: true });
    expect((await app.inject({ method: 'DELETE', url: `/api/fx-files/${file?.key}` })).json()).toEqual({ deleted: false });
    expect((await app.inject({ url: `/api/fx-files/${file?.key}` })).statusCode).toBe(404);
    expect(await storedFiles()).toEqual([]);
  });

  it('sends text as a download', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/fx-files', ...(await form([{ name: 'server.log', bytes: Buffer.from('[INFO] Done (3.2s)!\n') }])) });
    const key = (res.json() as { files: { key: string }[] }).files[0]?.key;
    const served = await app.inject({ url: `/api/fx-files/${key}` });
    expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.headers['content-disposition']).toMatch(/^attachment; filename="server.log"/);
    expect(served.body).toBe('[INFO] Done (3.2s)!\n');
    await app.inject({ method: 'DELETE', url: `/api/fx-files/${key}` });
  });

  it('refuses a file whose bytes are not an accepted type, whatever its name and claim say, keeping nothing', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n');
    const res = await app.inject({ method: 'POST', url: '/api/fx-files', ...(await form([{ name: 'cat.png', bytes: pdf, claim: 'image/png' }])) });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ error: { code: 'FILE_TYPE_REFUSED' } });
    const exe = await app.inject({ method: 'POST', url: '/api/fx-files', ...(await form([{ name: 'notes.txt', bytes: Buffer.from([0x4d, 0x5a, 0, 0]) }])) });
    expect(exe.statusCode).toBe(415);
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses an oversize file and leaves nothing stored, not even the good file sent before it', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/fx-files',
      ...(await form([
        { name: 'ok.txt', bytes: Buffer.from('fine') },
        { name: 'big.txt', bytes: Buffer.alloc(4096, 'a') },
      ])),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: { code: 'FILE_TOO_LARGE' } });
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses more files than the route allows, keeping none', async () => {
    const three = ['a', 'b', 'c'].map((name) => ({ name: `${name}.txt`, bytes: Buffer.from(name) }));
    const res = await app.inject({ method: 'POST', url: '/api/fx-files', ...(await form(three)) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'TOO_MANY_FILES' } });
    expect(await storedFiles()).toEqual([]);
  });

  it('takes a multipart form only on a route that declares config.upload', async () => {
    const upload = await form([{ name: 'a.txt', bytes: Buffer.from('a') }], { note: 'x' });
    const onJsonRoute = await app.inject({ method: 'POST', url: '/api/fx-files/note', ...upload });
    expect(onJsonRoute.statusCode).toBe(415);
    const onCoreRoute = await app.inject({ method: 'POST', url: '/api/user/auth/login', ...upload });
    expect(onCoreRoute.statusCode).toBe(415);
    const onBodylessRoute = await app.inject({ method: 'DELETE', url: '/api/fx-files/AAAAAAAAAAAAAAAAAAAAAA', ...upload });
    expect(onBodylessRoute.statusCode).toBe(415);
    const jsonOnUploadRoute = await app.inject({ method: 'POST', url: '/api/fx-files', payload: { file: 'x' } });
    expect(jsonOnUploadRoute.statusCode).toBe(415);
    expect((await app.inject({ method: 'POST', url: '/api/fx-files/note', payload: { note: 'x' } })).json()).toEqual({ note: 'x' });
    expect(await storedFiles()).toEqual([]);
  });

  it("takes JSON or a form on a route with a body schema: the form's fields are the body, limits read per request, and a refusal after the upload keeps no file", async () => {
    const json = await app.inject({ method: 'POST', url: '/api/fx-files/notes', payload: { note: 'plain', count: 2 } });
    expect(json.json()).toEqual({ body: { note: 'plain', count: 2 }, files: [] });

    const withFile = await app.inject({
      method: 'POST',
      url: '/api/fx-files/notes',
      ...(await form([{ name: 'a.txt', bytes: Buffer.from('hello') }], { note: 'form', count: '3' })),
    });
    expect(withFile.statusCode, withFile.body).toBe(200);
    const sent = withFile.json() as { body: Record<string, unknown>; files: { key: string }[] };
    expect(sent.body).toEqual({ note: 'form', count: 3 });
    expect(sent.files).toHaveLength(1);
    expect(await storedFiles()).toHaveLength(store === 's3' ? 1 : 2);
    await app.inject({ method: 'DELETE', url: `/api/fx-files/${sent.files[0]?.key}` });

    // the schema refuses a field (an unknown one, a number out of bounds, a missing one): 400, no file
    for (const fields of [{ note: 'x', zz: '1' }, { note: 'x', count: '9' }, { count: '1' }] as Record<string, string>[]) {
      const refused = await app.inject({ method: 'POST', url: '/api/fx-files/notes', ...(await form([{ name: 'a.txt', bytes: Buffer.from('hello') }], fields)) });
      expect(refused.statusCode, JSON.stringify(fields)).toBe(400);
    }
    // the handler refuses after the files were kept: none stays
    const late = await app.inject({ method: 'POST', url: '/api/fx-files/notes', ...(await form([{ name: 'a.txt', bytes: Buffer.from('hello') }], { note: 'refuse' })) });
    expect(late.statusCode).toBe(409);
    // the limits come from the request: 4 bytes now, so 'hello' is too large
    const small = await form([{ name: 'a.txt', bytes: Buffer.from('hello') }], { note: 'x' });
    const tooLarge = await app.inject({ method: 'POST', url: '/api/fx-files/notes', payload: small.payload, headers: { ...small.headers, 'x-fx-max-bytes': '4' } });
    expect(tooLarge.statusCode).toBe(413);
    // a plugin whose function answers wrong limits has a bug: 500, and nothing kept
    const wrong = await app.inject({ method: 'POST', url: '/api/fx-files/notes', payload: small.payload, headers: { ...small.headers, 'x-fx-max-bytes': '0' } });
    expect(wrong.statusCode).toBe(500);
    expect(await storedFiles()).toEqual([]);
  });

  it('serves a file kept through one instance from another', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/fx-files', ...(await form([{ name: 'a.txt', bytes: Buffer.from('shared') }])) });
    const key = (res.json() as { files: { key: string }[] }).files[0]?.key;
    const other = await secondInstance(panel, { pluginDirs: [REPO_PLUGINS, FILE_PLUGINS] });
    try {
      expect((await other.inject({ url: `/api/fx-files/${key}` })).body).toBe('shared');
      expect((await other.inject({ method: 'DELETE', url: `/api/fx-files/${key}` })).json()).toEqual({ deleted: true });
    } finally {
      await other.close();
    }
    expect((await app.inject({ url: `/api/fx-files/${key}` })).statusCode).toBe(404);
  });

  it('serves an image publicly with the long cache headers, and nothing but images that way', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/fx-files',
      ...(await form([
        { name: 'map.png', bytes: pngWithExif() },
        { name: 'notes.txt', bytes: Buffer.from('plain') },
      ])),
    });
    const [image, text] = (res.json() as { files: { key: string; size: number }[] }).files;
    const served = await app.inject({ url: `/api/fx-files/public/${image?.key}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toMatch(/^inline; filename="map.png"/);
    expect(served.rawPayload.length).toBe(image?.size);
    // the same file through a private route stays private
    expect((await app.inject({ url: `/api/fx-files/${image?.key}` })).headers['cache-control']).toBe('private, no-store');
    // text never leaves through a public route, nor lands in a shared cache
    const publicText = await app.inject({ url: `/api/fx-files/public/${text?.key}` });
    expect(publicText.statusCode).toBe(404);
    expect(publicText.json()).toMatchObject({ error: { code: 'FILE_NOT_FOUND' } });
    expect(publicText.headers['cache-control']).toBe('no-store');
    expect((await app.inject({ url: '/api/fx-files/public/AAAAAAAAAAAAAAAAAAAAAA' })).statusCode).toBe(404);
    for (const key of [image?.key, text?.key]) await app.inject({ method: 'DELETE', url: `/api/fx-files/${key}` });
  });

  it('never keeps or serves an SVG as an image: its bytes are text at most, sent as a download', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const res = await app.inject({ method: 'POST', url: '/api/fx-files', ...(await form([{ name: 'logo.svg', bytes: svg, claim: 'image/svg+xml' }])) });
    const [file] = (res.json() as { files: { key: string; type: string }[] }).files;
    expect(file?.type).toBe('text/plain');
    expect((await app.inject({ url: `/api/fx-files/public/${file?.key}` })).statusCode).toBe(404);
    const served = await app.inject({ url: `/api/fx-files/${file?.key}` });
    expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    await app.inject({ method: 'DELETE', url: `/api/fx-files/${file?.key}` });
  });

  it('answers 404 for a key that is not a stored file, including one shaped like a path', async () => {
    expect((await app.inject({ url: '/api/fx-files/AAAAAAAAAAAAAAAAAAAAAA' })).statusCode).toBe(404);
    expect((await app.inject({ url: `/api/fx-files/${encodeURIComponent('../secret.key')}` })).statusCode).toBe(404);
  });
});
