// /api/admin/users/:uuid/flags: the anti-abuse review flags of an account (server/security/
// abuse-screen.ts raises them) and clearing one once an administrator has looked at it. A cleared
// flag stays as history, and what it held does not raise it again.
import type { FastifyInstance } from 'fastify';
import { dataListSchema, httpError } from '../../sdk/server';
import type { AbuseReviewTables } from '../security/abuse-review-tables';
import { AccountFlags, type FlagRow } from '../security/account-flags';
import { nullableString } from '../auth/user-profile-schema';
import { actorOf, mayActOnRole, type AdminServices } from './admin-context';
import { errorResponses, uuidParams } from './schemas';

const accountRef = { type: 'object', properties: { uuid: { type: 'string' }, username: { type: 'string' } } } as const;

export const flagSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string' },
    reason: { type: 'string' },
    status: { type: 'string', enum: ['open', 'cleared'] },
    /** the other accounts that share the browser or the address (deleted ones are left out) */
    linked_accounts: { type: 'array', items: accountRef },
    /** the addresses a VPN flag is about */
    addresses: { type: 'array', items: { type: 'string' } },
    ip: nullableString,
    detail: nullableString,
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    cleared_at: nullableString,
    cleared_by: { anyOf: [{ type: 'null' }, accountRef] },
    clear_note: nullableString,
  },
} as const;

const flagParams = {
  type: 'object',
  required: ['uuid', 'id'],
  additionalProperties: false,
  properties: { uuid: uuidParams.properties.uuid, id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;

const clearBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { note: { type: 'string', maxLength: 255 } },
} as const;

export function registerAdminUserFlags(app: FastifyInstance, services: AdminServices): void {
  const { database, sessions, roles, audit } = services;
  const db = database.db;
  const flags = new AccountFlags(db.withTables<AbuseReviewTables>());

  const findUser = async (uuid: string) => {
    const row = await db.selectFrom('users').select(['id', 'role_id']).where('uuid', '=', uuid.toLowerCase()).executeTakeFirst();
    if (!row) throw httpError(404, 'USER_NOT_FOUND', 'There is no such user.');
    return row;
  };

  /** The flags as the admin screen shows them: account ids resolved to names, addresses listed. */
  const present = async (rows: FlagRow[]) => {
    const ids = new Set<number>();
    for (const row of rows) {
      for (const key of row.evidence) if (key.startsWith('user:')) ids.add(Number(key.slice(5)));
      if (row.cleared_by !== null) ids.add(row.cleared_by);
    }
    const accounts = ids.size
      ? await db
          .selectFrom('users')
          .select(['id', 'uuid', 'username'])
          .where('id', 'in', [...ids])
          .execute()
      : [];
    const byId = new Map(accounts.map((a) => [a.id, { uuid: a.uuid, username: a.username }]));
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      reason: row.reason,
      status: row.cleared_at === null ? 'open' : 'cleared',
      linked_accounts: row.evidence.filter((k) => k.startsWith('user:')).flatMap((k) => byId.get(Number(k.slice(5))) ?? []),
      addresses: row.evidence.filter((k) => k.startsWith('ip:')).map((k) => k.slice(3)),
      ip: row.ip,
      detail: row.detail,
      created_at: row.created_at,
      updated_at: row.updated_at,
      cleared_at: row.cleared_at,
      cleared_by: row.cleared_by === null ? null : (byId.get(row.cleared_by) ?? null),
      clear_note: row.clear_note,
    }));
  };

  app.get<{ Params: { uuid: string } }>(
    '/users/:uuid/flags',
    {
      // reading about a user is part of viewing the user, like GET /users/:uuid/activity
      config: { permission: 'admin.users.list' },
      schema: { params: uuidParams, response: { 200: dataListSchema(flagSchema), ...errorResponses } },
    },
    async (request) => {
      const user = await findUser(request.params.uuid);
      return { data: await present(await flags.forUser(user.id)) };
    },
  );

  app.post<{ Params: { uuid: string; id: number }; Body: { note?: string } | null }>(
    '/users/:uuid/flags/:id/clear',
    {
      config: { permission: 'admin.users.edit' },
      schema: { params: flagParams, body: clearBody, response: { 200: { type: 'object', required: ['flag'], properties: { flag: flagSchema } }, ...errorResponses } },
    },
    async (request) => {
      const actor = await actorOf(sessions, request);
      const user = await findUser(request.params.uuid);
      mayActOnRole(roles, actor, user.role_id);
      const note = request.body?.note?.trim() || null;
      const outcome = await flags.clear(user.id, request.params.id, actor.userId, note);
      if (outcome === 'not_found') throw httpError(404, 'FLAG_NOT_FOUND', 'This account has no such flag.');
      if (outcome === 'already_cleared') throw httpError(409, 'FLAG_ALREADY_CLEARED', 'This flag has already been cleared.');
      const flag = (await flags.find(user.id, request.params.id))!;
      await audit.record(request, { action: 'admin.user.flag_clear', targetUserId: user.id, details: { flag_id: flag.id, kind: flag.kind, reason: flag.reason, note } });
      return { flag: (await present([flag]))[0] };
    },
  );
}
