// Attachments of ticket messages (screenshots, logs), kept through the core file service (ctx.files):
// typed by their bytes, image metadata removed, served privately. The limits are the plugin's
// settings, read at each request. A file is served only through its ticket: to the ticket's owner
// (never a staff note's file) and to staff who see the ticket's department — anyone else gets the
// same 404 as for a key that does not exist.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses, MAX_STORED_FILE_BYTES, type ServerPluginContext, type StoredFile, type StoredFileType, type UploadRouteConfig } from '@orepanel/sdk/server';
import type { Departments } from './departments';
import type { Desk } from './desk';
import type { TicketDb } from './tables';

/** the names an administrator lists in tickets_attachment_types, and the type each one means */
export const ATTACHMENT_TYPE_NAMES: Readonly<Record<string, StoredFileType>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  log: 'text/plain',
};

export const ATTACHMENT_SETTINGS = ['tickets_attachment_types', 'tickets_attachment_max_mb', 'tickets_attachment_max_files'] as const;

const MB = 1024 * 1024;

/** What a message's form may carry, from the settings; maxFiles 0: attachments are switched off. */
export interface AttachmentLimits {
  maxFiles: number;
  maxBytes: number;
  types: StoredFileType[];
  /** the listed names that are known (for the browser's file picker: `.png,.jpg,…`) */
  extensions: string[];
}

/** The settings as limits: unknown type names are ignored; no known type means no attachments. */
export function attachmentLimits(values: Record<string, unknown>): AttachmentLimits {
  const listed = String(values.tickets_attachment_types ?? '')
    .split(/[\s,;]+/)
    .map((name) => name.trim().toLowerCase().replace(/^\./, ''))
    .filter((name) => Object.hasOwn(ATTACHMENT_TYPE_NAMES, name));
  // jpeg and jpg are one type by two names
  const names = [...new Set(listed.flatMap((name) => (name === 'jpeg' || name === 'jpg' ? ['jpeg', 'jpg'] : [name])))];
  const types = [...new Set(names.map((name) => ATTACHMENT_TYPE_NAMES[name] as StoredFileType))];
  const megabytes = Number(values.tickets_attachment_max_mb);
  const maxBytes = Math.min(MAX_STORED_FILE_BYTES, Math.max(1, Math.round((Number.isFinite(megabytes) ? megabytes : 5) * MB)));
  const files = Number(values.tickets_attachment_max_files);
  const maxFiles = types.length === 0 ? 0 : Math.min(20, Math.max(0, Number.isSafeInteger(files) ? files : 5));
  return { maxFiles, maxBytes, types, extensions: names };
}

/** A message's attachment as both sides see it. */
export interface AttachmentView {
  key: string;
  name: string;
  type: StoredFileType;
  size: number;
}

export const attachmentViewSchema = {
  type: 'object',
  required: ['key', 'name', 'type', 'size'],
  properties: { key: { type: 'string' }, name: { type: 'string' }, type: { type: 'string' }, size: { type: 'integer' } },
} as const;

/** Rows for the files of a new message, written in the message's own transaction. */
export async function keepAttachments(trx: TicketDb, ticketId: number, messageId: number, files: readonly StoredFile[], now: string): Promise<void> {
  if (files.length === 0) return;
  await trx
    .insertInto('ticket_attachments')
    .values(files.map((file) => ({ message_id: messageId, ticket_id: ticketId, file_key: file.key, name: file.name, type: file.type, size: file.size, created_at: now })))
    .execute();
}

export class Attachments {
  constructor(
    private readonly db: TicketDb,
    private readonly ctx: ServerPluginContext,
  ) {}

  async limits(): Promise<AttachmentLimits> {
    return attachmentLimits(await this.ctx.settings.getMany(ATTACHMENT_SETTINGS));
  }

  /**
   * config.upload of the create and reply routes: the settings at this request. With attachments
   * switched off a form is refused (the pages then send JSON, which always works).
   */
  readonly uploadLimits = async (): Promise<UploadRouteConfig> => {
    const { maxFiles, maxBytes, types } = await this.limits();
    if (maxFiles === 0) throw this.ctx.httpError(400, 'TOO_MANY_FILES', 'Attachments are switched off.');
    return { maxFiles, maxBytes, types };
  };

  /**
   * The files of a create or reply request, each named with an extension the settings list for the
   * type its bytes are: a `.png` that holds a PHP script or HTML (or no extension at all) is refused,
   * so the name a downloader's computer sees never claims another type than the file has.
   */
  async accept(request: FastifyRequest): Promise<StoredFile[]> {
    const { files } = await this.ctx.files.fromRequest(request);
    if (files.length === 0) return files;
    const { extensions } = await this.limits();
    for (const file of files) {
      const extension = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
      if (!extensions.includes(extension) || ATTACHMENT_TYPE_NAMES[extension] !== file.type) {
        throw this.ctx.httpError(415, 'FILE_TYPE_REFUSED', `${file.name}: its name does not match its content (${file.type}); accepted: ${extensions.join(', ')}.`);
      }
    }
    return files;
  }

