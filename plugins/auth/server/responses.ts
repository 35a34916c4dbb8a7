// Schemas and answers the auth plugin's modules share.

export const successOnly = { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } } as const;

export const successWithMessage = {
  type: 'object',
  required: ['success', 'message'],
  properties: { success: { type: 'boolean' }, message: { type: 'string' } },
} as const;
