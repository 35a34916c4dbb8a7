// /api/admin/departments/:id/webhook…: a department's outgoing webhook — read (never its secret,
// only whether one is set), create or replace, delete, and send a test. Every route needs
// admin.departments.edit (the address of a Discord webhook is a credential too) and is audited.
import type { FastifyInstance } from 'fastify';
import { errorResponses, idParams, successSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import type { Departments } from './departments';
import { WEBHOOK_URL_MAX_LENGTH } from './webhook-address';
import { WEBHOOK_EVENTS, WEBHOOK_KINDS } from './webhook-payloads';
import { SECRET_LIMITS, type TicketWebhooks, type WebhookInput } from './webhooks';

const maybeText = { type: ['string', 'null'] } as const;

const webhookView = {
  type: 'object',
  required: ['department_id', 'url', 'kind', 'enabled', 'events', 'secret_set', 'last_status', 'last_at', 'last_error', 'updated_at'],
  properties: {
    department_id: { type: 'integer' },
    url: maybeText,
    kind: { type: 'string', enum: [...WEBHOOK_KINDS] },
    enabled: { type: 'boolean' },
    events: { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
    secret_set: { type: 'boolean' },
    last_status: { type: ['string', 'null'], enum: ['ok', 'retrying', 'failed', null] },
    last_at: maybeText,
    last_error: maybeText,
    updated_at: { type: 'string' },
  },
} as const;

export const webhookSchemas = {
  one: { type: 'object', required: ['webhook'], properties: { webhook: { anyOf: [webhookView, { type: 'null' }] } } },
  body: {
    type: 'object',
    required: ['url', 'kind', 'enabled', 'events'],
    additionalProperties: false,
    properties: {
      url: { type: 'string', minLength: 1, maxLength: WEBHOOK_URL_MAX_LENGTH },
      kind: { type: 'string', enum: [...WEBHOOK_KINDS] },
      enabled: { type: 'boolean' },
      events: { type: 'array', uniqueItems: true, maxItems: WEBHOOK_EVENTS.length, items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
      // printable ASCII: it is typed or pasted on both sides of the signature
      secret: { type: ['string', 'null'], minLength: SECRET_LIMITS.minLength, maxLength: SECRET_LIMITS.maxLength, pattern: '^[\\x21-\\x7e]+$' },
    },
  },
  test: {
    type: 'object',
    required: ['ok', 'status', 'error'],
    properties: { ok: { type: 'boolean' }, status: { type: ['integer', 'null'] }, error: maybeText },
  },
} as const;

export function registerWebhookRoutes(app: FastifyInstance, ctx: ServerPluginContext, departments: Departments, webhooks: TicketWebhooks): void {
  const config = { permission: 'admin.departments.edit' } as const;
  const url = '/admin/departments/:id/webhook';

  app.get<{ Params: { id: number } }>(url, { config, schema: { params: idParams, response: { 200: webhookSchemas.one, ...errorResponses } } }, async (request, reply) => {
    await departments.get(request.params.id);
    reply.header('cache-control', 'no-store');
    return { webhook: await webhooks.get(request.params.id) };
  });

  app.put<{ Params: { id: number }; Body: WebhookInput }>(
    url,
    { config, schema: { params: idParams, body: webhookSchemas.body, response: { 200: webhookSchemas.one, ...errorResponses } } },
    async (request) => {
      const department = await departments.get(request.params.id);
      const input = { ...request.body, url: request.body.url.trim() };
      const webhook = await webhooks.save(department.id, input);
      const secret = input.secret === undefined ? 'kept' : input.secret === null ? 'removed' : 'set';
      await ctx.audit.record(request, {
        action: 'admin.ticket_webhook.update',
        details: { department_id: department.id, host: new URL(input.url).host, kind: webhook.kind, enabled: webhook.enabled ? 1 : 0, events: webhook.events.join(','), secret },
      });
      return { webhook };
    },
  );

  app.delete<{ Params: { id: number } }>(url, { config, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } }, async (request) => {
    const department = await departments.get(request.params.id);
    if (!(await webhooks.remove(department.id))) throw ctx.httpError(404, 'WEBHOOK_NOT_FOUND', 'This department has no webhook.');
    await ctx.audit.record(request, { action: 'admin.ticket_webhook.delete', details: { department_id: department.id } });
    return { success: true };
  });

  app.post<{ Params: { id: number } }>(`${url}/test`, { config, schema: { params: idParams, response: { 200: webhookSchemas.test, ...errorResponses } } }, async (request) => {
    const department = await departments.get(request.params.id);
    const result = await webhooks.test(department.id, department.name);
    if (!result) throw ctx.httpError(404, 'WEBHOOK_NOT_FOUND', 'This department has no webhook.');
    await ctx.audit.record(request, { action: 'admin.ticket_webhook.test', details: { department_id: department.id, ok: result.ok ? 1 : 0, status: result.status } });
    return result;
  });
}
