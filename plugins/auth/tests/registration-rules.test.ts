import { describe, expect, it } from 'vitest';
import { checkRegistration, registrationBody, type RegistrationInput } from '../client/registration-rules';

const valid: RegistrationInput = {
  first_name: 'Ana',
  last_name: 'Popescu',
  email: 'ana@example.com',
  username: 'ana_p-1.x',
  password: '12345678',
  password_confirm: '12345678',
  ref: '',
};

describe('registration rules (mirror the server)', () => {
  it('accepts a valid registration', () => {
    expect(checkRegistration(valid)).toEqual({});
  });

  it('names: required, not only spaces, at most 64 characters', () => {
    expect(checkRegistration({ ...valid, first_name: '   ' }).first_name).toBe('validation.required');
    expect(checkRegistration({ ...valid, last_name: 'x'.repeat(65) }).last_name).toBe('validation.nameTooLong');
    expect(checkRegistration({ ...valid, last_name: 'x'.repeat(64) }).last_name).toBeUndefined();
  });

  it('username: 3 to 32 characters of [a-zA-Z0-9_.-]', () => {
    expect(checkRegistration({ ...valid, username: 'ab' }).username).toBe('validation.usernameLength');
    expect(checkRegistration({ ...valid, username: 'abc' }).username).toBeUndefined();
    expect(checkRegistration({ ...valid, username: 'a'.repeat(32) }).username).toBeUndefined();
    expect(checkRegistration({ ...valid, username: 'a'.repeat(33) }).username).toBe('validation.usernameLength');
    expect(checkRegistration({ ...valid, username: 'ana p' }).username).toBe('validation.usernameCharacters');
    expect(checkRegistration({ ...valid, username: 'ană' }).username).toBe('validation.usernameCharacters');
  });

  it('email: a basic pattern, at most 254 characters', () => {
    expect(checkRegistration({ ...valid, email: 'ana@example' }).email).toBe('validation.email');
    expect(checkRegistration({ ...valid, email: 'ana example.com' }).email).toBe('validation.email');
    expect(checkRegistration({ ...valid, email: `${'a'.repeat(243)}@example.com` }).email).toBe('validation.email');
    expect(checkRegistration({ ...valid, email: `${'a'.repeat(242)}@example.com` }).email).toBeUndefined();
  });

  it('password: 8 to 256 characters, confirmed', () => {
    expect(checkRegistration({ ...valid, password: '1234567', password_confirm: '1234567' }).password).toBe('validation.passwordLength');
    const long = 'x'.repeat(257);
    expect(checkRegistration({ ...valid, password: long, password_confirm: long }).password).toBe('validation.passwordTooLong');
    expect(checkRegistration({ ...valid, password_confirm: '12345679' }).password_confirm).toBe('validation.passwordMismatch');
  });

  it('referral code: optional, at most 64 characters', () => {
    expect(checkRegistration({ ...valid, ref: 'x'.repeat(65) }).ref).toBe('validation.referralTooLong');
    expect(checkRegistration({ ...valid, ref: 'FRIEND' }).ref).toBeUndefined();
  });

  it('builds the request body without the confirmation', () => {
    expect(registrationBody({ ...valid, email: ' ana@example.com ', ref: ' R1 ' })).toEqual({
      first_name: 'Ana',
      last_name: 'Popescu',
      email: 'ana@example.com',
      username: 'ana_p-1.x',
      password: '12345678',
      ref: 'R1',
    });
    expect(registrationBody(valid)).not.toHaveProperty('ref');
  });
});
