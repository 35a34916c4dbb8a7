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
 * files with `ctx.files.fromRequest(request)`.
 *
 * - Without a body schema the route takes only the form (a JSON body answers 415).
 * - With a body schema it takes either a JSON body or a form, both checked by that one schema: the
 *   form's text fields become `request.body` (converted to the declared types the way query strings
 *   are, so `department_id=3` is the integer 3; an unknown field is refused), and its files are read,
 *   checked and kept before the schema runs. A JSON request simply has no files.
 *
 * Whichever it is, the files of a request that ends in an error answer (the schema refused a field,
 * the handler threw 409 after the upload…) are deleted before the answer leaves: a refused request
 * leaves no file behind. So a handler commits the rows that point at its files as its last step that
 * may fail.
 */
export interface UploadRouteConfig extends FileLimits {
  /** 1 to 20 */
  maxFiles: number;
}

/**
 * `config.upload`: fixed limits, or a function that reads them per request (limits an administrator
 * tunes in the plugin's settings). A function's answer is checked like fixed limits: a wrong one is
 * the plugin's bug (500), never the uploader's.
 */
export type UploadRouteOption = UploadRouteConfig | ((request: FastifyRequest) => UploadRouteConfig | Promise<UploadRouteConfig>);

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
  /**
   * The files (and text fields) of a request to a route that declares `config.upload`, checked and
   * kept under that route's limits; on a route that also takes JSON, a JSON request has none
   * (`{ files: [], fields: {} }`). Asking twice answers the same files.
   */
  fromRequest(request: FastifyRequest): Promise<UploadedForm>;
  /** null when there is no such file */
  open(key: string): Promise<OpenedFile | null>;
  /** true when a file was deleted */
  delete(key: string): Promise<boolean>;
  /**
   * Sends a stored file (its stored type, nosniff, inline only for images and PDF, a safe download
   * name); 404 FILE_NOT_FOUND when it is gone. Privately (Cache-Control private, no-store) unless
   * `options.public`. Check access first: the key is the only thing this checks.
   */
  send(reply: FastifyReply, key: string, options?: SendFileOptions): Promise<FastifyReply>;
}

export interface SendFileOptions {
  /**
   * A file meant for everyone (a library picture on a public page): browsers and proxies may keep it
   * for a year without asking again (`public, max-age=31536000, immutable`), which is right because
   * a key is random and the bytes under it never change. Only an image is sent this way; a public
   * route asking for another kind answers 404 FILE_NOT_FOUND, so nothing but pictures is ever
   * cached publicly. (SVG is never a stored image type: its bytes are kept, if at all, as text.)
   */
  public?: boolean;
}
