// Client-side checks of the profile form, from the same ACCOUNT_RULES the server checks (the server
// stays the authority). Picture addresses follow spec §5: http or https only ('Invalid URL'); the
// e-mail the basic pattern ('Invalid email address') — the sdk's validateDialogInput is that rule.
import { ACCOUNT_RULES, validateDialogInput, type SessionUser } from '@orepanel/sdk';

export interface ProfileInput {
  first_name: string;
  last_name: string;
  email: string;
  avatar: string;
  background: string;
}

export type ProfileField = keyof ProfileInput;

/** The order the fields appear in, so the first one with a problem gets the focus. */
export const PROFILE_FIELDS: readonly ProfileField[] = ['first_name', 'last_name', 'email', 'avatar', 'background'];

/** i18n keys (account namespace) of the problems, per field; a field without a problem is absent. */
export type ProfileProblems = Partial<Record<ProfileField, string>>;

export const NAME_MAX_LENGTH = ACCOUNT_RULES.name.maxLength;
export const EMAIL_MAX_LENGTH = ACCOUNT_RULES.email.maxLength;
/** the server keeps at most this many characters of a picture address */
export const IMAGE_URL_MAX_LENGTH = 512;

export function profileFromUser(user: Pick<SessionUser, ProfileField>): ProfileInput {
  return {
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    email: user.email ?? '',
    avatar: user.avatar ?? '',
    background: user.background ?? '',
  };
}

function nameProblem(value: string): string | undefined {
  const name = value.trim();
  if (name === '') return 'validation.required';
  if (name.length > NAME_MAX_LENGTH) return 'validation.nameTooLong';
  return undefined;
}

function imageProblem(value: string): string | undefined {
  const url = value.trim();
  if (url === '') return undefined; // an empty address removes the picture
  if (url.length > IMAGE_URL_MAX_LENGTH || validateDialogInput('url', url) !== null) return 'validation.invalidUrl';
  return undefined;
}

export function checkProfile(input: ProfileInput): ProfileProblems {
  const problems: ProfileProblems = {};
  const first = nameProblem(input.first_name);
  if (first) problems.first_name = first;
  const last = nameProblem(input.last_name);
  if (last) problems.last_name = last;
  const email = input.email.trim();
  if (email === '') problems.email = 'validation.required';
  else if (email.length > EMAIL_MAX_LENGTH || validateDialogInput('email', email) !== null) problems.email = 'validation.invalidEmail';
  const avatar = imageProblem(input.avatar);
  if (avatar) problems.avatar = avatar;
  const background = imageProblem(input.background);
  if (background) problems.background = background;
  return problems;
}

/** True when the form holds another address than the account's (not a mere change of letter case): the server asks for the current password. */
export function changesAddress(input: Pick<ProfileInput, 'email'>, user: Pick<SessionUser, 'email'>): boolean {
  return input.email.trim().toLowerCase() !== (user.email ?? '').toLowerCase();
}

/** The body of POST /api/user/session/info/update: trimmed; an empty picture address clears it (null). */
export function profileBody(input: ProfileInput) {
  const image = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    first_name: input.first_name.trim(),
    last_name: input.last_name.trim(),
    email: input.email.trim(),
    avatar: image(input.avatar),
    background: image(input.background),
  };
}
