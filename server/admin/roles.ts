// /api/admin/roles: CRUD, and the permissions of a role (spec §2: /mc-admin/roles/{id}/permissions
// needs admin.permissions.list to view; spec §6's admin.permissions.edit to change them — not
// admin.roles.edit, which renames and recolours a role).
// Protected: role 1 (every new account's role) and any role holding admin.root cannot be deleted;
// the seeded root roles 7 and 8 always keep admin.root; a role still held by accounts cannot be
// deleted. Every change reloads the role cache, so sessions see it on their next request.
import type { FastifyInstance } from 'fastify';
import { dataListSchema, httpError } from '../../sdk/server';
import { ROOT_PERMISSION } from '../../sdk/types';
import { hostPermissionCatalogue } from '../auth/permission-catalogue';
import { DEFAULT_ROLE_COLOR, ROOT_ROLES } from '../db/core-migrations';
import { isUniqueViolation } from '../db/connect';
import { anotherRootHolder, lastAdministratorError, serializably } from '../auth/root-holders';
import { actorOf, escalationError, holdsAll, type AdminServices } from './admin-context';
import { errorResponses, idParams, successSchema } from './schemas';

const DEFAULT_ROLE_ID = 1;
const MAX_PERMISSIONS_PER_ROLE = 500;

const roleSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    real_name: { type: 'string' },
    color: { type: 'string' },
    permissions: { type: 'array', items: { type: 'string' } },
    users: { type: 'integer' },
    protected: { type: 'boolean' },
  },
} as const;

const fields = {
  name: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
  real_name: { type: 'string', minLength: 1, maxLength: 64, pattern: '\\S' },
  color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
} as const;

interface RoleBody {
  name?: string;
  real_name?: string;
  color?: string;
}

const oneRole = { type: 'object', required: ['role'], properties: { role: roleSchema } } as const;

