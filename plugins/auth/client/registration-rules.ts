// Client-side checks of the registration form, from the same ACCOUNT_RULES the server checks (the
// server stays the authority) so a customer sees every mistake at once, before a round trip.
import { ACCOUNT_RULES } from '@orepanel/sdk';

export interface RegistrationInput {
  first_name: string;
  last_name: string;
  email: string;
  username: string;
  password: string;
  password_confirm: string;
  ref: string;
}

export type RegistrationField = keyof RegistrationInput;

/** i18n keys (auth namespace) of the messages, per field; a field without a problem is absent. */
export type RegistrationProblems = Partial<Record<RegistrationField, string>>;

export const NAME_MAX_LENGTH = ACCOUNT_RULES.name.maxLength;
export const USERNAME_MIN_LENGTH = ACCOUNT_RULES.username.minLength;
export const USERNAME_MAX_LENGTH = ACCOUNT_RULES.username.maxLength;
export const USERNAME_PATTERN = new RegExp(ACCOUNT_RULES.username.pattern);
export const PASSWORD_MIN_LENGTH = ACCOUNT_RULES.password.minLength;
export const PASSWORD_MAX_LENGTH = ACCOUNT_RULES.password.maxLength;
export const EMAIL_MAX_LENGTH = ACCOUNT_RULES.email.maxLength;
export const REFERRAL_MAX_LENGTH = ACCOUNT_RULES.referralCode.maxLength;
export const EMAIL_PATTERN = new RegExp(ACCOUNT_RULES.email.pattern);

function nameProblem(value: string): string | undefined {
  const name = value.trim();
  if (name === '') return 'validation.required';
  if (name.length > NAME_MAX_LENGTH) return 'validation.nameTooLong';
  return undefined;
}

export function checkRegistration(input: RegistrationInput): RegistrationProblems {
  const problems: RegistrationProblems = {};

  const firstName = nameProblem(input.first_name);
  if (firstName) problems.first_name = firstName;
  const lastName = nameProblem(input.last_name);
  if (lastName) problems.last_name = lastName;

  const email = input.email.trim();
  if (email === '') problems.email = 'validation.required';
  else if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) problems.email = 'validation.email';

  const username = input.username.trim();
  if (username === '') problems.username = 'validation.required';
  else if (username.length < USERNAME_MIN_LENGTH || username.length > USERNAME_MAX_LENGTH) {
    problems.username = 'validation.usernameLength';
  } else if (!USERNAME_PATTERN.test(username)) problems.username = 'validation.usernameCharacters';

  if (input.password === '') problems.password = 'validation.required';
  else if (input.password.length < PASSWORD_MIN_LENGTH) problems.password = 'validation.passwordLength';
  else if (input.password.length > PASSWORD_MAX_LENGTH) problems.password = 'validation.passwordTooLong';

  if (input.password_confirm === '') problems.password_confirm = 'validation.required';
  else if (input.password_confirm !== input.password) problems.password_confirm = 'validation.passwordMismatch';

  if (input.ref.trim().length > REFERRAL_MAX_LENGTH) problems.ref = 'validation.referralTooLong';

  return problems;
}

/** The body of POST /api/user/auth/register: trimmed, without the confirmation, `ref` only when given. */
export function registrationBody(input: RegistrationInput) {
  const ref = input.ref.trim();
  return {
    first_name: input.first_name.trim(),
    last_name: input.last_name.trim(),
    email: input.email.trim(),
    username: input.username.trim(),
    password: input.password,
    ...(ref === '' ? {} : { ref }),
  };
}
