// Schemas the account plugin's routes share.
export const successOnly = { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } } as const;

export const emptyQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

/** Routes without a body still refuse one that carries unexpected fields. */
export const emptyBody = { type: ['object', 'null'], additionalProperties: false, properties: {} } as const;
