// The rules an account's fields must follow. One browser-safe copy: the server's route schemas and
// the CLI check them, and the registration form checks them before a round trip (the server stays
// the authority).
export const ACCOUNT_RULES = Object.freeze({
  username: { minLength: 3, maxLength: 32, pattern: '^[a-zA-Z0-9_.-]+$' },
  email: { maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' },
  password: { minLength: 8, maxLength: 256 },
  name: { minLength: 1, maxLength: 64, pattern: '\\S' },
  referralCode: { maxLength: 64 },
} as const);
