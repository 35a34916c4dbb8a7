// Schemas and answers the auth plugin's modules share.
import type { FastifyRequest } from 'fastify';

export const successOnly = { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } } as const;

export const successWithMessage = {
  type: 'object',
  required: ['success', 'message'],
  properties: { success: { type: 'boolean' }, message: { type: 'string' } },
} as const;

export const emptyQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

/**
 * An API caller (the sdk's http client sends Accept: application/json) gets JSON; a browser that
 * followed a link from a mail or a navigation gets a redirect to a page.
 */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}
