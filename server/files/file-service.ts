// ctx.files (sdk/server/files.ts): checks, cleans and keeps uploaded files in one store, and sends
// them back privately. A file is read whole before anything is kept: its type is decided by its
// bytes and its image metadata removed, and a refused file never reaches the store.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  httpError,
  MAX_STORED_FILE_BYTES,
  STORED_FILE_TYPES,
  type FileLimits,
  type OpenedFile,
  type PluginFiles,
  type SendFileOptions,
  type StoredFile,
  type StoredFileType,
  type UploadedForm,
  type UploadRouteConfig,
} from '../../sdk/server';
import { isMultipart } from './multipart';
import { MalformedImageError, sniffFileType, withoutMetadata } from './content';
import type { FileStore } from './store';

const KEY = /^[A-Za-z0-9_-]{22}$/;
const MAX_UPLOAD_FILES = 20;
const MAX_NAME_LENGTH = 120;
/** a key's bytes never change, so a public file may be cached for the longest time browsers honour */
const PUBLIC_CACHE = 'public, max-age=31536000, immutable';

/** 128 random bits, base64url: a key is the file's only name in the store and cannot be guessed. */
export function newFileKey(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The uploader's name as something safe to show and to put in a download header: no folders, no
 * control or quoting characters, no leading dots (hidden files), at most 120 characters.
 */
export function sanitiseFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._()+,=@[\]-]/gu, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .trim();
  const short = [...clean].slice(0, MAX_NAME_LENGTH).join('').trim();
  return short || 'file';
}

/** Checks limits a plugin wrote (a wrong one is the plugin's bug, not the uploader's: TypeError). */
export function checkFileLimits(limits: FileLimits): void {
  if (!Number.isSafeInteger(limits.maxBytes) || limits.maxBytes < 1 || limits.maxBytes > MAX_STORED_FILE_BYTES) {
    throw new TypeError(`files: maxBytes must be a whole number from 1 to ${MAX_STORED_FILE_BYTES}`);
  }
  if (!Array.isArray(limits.types) || limits.types.length === 0 || limits.types.some((t) => !STORED_FILE_TYPES.includes(t))) {
    throw new TypeError(`files: types must list some of ${STORED_FILE_TYPES.join(', ')}`);
  }
}

export function checkUploadConfig(upload: UploadRouteConfig): void {
  checkFileLimits(upload);
  if (!Number.isSafeInteger(upload.maxFiles) || upload.maxFiles < 1 || upload.maxFiles > MAX_UPLOAD_FILES) {
    throw new TypeError(`files: maxFiles must be a whole number from 1 to ${MAX_UPLOAD_FILES}`);
  }
}

const tooLarge = (maxBytes: number) => httpError(413, 'FILE_TOO_LARGE', `A file may have at most ${maxBytes} bytes.`);