  /** Each message's attachments, by message id (a message without any is left out). */
  async byMessage(ticketId: number): Promise<Map<number, AttachmentView[]>> {
    const rows = await this.db
      .selectFrom('ticket_attachments')
      .select(['message_id', 'file_key', 'name', 'type', 'size'])
      .where('ticket_id', '=', ticketId)
      .orderBy('id')
      .execute();
    const out = new Map<number, AttachmentView[]>();
    for (const row of rows) {
      const list = out.get(Number(row.message_id)) ?? [];
      list.push({ key: row.file_key, name: row.name, type: row.type as StoredFileType, size: Number(row.size) });
      out.set(Number(row.message_id), list);
    }
    return out;
  }

  /** A ticket view with each message's attachments (the view already holds only what its reader may see). */
  async withAttachments<M extends { id: number }, V extends { ticket: { id: number }; messages: M[] }>(
    view: V,
  ): Promise<V & { messages: (M & { attachments: AttachmentView[] })[] }> {
    const byMessage = await this.byMessage(view.ticket.id);
    return { ...view, messages: view.messages.map((message) => ({ ...message, attachments: byMessage.get(message.id) ?? [] })) };
  }

  /** The attachment `key` of ticket `ticketId`, or 404; `withNotes` false: a staff note's files are not there. */
  async find(ticketId: number, key: string, withNotes: boolean): Promise<{ key: string }> {
    let query = this.db
      .selectFrom('ticket_attachments as a')
      .innerJoin('ticket_messages as m', 'm.id', 'a.message_id')
      .select('a.file_key')
      .where('a.ticket_id', '=', ticketId)
      .where('a.file_key', '=', key);
    if (!withNotes) query = query.where('m.internal', '=', 0);
    const row = await query.executeTakeFirst();
    if (!row) throw this.ctx.httpError(404, 'ATTACHMENT_NOT_FOUND', 'No such attachment.');
    return { key: row.file_key };
  }

  /**
   * Deletes the stored files of the tickets of an account about to be deleted: its tickets' rows go
   * with the account (foreign keys), and nothing would point at the files any more.
   */
  async removeFilesOfCustomer(userId: number): Promise<number> {
    const rows = await this.db
      .selectFrom('ticket_attachments as a')
      .innerJoin('tickets as t', 't.id', 'a.ticket_id')
      .select('a.file_key')
      .where('t.user_id', '=', userId)
      .execute();
    let removed = 0;
    for (const { file_key: key } of rows) {
      try {
        if (await this.ctx.files.delete(key)) removed++;
      } catch (error) {
        this.ctx.log.error({ err: error, userId }, 'a deleted account’s ticket attachment could not be removed');
      }
    }
    return removed;
  }
}

const KEY_PARAMS = {
  type: 'object',
  required: ['id', 'key'],
  additionalProperties: false,
  properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 }, key: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' } },
} as const;

const limitsAnswer = {
  type: 'object',
  required: ['max_files', 'max_bytes', 'types', 'extensions'],
  properties: {
    max_files: { type: 'integer' },
    max_bytes: { type: 'integer' },
    types: { type: 'array', items: { type: 'string' } },
    extensions: { type: 'array', items: { type: 'string' } },
  },
} as const;

/** The file itself: its stored type, as a download or inline (images, PDF), never sniffed by the browser. */
const fileAnswer = {
  200: { description: 'The file (Content-Disposition, X-Content-Type-Options: nosniff)', content: { 'application/octet-stream': { schema: {} } } },
  ...errorResponses,
} as const;

export function registerAttachmentRoutes(app: FastifyInstance, ctx: ServerPluginContext, desk: Desk, departments: Departments, attachments: Attachments): void {
  const limitsView = async () => {
    const limits = await attachments.limits();
    return { max_files: limits.maxFiles, max_bytes: limits.maxBytes, types: limits.types, extensions: limits.extensions };
  };
  app.get('/user/tickets/attachments/limits', { config: { auth: true, flag: 'allow_tickets' }, schema: { response: { 200: limitsAnswer, ...errorResponses } } }, limitsView);
  app.get('/admin/tickets/attachments/limits', { config: { permission: 'admin.tickets.view' }, schema: { response: { 200: limitsAnswer, ...errorResponses } } }, limitsView);

  app.get<{ Params: { id: number; key: string } }>(
    '/user/tickets/:id/attachments/:key',
    { config: { auth: true, flag: 'allow_tickets' }, schema: { params: KEY_PARAMS, response: fileAnswer } },
    async (request: FastifyRequest<{ Params: { id: number; key: string } }>, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      // another customer's ticket is as missing as none, and a note's file as missing as no file
      await desk.mine(user.id, request.params.id);
      const { key } = await attachments.find(request.params.id, request.params.key, false);
      return ctx.files.send(reply, key);
    },
  );

  app.get<{ Params: { id: number; key: string } }>(
    '/admin/tickets/:id/attachments/:key',
    { config: { permission: 'admin.tickets.view' }, schema: { params: KEY_PARAMS, response: fileAnswer } },
    async (request: FastifyRequest<{ Params: { id: number; key: string } }>, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      await desk.inScope(await departments.scopeOf(user), request.params.id);
      const { key } = await attachments.find(request.params.id, request.params.key, true);
      return ctx.files.send(reply, key);
    },
  );
}