export function registerAdminRoles(app: FastifyInstance, services: AdminServices): void {
  const { database, sessions, roles, plugins, audit } = services;
  const db = database.db;

  const userCounts = async (): Promise<Map<number, number>> => {
    const rows = await db
      .selectFrom('users')
      .select(['role_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('role_id')
      .execute();
    return new Map(rows.map((r) => [r.role_id, Number(r.n)]));
  };

  const present = (row: { id: number; name: string; real_name: string; color: string }, users: number) => {
    const permissions = [...roles.get(row.id).permissions];
    return { ...row, permissions, users, protected: row.id === DEFAULT_ROLE_ID || permissions.includes(ROOT_PERMISSION) };
  };

  const findRole = async (id: number) => {
    const row = await db.selectFrom('roles').select(['id', 'name', 'real_name', 'color']).where('id', '=', id).executeTakeFirst();
    if (!row) throw httpError(404, 'ROLE_NOT_FOUND', 'There is no such role.');
    return row;
  };

  const nameTaken = () => httpError(409, 'ROLE_NAME_TAKEN', 'A role with this name already exists.', 'name');

  app.get(
    '/roles',
    {
      config: { permission: 'admin.roles.list' },
      schema: { response: { 200: dataListSchema(roleSchema), ...errorResponses } },
    },
    async () => {
      const [rows, counts] = await Promise.all([db.selectFrom('roles').select(['id', 'name', 'real_name', 'color']).orderBy('id').execute(), userCounts()]);
      return { data: rows.map((r) => present(r, counts.get(r.id) ?? 0)) };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/roles/:id',
    { config: { permission: 'admin.roles.list' }, schema: { params: idParams, response: { 200: oneRole, ...errorResponses } } },
    async (request) => {
      const row = await findRole(request.params.id);
      return { role: present(row, (await userCounts()).get(row.id) ?? 0) };
    },
  );

  app.post<{ Body: Required<Pick<RoleBody, 'name' | 'real_name'>> & RoleBody }>(
    '/roles',
    {
      config: { permission: 'admin.roles.create' },
      schema: { body: { type: 'object', required: ['name', 'real_name'], additionalProperties: false, properties: fields }, response: { 201: oneRole, ...errorResponses } },
    },
    async (request, reply) => {
      const { name, real_name: realName, color } = request.body;
      if (await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirst()) throw nameTaken();
      try {
        await db
          .insertInto('roles')
          .values({ name, real_name: realName.trim(), color: color ?? DEFAULT_ROLE_COLOR })
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken();
        throw error;
      }
      const row = await db.selectFrom('roles').select(['id', 'name', 'real_name', 'color']).where('name', '=', name).executeTakeFirstOrThrow();
      await roles.invalidate();
      await audit.record(request, { action: 'admin.role.create', details: { role_id: row.id, name } });
      return reply.code(201).send({ role: present(row, 0) });
    },
  );

  app.patch<{ Params: { id: number }; Body: RoleBody }>(
    '/roles/:id',
    {
      config: { permission: 'admin.roles.edit' },
      schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields }, response: { 200: oneRole, ...errorResponses } },
    },
    async (request) => {
      const actor = await actorOf(sessions, request);
      const row = await findRole(request.params.id);
      if (!holdsAll(actor, roles.get(row.id).permissions)) throw escalationError('You cannot change a role that holds permissions you do not have.');
      const changes: RoleBody = {};
      if (request.body.name !== undefined && request.body.name !== row.name) {
        const clash = await db.selectFrom('roles').select('id').where('name', '=', request.body.name).executeTakeFirst();
        if (clash) throw nameTaken();
        changes.name = request.body.name;
      }
      if (request.body.real_name !== undefined) changes.real_name = request.body.real_name.trim();
      if (request.body.color !== undefined) changes.color = request.body.color;
      if (Object.keys(changes).length > 0) {
        try {
          await db.updateTable('roles').set(changes).where('id', '=', row.id).execute();
        } catch (error) {
          if (isUniqueViolation(error)) throw nameTaken();
          throw error;
        }
        await roles.invalidate();
        await audit.record(request, { action: 'admin.role.update', details: { role_id: row.id, ...changes } });
      }
      return { role: present(await findRole(row.id), (await userCounts()).get(row.id) ?? 0) };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/roles/:id',
    { config: { permission: 'admin.roles.delete' }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const actor = await actorOf(sessions, request);
      const row = await findRole(request.params.id);
      const permissions = roles.get(row.id).permissions;
      if (row.id === DEFAULT_ROLE_ID) throw httpError(409, 'ROLE_PROTECTED', 'The default role cannot be deleted: every new account gets it.');
      if (permissions.includes(ROOT_PERMISSION)) throw httpError(409, 'ROLE_PROTECTED', 'A role holding admin.root cannot be deleted.');
      if (!holdsAll(actor, permissions)) throw escalationError('You cannot delete a role that holds permissions you do not have.');
      const users = (await userCounts()).get(row.id) ?? 0;
      if (users > 0) throw httpError(409, 'ROLE_IN_USE', `This role is held by ${users} account${users === 1 ? '' : 's'}; move them to another role first.`);
      try {
        // role_permissions rows go with it (foreign key cascade)
        await db.transaction().execute(async (tx) => {
          await tx.deleteFrom('role_permissions').where('role_id', '=', row.id).execute();
          await tx.deleteFrom('roles').where('id', '=', row.id).execute();
        });
      } catch (error) {
        // an account was given the role at the same moment: the users foreign key refuses
        const code = (error as { code?: unknown }).code;
        if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503' || code === 'ER_ROW_IS_REFERENCED_2') {
          throw httpError(409, 'ROLE_IN_USE', 'This role is held by accounts; move them to another role first.');
        }
        throw error;
      }
      await roles.invalidate();
      await audit.record(request, { action: 'admin.role.delete', details: { role_id: row.id, name: row.name } });
      return { success: true };
    },
  );

  const permissionsAnswer = {
    type: 'object',
    required: ['role_id', 'permissions'],
    properties: { role_id: { type: 'integer' }, permissions: { type: 'array', items: { type: 'string' } } },
  } as const;

  app.get<{ Params: { id: number } }>(
    '/roles/:id/permissions',
    { config: { permission: 'admin.permissions.list' }, schema: { params: idParams, response: { 200: permissionsAnswer, ...errorResponses } } },
    async (request) => {
      const row = await findRole(request.params.id);
      return { role_id: row.id, permissions: [...roles.get(row.id).permissions] };
    },
  );

  app.put<{ Params: { id: number }; Body: { permissions: string[] } }>(
    '/roles/:id/permissions',
    {
      config: { permission: 'admin.permissions.edit' },
      schema: {
        params: idParams,
        body: {
          type: 'object',
          required: ['permissions'],
          additionalProperties: false,
          properties: { permissions: { type: 'array', maxItems: MAX_PERMISSIONS_PER_ROLE, uniqueItems: true, items: { type: 'string', minLength: 3, maxLength: 128 } } },
        },
        response: { 200: permissionsAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const actor = await actorOf(sessions, request);
      const row = await findRole(request.params.id);
      const wanted = [...new Set(request.body.permissions)].sort();
      const known = new Set(hostPermissionCatalogue(plugins).map((p) => p.name));
      const current = roles.get(row.id).permissions;
      // a string the role already holds may stay although nobody declares it now (its plugin was
      // removed, or not built yet): saving the role's other changes must not need dropping it
      const unknown = wanted.find((p) => !known.has(p) && !current.includes(p));
      if (unknown) throw httpError(400, 'UNKNOWN_PERMISSION', `"${unknown}" is not a known permission.`, 'permissions');
      const added = wanted.filter((p) => !current.includes(p));
      const removed = current.filter((p) => !wanted.includes(p));
      if ((ROOT_ROLES as readonly number[]).includes(row.id) && removed.includes(ROOT_PERMISSION)) {
        throw httpError(409, 'ROLE_ROOT_LOCKED', 'This role always keeps admin.root, so the panel can never lose its administrators.', 'permissions');
      }
      // you can only hand out or take away what you hold yourself
      if (!holdsAll(actor, [...added, ...removed])) throw escalationError('You cannot grant or remove permissions you do not have.');
      if (added.length > 0 || removed.length > 0) {
        await serializably(db, async (tx) => {
          // admin.root leaves the role only while an active account outside it still holds it: one
          // conditional statement, so two administrators emptying each other's role cannot both succeed
          if (removed.includes(ROOT_PERMISSION)) {
            const taken = await tx
              .deleteFrom('role_permissions')
              .where('role_id', '=', row.id)
              .where('permission', '=', ROOT_PERMISSION)
              .where(anotherRootHolder({ roleId: row.id }))
              .executeTakeFirst();
            if (Number(taken.numDeletedRows) !== 1) throw lastAdministratorError();
          }
          const rest = removed.filter((p) => p !== ROOT_PERMISSION);
          if (rest.length > 0) await tx.deleteFrom('role_permissions').where('role_id', '=', row.id).where('permission', 'in', rest).execute();
          if (added.length > 0)
            await tx
              .insertInto('role_permissions')
              .values(added.map((permission) => ({ role_id: row.id, permission })))
              .execute();
        });
        await roles.invalidate();
        await audit.record(request, { action: 'admin.role.permissions', details: { role_id: row.id, added: added.join(','), removed: removed.join(',') } });
      }
      return { role_id: row.id, permissions: [...roles.get(row.id).permissions] };
    },
  );
}
