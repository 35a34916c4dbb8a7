// ctx.files: the panel's one file service. Plugins keep what users upload (ticket attachments,
// avatars) through it instead of each writing its own storage: the type is decided by the bytes,
// image metadata (EXIF GPS positions, XMP, comments) is removed, and files are served privately.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';

/** The types the panel keeps, decided from the file's bytes (magic numbers; text: UTF-8 without NUL). */
export type StoredFileType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'application/pdf' | 'text/plain';

export const STORED_FILE_TYPES: readonly StoredFileType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain'];

/** The largest single file any limit may allow (a file is held in memory while its metadata is removed). */
export const MAX_STORED_FILE_BYTES = 25 * 1024 * 1024;

export interface FileLimits {
  /** at most MAX_STORED_FILE_BYTES */
  maxBytes: number;
  /** the types accepted; another type is refused with 415 FILE_TYPE_REFUSED */
  types: readonly StoredFileType[];
}

/**
 * A route that takes uploads declares it: `config: { upload: { maxFiles, maxBytes, types } }`. Only
 * such a route accepts a multipart/form-data body (every other one answers 415), and it reads the
 * body with `ctx.files.fromRequest(request)`.
 */
export interface UploadRouteConfig extends FileLimits {
  /** 1 to 20 */
  maxFiles: number;
}

export interface StoredFile {
  /** random and unguessable (128 bits, base64url): what the plugin keeps in its own table */
  key: string;
  type: StoredFileType;
  /** bytes as kept (after metadata removal) */
  size: number;
  /** the uploader's file name, sanitised: for display and downloads only, never a path */
  name: string;
}

export interface OpenedFile {
  stream: Readable;
  type: StoredFileType;
  size: number;
  name: string;
}

export interface UploadedForm {
  files: StoredFile[];
  /** the form's text fields (the first value of each) */
  fields: Record<string, string>;
}

/**
 * ctx.files. Refusals are http errors a route may let through: 413 FILE_TOO_LARGE, 415
 * FILE_TYPE_REFUSED, 400 TOO_MANY_FILES / UPLOAD_INVALID; a refused upload leaves nothing stored.
 */
export interface PluginFiles {
  /** Reads the stream whole, checks it against the limits, removes image metadata and keeps it. */
  store(content: Readable | AsyncIterable<Uint8Array>, name: string, limits: FileLimits): Promise<StoredFile>;
  /** Stores the files of a multipart request to a route that declares `config.upload`, under that route's limits. */
  fromRequest(request: FastifyRequest): Promise<UploadedForm>;
  /** null when there is no such file */
  open(key: string): Promise<OpenedFile | null>;
  /** true when a file was deleted */
  delete(key: string): Promise<boolean>;
  /**
   * Sends a stored file privately (its stored type, nosniff, Cache-Control private, inline only for
   * images and PDF, a safe download name); 404 FILE_NOT_FOUND when it is gone. Check access first:
   * the key is the only thing this checks.
   */
  send(reply: FastifyReply, key: string): Promise<FastifyReply>;
}
