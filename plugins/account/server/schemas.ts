// Schemas the account plugin's routes share.
export const successOnly = { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } } as const;
