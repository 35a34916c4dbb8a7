// Schemas the account plugin's routes share.
export const successOnly = { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } } as const;

export const emptyQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

