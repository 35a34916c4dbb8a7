// The JSON-schema properties of a user's profile as every API answer shows it (the session's
// user_info, the admin user pages): one definition, so a field added here appears in both.
export const nullableString = { type: ['string', 'null'] } as const;

export const userProfileProperties = {
  uuid: { type: 'string' },
  username: { type: 'string' },
  email: { type: 'string' },
  first_name: { type: 'string' },
  last_name: { type: 'string' },
  avatar: nullableString,
  background: nullableString,
  role: { type: 'integer' },
  role_name: { type: 'string' },
  verified: { type: 'boolean' },
  two_fa_enabled: { type: 'boolean' },
} as const;