async function readAtMost(content: Readable | AsyncIterable<Uint8Array>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of content) {
    size += chunk.length;
    if (size > maxBytes) {
      if ('destroy' in content && typeof content.destroy === 'function') content.destroy();
      throw tooLarge(maxBytes);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** The disposition a browser gets: images and PDF may show in a tab; anything else downloads. */
export function contentDisposition(type: StoredFileType, name: string): string {
  const inline = type.startsWith('image/') || type === 'application/pdf';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

interface MultipartPart {
  type: 'file' | 'field';
  fieldname: string;
  filename?: string;
  file?: Readable;
  value?: unknown;
}

interface MultipartRequest {
  isMultipart?: () => boolean;
  parts?: (options: { limits: Record<string, number> }) => AsyncIterable<MultipartPart>;
}

// @fastify/multipart's error codes, as the uploader's mistakes they are
const MULTIPART_ERRORS: Readonly<Record<string, (upload: UploadRouteConfig) => Error>> = {
  FST_REQ_FILE_TOO_LARGE: (upload) => tooLarge(upload.maxBytes),
  FST_FILES_LIMIT: (upload) => httpError(400, 'TOO_MANY_FILES', `At most ${upload.maxFiles} files may be sent at once.`),
  FST_PARTS_LIMIT: () => httpError(400, 'UPLOAD_INVALID', 'The form has too many parts.'),
  FST_FIELDS_LIMIT: () => httpError(400, 'UPLOAD_INVALID', 'The form has too many fields.'),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () => httpError(415, 'UPLOAD_INVALID', 'The request is not a multipart/form-data form.'),
};

export class FileService implements PluginFiles {
  /** the form each upload request sent, read once (by the pipeline or the handler, whichever asks first) */
  private readonly forms = new WeakMap<FastifyRequest, Promise<UploadedForm>>();

  constructor(private readonly backend: FileStore) {}

  private async keep(bytes: Buffer, name: string, limits: FileLimits): Promise<StoredFile> {
    if (bytes.length > limits.maxBytes) throw tooLarge(limits.maxBytes);
    const type = sniffFileType(bytes);
    if (type === null || !limits.types.includes(type)) {
      throw httpError(415, 'FILE_TYPE_REFUSED', `This kind of file is not accepted (accepted: ${limits.types.join(', ')}).`);
    }
    let kept: Buffer;
    try {
      kept = withoutMetadata(type, bytes);
    } catch (error) {
      if (error instanceof MalformedImageError) throw httpError(415, 'FILE_TYPE_REFUSED', 'The image is damaged.');
      throw error;
    }
    const file: StoredFile = { key: newFileKey(), type, size: kept.length, name: sanitiseFileName(name) };
    await this.backend.put(file.key, kept, { type: file.type, size: file.size, name: file.name });
    return file;
  }

  async store(content: Readable | AsyncIterable<Uint8Array>, name: string, limits: FileLimits): Promise<StoredFile> {
    checkFileLimits(limits);
    return this.keep(await readAtMost(content, limits.maxBytes), name, limits);
  }

  /** The route's config.upload for this request: fixed, or what its function answers (checked either way). */
  async uploadLimits(request: FastifyRequest): Promise<UploadRouteConfig> {
    const option = request.routeOptions.config.upload;
    if (!option) throw new TypeError(`files.fromRequest: the route ${request.routeOptions.url} declares no config.upload`);
    const upload = typeof option === 'function' ? await option(request) : option;
    checkUploadConfig(upload);
    return upload;
  }

  /**
   * The request's form, read once: the pipeline reads it before the body schema runs (the form's
   * fields are the body), the handler's fromRequest gets the same files. null: not a form.
   */
  readForm(request: FastifyRequest): Promise<UploadedForm> | null {
    if (!isMultipart(request)) return null;
    let form = this.forms.get(request);
    if (!form) {
      form = this.parse(request);
      this.forms.set(request, form);
    }
    return form;
  }

  private async parse(request: FastifyRequest): Promise<UploadedForm> {
    const upload = await this.uploadLimits(request);
    const multipart = request as unknown as MultipartRequest;
    if (!multipart.parts) throw httpError(415, 'UPLOAD_INVALID', 'The request is not a multipart/form-data form.');
    const files: StoredFile[] = [];
    // own properties only: a field called __proto__ is a field like any other (and the body schema refuses it)
    const fields = new Map<string, string>();
    try {
      const parts = multipart.parts({ limits: { fileSize: upload.maxBytes, files: upload.maxFiles, fields: 20, parts: upload.maxFiles + 20, fieldSize: 64 * 1024 } });
      for await (const part of parts) {
        if (part.type === 'file' && part.file) {
          const bytes = await readAtMost(part.file, upload.maxBytes);
          // busboy marks a file it cut at the limit; the size check above sees the cut length
          if ((part.file as Readable & { truncated?: boolean }).truncated) throw tooLarge(upload.maxBytes);
          files.push(await this.keep(bytes, part.filename ?? 'file', upload));
        } else if (part.type === 'field' && typeof part.value === 'string' && !fields.has(part.fieldname)) {
          fields.set(part.fieldname, part.value);
        }
      }
    } catch (error) {
      // an upload is all or nothing: the files kept before the refused one go too
      await Promise.all(files.map((file) => this.backend.remove(file.key)));
      const code = (error as { code?: unknown }).code;
      const mapped = typeof code === 'string' ? MULTIPART_ERRORS[code] : undefined;
      throw mapped ? mapped(upload) : error;
    }
    return { files, fields: Object.fromEntries(fields) };
  }

  async fromRequest(request: FastifyRequest): Promise<UploadedForm> {
    const form = this.readForm(request);
    if (form) return form;
    if (!request.routeOptions.config.upload) throw new TypeError(`files.fromRequest: the route ${request.routeOptions.url} declares no config.upload`);
    // a route that also takes JSON: a JSON request carries no files (its fields are request.body),
    // whatever the limits say now (limits that allow no file refuse only forms)
    if (request.routeOptions.schema?.body !== undefined) return { files: [], fields: {} };
    throw httpError(415, 'UPLOAD_INVALID', 'The request is not a multipart/form-data form.');
  }

  /**
   * onSend of every route: a request that ends in an error answer keeps none of the files it sent
   * (the body schema refused a field, the handler's rules refused after the upload, a 500).
   */
  readonly discardRefused = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (reply.statusCode < 400) return payload;
    const form = this.forms.get(request);
    if (!form) return payload;
    this.forms.delete(request);
    const kept = await form.then(
      (read) => read.files,
      () => [], // a refused form removed its own files
    );
    await Promise.all(kept.map((file) => this.backend.remove(file.key)));
    return payload;
  };
  async open(key: string): Promise<OpenedFile | null> {
    if (!KEY.test(key)) return null;
    const found = await this.backend.get(key);
    return found ? { stream: found.stream, ...found.info } : null;
  }

  async delete(key: string): Promise<boolean> {
    if (!KEY.test(key)) return false;
    return this.backend.remove(key);
  }

  async send(reply: FastifyReply, key: string, options: SendFileOptions = {}): Promise<FastifyReply> {
    const isPublic = options.public === true;
    const file = await this.open(key);
    // a public route serves pictures only: a PDF or text kept in the same store never leaves
    // through it (and never lands in a shared cache)
    if (file && isPublic && !file.type.startsWith('image/')) file.stream.destroy();
    else if (file) return this.sendOpened(reply, file, isPublic);
    throw httpError(404, 'FILE_NOT_FOUND', 'This file does not exist.');
  }

  private sendOpened(reply: FastifyReply, file: OpenedFile, isPublic: boolean): FastifyReply {
    return reply
      .header('Content-Type', file.type === 'text/plain' ? 'text/plain; charset=utf-8' : file.type)
      .header('Content-Length', String(file.size))
      .header('Content-Disposition', contentDisposition(file.type, file.name))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', isPublic ? PUBLIC_CACHE : 'private, no-store')
      .send(file.stream);
  }
}
