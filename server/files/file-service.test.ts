// The file service's own rules, below the HTTP layer: names, download headers, limits a plugin
// writes, and a refused stream leaving nothing in the store.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { RouteOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { isHttpError, type StoredFileType } from '../../sdk/server';
import { applyInputDefaults, formFieldsAsBody, InputSchemaError } from '../http/input-policy';
import { DiskFileStore } from './disk-store';
import { checkUploadConfig, contentDisposition, FileService, sanitiseFileName } from './file-service';

const dirs: string[] = [];
const service = () => {
  const dir = mkdtempSync(join(tmpdir(), 'orepanel-files-'));
  dirs.push(dir);
  return { dir, files: new FileService(new DiskFileStore(dir)) };
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (isHttpError(error)) return `${error.statusCode} ${error.code}`;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('sanitiseFileName', () => {
  it('keeps a readable name without folders, control or quoting characters, or a leading dot', () => {
    expect(sanitiseFileName('C:\\Users\\me\\report (final).pdf')).toBe('report (final).pdf');
    expect(sanitiseFileName('../../.env')).toBe('env');
    expect(sanitiseFileName('a"b;c\r\nd.txt')).toBe('a_b_c__d.txt');
    expect(sanitiseFileName('fișier-ăîș.log')).toBe('fișier-ăîș.log');
    expect(sanitiseFileName('')).toBe('file');
    expect(sanitiseFileName('...')).toBe('file');
    expect([...sanitiseFileName(`${'é'.repeat(300)}.txt`)]).toHaveLength(120);
  });
});

describe('contentDisposition', () => {
  it('shows images and PDF inline and downloads the rest, with an ASCII and a UTF-8 name', () => {
    expect(contentDisposition('image/webp', 'a.webp')).toBe(`inline; filename="a.webp"; filename*=UTF-8''a.webp`);
    expect(contentDisposition('application/pdf', 'a.pdf')).toMatch(/^inline;/);
    expect(contentDisposition('text/plain', 'résumé.txt')).toBe(`attachment; filename="r_sum_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`);
  });
});

describe('FileService.store', () => {
  it('keeps a stream within the limits and reads it back', async () => {
    const { files } = service();
    const stored = await files.store(Readable.from([Buffer.from('hello '), Buffer.from('world')]), 'greeting.txt', { maxBytes: 11, types: ['text/plain'] });
    expect(stored).toMatchObject({ type: 'text/plain', size: 11, name: 'greeting.txt' });
    const opened = await files.open(stored.key);
    const chunks: Buffer[] = [];
    for await (const chunk of opened?.stream ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello world');
  });

  it('refuses a stream over the limit, or of another type, and keeps nothing', async () => {
    const { dir, files } = service();
    expect(await codeOf(files.store(Readable.from([Buffer.alloc(8, 'a'), Buffer.alloc(8, 'a')]), 'big.txt', { maxBytes: 10, types: ['text/plain'] }))).toBe('413 FILE_TOO_LARGE');
    expect(await codeOf(files.store(Readable.from([Buffer.from('plain')]), 'x.png', { maxBytes: 10, types: ['image/png'] }))).toBe('415 FILE_TYPE_REFUSED');
    expect(
      await codeOf(files.store(Readable.from([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])]), 'broken.png', { maxBytes: 100, types: ['image/png'] })),
    ).toBe('415 FILE_TYPE_REFUSED');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('finds nothing under a key that is not one of its own', async () => {
    const { files } = service();
    expect(await files.open('../../secret.key')).toBeNull();
    expect(await files.delete('AAAAAAAAAAAAAAAAAAAAAA')).toBe(false);
  });

  it('refuses limits a plugin got wrong', async () => {
    const { files } = service();
    await expect(files.store(Readable.from([]), 'a', { maxBytes: 0, types: ['text/plain'] })).rejects.toThrow(TypeError);
    await expect(files.store(Readable.from([]), 'a', { maxBytes: 100 * 1024 * 1024, types: ['text/plain'] })).rejects.toThrow(TypeError);
    await expect(files.store(Readable.from([]), 'a', { maxBytes: 10, types: [] })).rejects.toThrow(TypeError);
    expect(() => checkUploadConfig({ maxFiles: 0, maxBytes: 10, types: ['text/plain'] })).toThrow(TypeError);
    expect(() => checkUploadConfig({ maxFiles: 21, maxBytes: 10, types: ['text/plain'] })).toThrow(TypeError);
  });
});

describe('upload routes in the input policy', () => {
  const route = (options: Partial<RouteOptions>) => ({ method: 'POST', url: '/api/fx/upload', handler: async () => null, ...options }) as RouteOptions;

  it('takes an upload route with or without a body schema, refuses wrong fixed limits, and an upload on a GET', () => {
    expect(() => applyInputDefaults(route({ config: { upload: { maxFiles: 1, maxBytes: 10, types: ['text/plain'] } }, schema: { body: { type: 'object' } } }))).not.toThrow();
    expect(() => applyInputDefaults(route({ config: { upload: { maxFiles: 1, maxBytes: 10, types: ['image/svg+xml'] as unknown as StoredFileType[] } } }))).toThrow(TypeError);
    expect(() => applyInputDefaults(route({ config: { upload: { maxFiles: 1, maxBytes: 10, types: ['text/plain'] } } }))).not.toThrow();
    // limits read per request are checked at each request, not here
    expect(() => applyInputDefaults(route({ config: { upload: () => ({ maxFiles: 0, maxBytes: 10, types: ['text/plain'] }) } }))).not.toThrow();
    expect(() => applyInputDefaults(route({ method: 'GET', config: { upload: { maxFiles: 1, maxBytes: 10, types: ['text/plain'] } } }))).toThrow(InputSchemaError);
  });

  it("turns a form's text fields into the body its schema checks, converting declared numbers only", () => {
    const schema = { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 9 }, name: { type: 'string' } } };
    expect(formFieldsAsBody({ id: '3', name: '42', other: '7' }, schema)).toEqual({ id: 3, name: '42', other: '7' });
    expect(formFieldsAsBody({ id: '0x3' }, schema)).toEqual({ id: '0x3' });
    // a field called __proto__ is an own field the schema can refuse, not the object's prototype
    const body = formFieldsAsBody(JSON.parse('{"__proto__":"x"}') as Record<string, string>, schema);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.keys(body)).toEqual(['__proto__']);
  });
});
