// The admin user form: its values from a user, the client-side checks (the same ACCOUNT_RULES and
// limits the server checks, which stays the authority) and the PATCH body — only what changed.
import { ACCOUNT_RULES } from '@orepanel/sdk';
import { RESOURCE_FIELDS, type AdminUser, type ResourceField } from './users-api';

/** the largest integer the server stores for a resource limit */
export const MAX_RESOURCE = 2_147_483_647;

export type UserFormField = 'first_name' | 'last_name' | 'username' | 'email' | 'role' | ResourceField;
export type UserFormValues = Record<UserFormField, string>;

/** i18n keys (admin namespace) of the problems, per field. */
export type UserFormProblems = Partial<Record<UserFormField, string>>;

export type UserPatch = Partial<Record<ResourceField, number>> & {
  first_name?: string;
  last_name?: string;
  username?: string;
  email?: string;
  role?: number;
};

const USERNAME_PATTERN = new RegExp(ACCOUNT_RULES.username.pattern);
const EMAIL_PATTERN = new RegExp(ACCOUNT_RULES.email.pattern);

export function userFormValues(user: AdminUser): UserFormValues {
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    username: user.username,
    email: user.email,
    role: String(user.role),
    ...(Object.fromEntries(RESOURCE_FIELDS.map((f) => [f, String(user[f])])) as Record<ResourceField, string>),
  };
}

function nameProblem(value: string): string | undefined {
  const name = value.trim();
  if (name === '') return 'validation.required';
  if (name.length > ACCOUNT_RULES.name.maxLength) return 'validation.tooLong';
  return undefined;
}

/** A whole number from 0 to MAX_RESOURCE, or the problem's key. */
export function resourceProblem(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return 'validation.required';
  if (!/^\d+$/.test(text)) return 'validation.wholeNumber';
  if (Number(text) > MAX_RESOURCE) return 'validation.tooLarge';
  return undefined;
}

export function checkUserForm(values: UserFormValues): UserFormProblems {
  const problems: UserFormProblems = {};
  const first = nameProblem(values.first_name);
  if (first) problems.first_name = first;
  const last = nameProblem(values.last_name);
  if (last) problems.last_name = last;

  const username = values.username.trim();
  if (username === '') problems.username = 'validation.required';
  else if (username.length < ACCOUNT_RULES.username.minLength || username.length > ACCOUNT_RULES.username.maxLength) problems.username = 'validation.usernameLength';
  else if (!USERNAME_PATTERN.test(username)) problems.username = 'validation.usernameCharacters';

  const email = values.email.trim();
  if (email === '') problems.email = 'validation.required';
  else if (email.length > ACCOUNT_RULES.email.maxLength || !EMAIL_PATTERN.test(email)) problems.email = 'validation.email';

  for (const field of RESOURCE_FIELDS) {
    const problem = resourceProblem(values[field]);
    if (problem) problems[field] = problem;
  }
  return problems;
}

/** The PATCH body: only the fields that differ from `user` (the server wants at least one). */
export function userChanges(user: AdminUser, values: UserFormValues): UserPatch {
  const patch: UserPatch = {};
  for (const field of ['first_name', 'last_name', 'username', 'email'] as const) {
    const value = values[field].trim();
    if (value !== user[field]) patch[field] = value;
  }
  const role = Number(values.role);
  if (Number.isInteger(role) && role !== user.role) patch.role = role;
  for (const field of RESOURCE_FIELDS) {
    const value = Number(values[field].trim());
    if (value !== user[field]) patch[field] = value;
  }
  return patch;
}
