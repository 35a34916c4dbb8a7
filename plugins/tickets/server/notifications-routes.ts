// /api/admin/departments/mail-roles…: whether each staff role gets ticket mail (on unless turned off).
import type { FastifyInstance } from 'fastify';
import { dataListSchema, errorResponses, idParams, successSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import type { TicketNotifications } from './notifications';

const mailRole = {
  type: 'object',
  required: ['role_id', 'role_name', 'mail'],
  properties: { role_id: { type: 'integer' }, role_name: { type: ['string', 'null'] }, mail: { type: 'boolean' } },
} as const;

export function registerMailRoleRoutes(app: FastifyInstance, ctx: ServerPluginContext, notifications: TicketNotifications): void {
  app.get('/admin/departments/mail-roles', { config: { permission: 'admin.departments.list' }, schema: { response: { 200: dataListSchema(mailRole) } } }, async () => ({
    data: await notifications.mailRoles(),
  }));

  app.put<{ Params: { id: number }; Body: { mail: boolean } }>(
    '/admin/departments/mail-roles/:id',
    {
      config: { permission: 'admin.departments.edit' },
      schema: {
        params: idParams,
        body: { type: 'object', required: ['mail'], additionalProperties: false, properties: { mail: { type: 'boolean' } } },
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      await notifications.setRoleMail(request.params.id, request.body.mail);
      await ctx.audit.record(request, { action: 'admin.ticket_mail_role.update', details: { role_id: request.params.id, mail: request.body.mail ? 1 : 0 } });
      return { success: true };
    },
  );
}
