// The role form's checks: the same rules the server's schema holds (it stays the authority).
export interface RoleFormValues {
  name: string;
  real_name: string;
  color: string;
}

export type RoleFormProblems = Partial<Record<keyof RoleFormValues, string>>;

const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
const MAX_LENGTH = 64;

/** i18n keys (admin namespace) of the problems, per field. */
export function checkRoleForm(values: RoleFormValues): RoleFormProblems {
  const problems: RoleFormProblems = {};
  if (values.name === '') problems.name = 'validation.required';
  else if (values.name.length > MAX_LENGTH) problems.name = 'validation.tooLong';
  else if (!NAME_PATTERN.test(values.name)) problems.name = 'validation.roleName';
  if (values.real_name.trim() === '') problems.real_name = 'validation.required';
  else if (values.real_name.trim().length > MAX_LENGTH) problems.real_name = 'validation.tooLong';
  if (!COLOR_PATTERN.test(values.color)) problems.color = 'validation.color';
  return problems;
}

/** The fields that differ from `before` (a new role: all of them). */
export function roleChanges(before: RoleFormValues | null, values: RoleFormValues): Partial<RoleFormValues> {
  const out: Partial<RoleFormValues> = {};
  const next = { ...values, real_name: values.real_name.trim() };
  for (const key of ['name', 'real_name', 'color'] as const) if (!before || before[key] !== next[key]) out[key] = next[key];
  return out;
}
