// /api/admin/departments…: the support desk's departments, and the roles limited to each.
// A department with tickets cannot be deleted (409): it is disabled instead.
import type { FastifyInstance } from 'fastify';
import { errorResponses, idParams, successSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import type { DepartmentInput, Departments } from './departments';
import { departmentSchemas as schema } from './schemas';

export function registerDepartmentRoutes(app: FastifyInstance, ctx: ServerPluginContext, departments: Departments): void {
  app.get('/admin/departments', { config: { permission: 'admin.departments.list' }, schema: { response: { 200: schema.list } } }, async () => ({
    data: await departments.list(),
  }));

  app.get<{ Params: { id: number } }>(
    '/admin/departments/:id',
    { config: { permission: 'admin.departments.list' }, schema: { params: idParams, response: { 200: schema.one, ...errorResponses } } },
    async (request) => ({ department: await departments.get(request.params.id) }),
  );

  app.post<{ Body: Partial<DepartmentInput> & { name: string } }>(
    '/admin/departments',
    { config: { permission: 'admin.departments.create' }, schema: { body: schema.createBody, response: { 201: schema.one, ...errorResponses } } },
    async (request, reply) => {
      const body = request.body;
      const name = body.name.trim();
      if (name === '') throw ctx.httpError(400, 'VALIDATION_ERROR', 'The name is empty.', 'name');
      const department = await departments.create({
        name,
        description: body.description?.trim() ?? '',
        hours: body.hours ?? null,
        hours_note: body.hours_note?.trim() ?? '',
        enabled: body.enabled ?? true,
        role_ids: body.role_ids ?? [],
      });
      await ctx.audit.record(request, { action: 'admin.ticket_department.create', details: { department_id: department.id, name: department.name } });
      return reply.code(201).send({ department });
    },
  );

  app.patch<{ Params: { id: number }; Body: Partial<DepartmentInput> }>(
    '/admin/departments/:id',
    { config: { permission: 'admin.departments.edit' }, schema: { params: idParams, body: schema.editBody, response: { 200: schema.one, ...errorResponses } } },
    async (request) => {
      const body = request.body;
      const changes: Partial<DepartmentInput> = { ...body };
      if (body.name !== undefined) {
        changes.name = body.name.trim();
        if (changes.name === '') throw ctx.httpError(400, 'VALIDATION_ERROR', 'The name is empty.', 'name');
      }
      if (body.description !== undefined) changes.description = body.description.trim();
      if (body.hours_note !== undefined) changes.hours_note = body.hours_note.trim();
      const department = await departments.update(request.params.id, changes);
      await ctx.audit.record(request, { action: 'admin.ticket_department.update', details: { department_id: department.id, changed: Object.keys(changes).join(',') } });
      return { department };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/departments/:id',
    { config: { permission: 'admin.departments.delete' }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const department = await departments.delete(request.params.id);
      await ctx.audit.record(request, { action: 'admin.ticket_department.delete', details: { department_id: department.id, name: department.name } });
      return { success: true };
    },
  );
}
