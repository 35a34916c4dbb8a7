// /api/admin/users: list with search and paging, one user, edit (role, names, e-mail, username,
// resource limits, ban/unban with a reason), delete, and the user's activity (audit log).
// Coins are not edited here: every balance change goes through the wallet ledger (issue 4), which
// will add its own admin route with a reason.
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type SqlBool } from 'kysely';
import { ACCOUNT_RULES, httpError, likeLiteral, type CoreDatabase } from '../../sdk/server';
import { isUniqueViolation } from '../db/connect';
import { deleteUnlessLastRoot, lastAdministratorError, leavesRootHolder, serializably } from '../auth/root-holders';
import { actorOf, escalationError, holdsAll, mayActOnRole, type Actor, type AdminServices } from './admin-context';
import { errorResponses, pageMeta, pageMetaSchema, pagingQuery, successSchema, uuidParams, type PagingQuery } from './schemas';
import { nullableString, userProfileProperties } from '../auth/user-profile-schema';
import { hasPermission } from '../../sdk/manifest';
import { ACCOUNT_RESOURCES, type AccountResource } from '../../sdk/types';
import type { AbuseReviewTables } from '../security/abuse-review-tables';
import { AccountFlags } from '../security/account-flags';
import { registerAdminUserFlags } from './user-flags';

export const RESOURCE_FIELDS = ACCOUNT_RESOURCES;
type ResourceField = AccountResource;
/** integer columns: the largest value every dialect stores */
const MAX_RESOURCE = 2_147_483_647;

const USER_COLUMNS = [
  'id',
  'uuid',
  'username',
  'email',
  'first_name',
  'last_name',
  'avatar',
  'background',
  'role_id',
  'verified',
  'two_fa_enabled',
  'banned',
  'ban_reason',
  'coins',
  'ram',
  'disk',
  'cpu',
  'ports',
  'databases',
  'backups',
  'server_slots',
  'minutes_afk',
  'created_at',
  'updated_at',
] as const;

export const adminUserSchema = {
  type: 'object',
  properties: {
    ...userProfileProperties,
    banned: { type: 'boolean' },
    ban_reason: nullableString,
    coins: { type: 'integer' },
    ...Object.fromEntries(RESOURCE_FIELDS.map((f) => [f, { type: 'integer' }])),
    minutes_afk: { type: 'integer' },
    /** the reasons of the account's open anti-abuse flags (shared_device, vpn_detected…) */
    review_flags: { type: 'array', items: { type: 'string' } },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
} as const;

const { username, email, name } = ACCOUNT_RULES;

const editBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    role: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    first_name: { type: 'string', minLength: name.minLength, maxLength: name.maxLength, pattern: name.pattern },
    last_name: { type: 'string', minLength: name.minLength, maxLength: name.maxLength, pattern: name.pattern },
    email: { type: 'string', maxLength: email.maxLength, pattern: email.pattern },
    username: { type: 'string', minLength: username.minLength, maxLength: username.maxLength, pattern: username.pattern },
    ...Object.fromEntries(RESOURCE_FIELDS.map((f) => [f, { type: 'integer', minimum: 0, maximum: MAX_RESOURCE }])),
    banned: { type: 'boolean' },
    ban_reason: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
  },
} as const;

type EditBody = Partial<Record<ResourceField, number>> & {
  role?: number;
  first_name?: string;
  last_name?: string;
  email?: string;
  username?: string;
  banned?: boolean;
  ban_reason?: string;
};

const activityEntrySchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    action: { type: 'string' },
    actor: { type: ['object', 'null'], properties: { uuid: { type: 'string' }, username: { type: 'string' } } },
    details: { type: 'object', additionalProperties: true },
    ip: nullableString,
    created_at: { type: 'string' },
  },
} as const;

export function registerAdminUsers(app: FastifyInstance, services: AdminServices): void {
  const { database, sessions, roles, audit, events } = services;
  const db = database.db;

  const reviewDb = db.withTables<AbuseReviewTables>();
  const flags = new AccountFlags(reviewDb);

  const present = (row: { [K in (typeof USER_COLUMNS)[number]]: unknown }, reviewFlags: readonly string[]) => ({
    uuid: row.uuid,
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    avatar: row.avatar,
    background: row.background,
    role: row.role_id,
    role_name: roles.get(row.role_id as number).realName,
    verified: row.verified === 1,
    two_fa_enabled: row.two_fa_enabled === 1,
    banned: row.banned === 1,
    ban_reason: row.ban_reason,
    coins: row.coins,
    ...Object.fromEntries(RESOURCE_FIELDS.map((f) => [f, row[f]])),
    minutes_afk: row.minutes_afk,
    review_flags: reviewFlags,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });

  const presentOne = async (row: Parameters<typeof present>[0] & { id: number }) => present(row, (await flags.openReasons([row.id])).get(row.id) ?? []);

  const findUser = async (uuid: string) => {
    const row = await db.selectFrom('users').select(USER_COLUMNS).where('uuid', '=', uuid.toLowerCase()).executeTakeFirst();
    if (!row) throw httpError(404, 'USER_NOT_FOUND', 'There is no such user.');
    return row;
  };

  const mayActOn = (actor: Actor, targetRoleId: number) => mayActOnRole(roles, actor, targetRoleId);

  registerAdminUserFlags(app, services);

  app.get<{ Querystring: PagingQuery & { search?: string; flagged?: boolean } }>(
    '/users',
    {
      config: { permission: 'admin.users.list' },
      schema: {
        // flagged=true: only accounts with an open anti-abuse flag (the review queue)
        querystring: { ...pagingQuery, properties: { ...pagingQuery.properties, search: { type: 'string', maxLength: 254 }, flagged: { type: 'boolean' } } },
        response: { 200: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: adminUserSchema }, meta: pageMetaSchema } }, ...errorResponses },
      },
    },
    async (request) => {
      const { page, per_page: perPage } = request.query;
      const term = request.query.search?.trim().toLowerCase() ?? '';
      let query = reviewDb.selectFrom('users');
      if (request.query.flagged === true) {
        query = query.where('id', 'in', reviewDb.selectFrom('account_flags').select('user_id').where('cleared_at', 'is', null));
      }
      if (term !== '') {
        // LIKE with '!' as the escape character (the same on all three dialects), so % and _ in
        // the search text match themselves
        const pattern = `%${likeLiteral(term)}%`;
        const like = (column: 'username_lower' | 'email_lower' | 'uuid') => sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '!'`;
        query = query.where((eb) => eb.or([like('username_lower'), like('email_lower'), like('uuid')]));
      }
      const [rows, count] = await Promise.all([
        query
          .select(USER_COLUMNS)
          .orderBy('id', 'asc')
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const reviewFlags = await flags.openReasons(rows.map((r) => r.id));
      return { data: rows.map((row) => present(row, reviewFlags.get(row.id) ?? [])), meta: pageMeta(page, perPage, Number(count.n)) };
    },
  );

  app.get<{ Params: { uuid: string } }>(
    '/users/:uuid',
    {
      config: { permission: 'admin.users.list' },
      schema: { params: uuidParams, response: { 200: { type: 'object', required: ['user'], properties: { user: adminUserSchema } }, ...errorResponses } },
    },
    async (request) => ({ user: await presentOne(await findUser(request.params.uuid)) }),
  );

  app.patch<{ Params: { uuid: string }; Body: EditBody }>(
    '/users/:uuid',
    {
      config: { permission: 'admin.users.edit' },
      schema: { params: uuidParams, body: editBody, response: { 200: { type: 'object', required: ['user'], properties: { user: adminUserSchema } }, ...errorResponses } },
      // Coins move only through the wallet ledger (one transaction, an append-only row): refuse
      // them loudly rather than letting the schema drop the field in silence.
      preValidation: async (request) => {
        const body = request.body as Record<string, unknown> | null;
        if (body && typeof body === 'object' && Object.hasOwn(body, 'coins')) {
          throw httpError(400, 'COINS_NOT_EDITABLE', 'Coins cannot be edited here; they change only through the wallet.', 'coins');
        }
      },
    },
    async (request) => {
      const actor = await actorOf(sessions, request);
      const body = request.body;
      const target = await findUser(request.params.uuid);
      mayActOn(actor, target.role_id);
      const self = target.id === actor.userId;

      const changes: Record<string, string | number | null> = {};
      if (body.role !== undefined && body.role !== target.role_id) {
        if (self) throw httpError(409, 'CANNOT_CHANGE_OWN_ROLE', 'You cannot change your own role.', 'role');
        const exists = await db.selectFrom('roles').select('id').where('id', '=', body.role).executeTakeFirst();
        if (!exists) throw httpError(400, 'VALIDATION_ERROR', `Role ${body.role} does not exist.`, 'role');
        if (!holdsAll(actor, roles.get(body.role).permissions)) throw escalationError('You cannot give a role that holds permissions you do not have.');
        changes.role_id = body.role;
      }
      if (body.first_name !== undefined) changes.first_name = body.first_name.trim();
      if (body.last_name !== undefined) changes.last_name = body.last_name.trim();
      if (body.username !== undefined && body.username !== target.username) {
        changes.username = body.username;
        changes.username_lower = body.username.toLowerCase();
      }
      if (body.email !== undefined && body.email !== target.email) {
        changes.email = body.email;
        changes.email_lower = body.email.toLowerCase();
      }
      for (const field of RESOURCE_FIELDS) if (body[field] !== undefined) changes[field] = body[field]!;
      if (body.banned === true) {
        if (self) throw httpError(409, 'CANNOT_BAN_SELF', 'You cannot ban your own account.', 'banned');
        if (!body.ban_reason) throw httpError(400, 'VALIDATION_ERROR', 'A ban needs a reason.', 'ban_reason');
        changes.banned = 1;
        changes.ban_reason = body.ban_reason.trim();
      } else if (body.banned === false) {
        changes.banned = 0;
        changes.ban_reason = null;
      } else if (body.ban_reason !== undefined) {
        if (target.banned !== 1) throw httpError(400, 'VALIDATION_ERROR', 'Only a banned account has a ban reason.', 'ban_reason');
        changes.ban_reason = body.ban_reason.trim();
      }

      if (Object.keys(changes).length > 0) {
        // case-insensitive duplicates answer 409 like registration does
        if (changes.username_lower !== undefined) {
          const clash = await db.selectFrom('users').select('id').where('username_lower', '=', String(changes.username_lower)).where('id', '!=', target.id).executeTakeFirst();
          if (clash) throw httpError(409, 'USERNAME_TAKEN', 'This username is already taken.', 'username');
        }
        if (changes.email_lower !== undefined) {
          const clash = await db.selectFrom('users').select('id').where('email_lower', '=', String(changes.email_lower)).where('id', '!=', target.id).executeTakeFirst();
          if (clash) throw httpError(409, 'EMAIL_TAKEN', 'An account with this email address already exists.', 'email');
        }
        const update = (q: Kysely<CoreDatabase>) =>
          q
            .updateTable('users')
            .set({ ...changes, updated_at: new Date().toISOString() })
            .where('id', '=', target.id);
        // a role change or a ban may take admin.root from the last administrator: then the update
        // is one conditional statement that changes nothing unless another one remains
        const mayDemote = changes.role_id !== undefined || changes.banned === 1;
        try {
          if (!mayDemote) {
            await update(db).execute();
          } else {
            const newRole = changes.banned === 1 ? undefined : (changes.role_id as number | undefined);
            const result = await serializably(db, (tx) => update(tx).where(leavesRootHolder(target.id, newRole)).executeTakeFirst());
            if (Number(result.numUpdatedRows) !== 1) {
              await findUser(request.params.uuid);
              throw lastAdministratorError();
            }
          }
        } catch (error) {
          if (isUniqueViolation(error)) throw httpError(409, 'CONFLICT', 'The username or email address was taken at the same moment; try again.');
          throw error;
        }
        // links mailed to the old address (password reset, verification) stop working
        if (changes.email_lower !== undefined && changes.email_lower !== target.email.toLowerCase()) await events.emit('user.credentials_changed', { userId: target.id });
        // a ban ends every session of the account at once
        let sessionsEnded = 0;
        if (changes.banned === 1) {
          sessionsEnded = await sessions.revokeAllOf(target.id);
        } else if (changes.role_id !== undefined && grantsMore(roles.get(target.role_id).permissions, roles.get(body.role!).permissions)) {
          // Privilege change (OWASP: a new session after any privilege change): a role that grants
          // anything the old one did not ends every session of the account, so the new rights are
          // only ever used by a fresh login (password and 2FA again), never by a token issued
          // before. A pure demotion signs nobody out: permissions are read per request, so it
          // already applies to the very next one.
          sessionsEnded = await sessions.revokeAllOf(target.id);
        }
        const logged: Record<string, string | number | null> = { ...changes };
        delete logged.username_lower;
        delete logged.email_lower;
        await audit.record(request, {
          action: changes.banned === 1 ? 'admin.user.ban' : changes.banned === 0 ? 'admin.user.unban' : 'admin.user.update',
          targetUserId: target.id,
          details: { ...logged, previous_role: changes.role_id !== undefined ? target.role_id : null, sessions_ended: sessionsEnded },
        });
      }
      return { user: await presentOne(await findUser(request.params.uuid)) };
    },
  );

  app.delete<{ Params: { uuid: string } }>(
    '/users/:uuid',
    { config: { permission: 'admin.users.delete' }, schema: { params: uuidParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const actor = await actorOf(sessions, request);
      const target = await findUser(request.params.uuid);
      if (target.id === actor.userId) throw httpError(409, 'CANNOT_DELETE_SELF', 'You cannot delete your own account here.');
      mayActOn(actor, target.role_id);
      // what lives outside the database goes first (servers on the panel); sessions go with the
      // account (foreign key cascade); the audit log keeps its history. Refused (409) when it would
      // leave no administrator, even against another deletion at the same moment.
      const deleted = await deleteUnlessLastRoot(db, target.id, () => events.emit('user.deleting', { userId: target.id, uuid: target.uuid }));
      if (!deleted) throw httpError(404, 'USER_NOT_FOUND', 'There is no such user.');
      await audit.record(request, { action: 'admin.user.delete', targetUserId: target.id, details: { uuid: target.uuid, username: target.username, email: target.email } });
      return { success: true };
    },
  );

  app.get<{ Params: { uuid: string }; Querystring: PagingQuery }>(
    '/users/:uuid/activity',
    {
      // reading a user's history is part of viewing the user (the list permission), like GET /users/:uuid
      config: { permission: 'admin.users.list' },
      schema: {
        params: uuidParams,
        querystring: pagingQuery,
        response: {
          200: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: activityEntrySchema }, meta: pageMetaSchema } },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const target = await findUser(request.params.uuid);
      const { page, per_page: perPage } = request.query;
      const { rows, total } = await audit.forUser(target.id, page, perPage);
      const actorIds = [...new Set(rows.map((r) => r.actor_user_id).filter((id): id is number => id !== null))];
      const actors = actorIds.length ? await db.selectFrom('users').select(['id', 'uuid', 'username']).where('id', 'in', actorIds).execute() : [];
      const byId = new Map(actors.map((a) => [a.id, { uuid: a.uuid, username: a.username }]));
      return {
        data: rows.map((r) => ({
          id: r.id,
          action: r.action,
          actor: r.actor_user_id === null ? null : (byId.get(r.actor_user_id) ?? null),
          details: r.details,
          ip: r.ip,
          created_at: r.created_at,
        })),
        meta: pageMeta(page, perPage, total),
      };
    },
  );
}

/** True when `next` holds a permission `previous` does not (admin.root in `previous` holds all). */
export function grantsMore(previous: readonly string[], next: readonly string[]): boolean {
  return next.some((permission) => !hasPermission(previous, permission));
}
