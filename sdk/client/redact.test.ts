import { describe, expect, it } from 'vitest';
import { isSecretName, REDACTED, redactCookies, redactHeaders, redactJsonText, redactQuery, redactStoredValue, redactText, redactUrl, redactValue } from './redact';

describe('credential names', () => {
  it.each([
    'password',
    'new_password',
    'currentPassword',
    'password_confirmation',
    'user_token',
    'csrfToken',
    'access_token',
    'secret',
    'totp_secret',
    'client_secret',
    'Authorization',
    'Cookie',
    'Set-Cookie',
    'X-CSRF-Token',
    'X-Api-Key',
    'api_key',
    'upload_key',
    'license_key',
    'code',
    'totp',
    'totp_code',
    'otp',
    'otpCode',
    'recovery_codes',
    'backup_codes',
    'verification_code',
    'pin',
    'session_id',
  ])('%s is one', (name) => expect(isSecretName(name)).toBe(true));

  it.each(['login', 'username', 'email', 'error_code', 'country_code', 'currency_code', 'status', 'message', 'key', 'value', 'two_fa_enabled', 'auth', 'role', 'uuid'])(
    '%s is not',
    (name) => {
      expect(isSecretName(name)).toBe(false);
    },
  );

  it('keeps the code of the panel error shape and hides any other code', () => {
    expect(isSecretName('code', 'error')).toBe(false);
    expect(isSecretName('code', 'twofa')).toBe(true);
  });
});

describe('redactValue', () => {
  it('hides a login password and keeps the login', () => {
    expect(redactValue({ login: 'x', password: 'p' })).toEqual({ login: 'x', password: REDACTED });
  });

  it('hides nested tokens, secrets and one-time codes, at any depth and in arrays', () => {
    const value = {
      user: { name: 'a', session: { token: 't0k3n', expires: 5 } },
      twofa: { secret: 'JBSWY3DP', code: '123456', totp: 654321 },
      list: [{ access_token: 'a' }, { refresh_token: 'b', id: 2 }],
      recovery_codes: ['one', 'two'],
    };
    expect(redactValue(value)).toEqual({
      user: { name: 'a', session: { token: REDACTED, expires: 5 } },
      twofa: { secret: REDACTED, code: REDACTED, totp: REDACTED },
      list: [{ access_token: REDACTED }, { refresh_token: REDACTED, id: 2 }],
      recovery_codes: REDACTED,
    });
  });

  it('keeps the error code, empty values and flags readable', () => {
    expect(redactValue({ error: { code: 'INVALID_CREDENTIALS', message: 'Wrong password' }, password: '', token: null, otp_enabled: true })).toEqual({
      error: { code: 'INVALID_CREDENTIALS', message: 'Wrong password' },
      password: '',
      token: null,
      otp_enabled: true,
    });
  });

  it('does not change what it was given, and survives cycles', () => {
    const given: Record<string, unknown> = { password: 'p' };
    given.self = given;
    const copy = redactValue(given) as Record<string, unknown>;
    expect(given.password).toBe('p');
    expect(copy).toEqual({ password: REDACTED, self: '[circular]' });
  });
});

describe('text, query strings and URLs', () => {
  it('redacts JSON text, and text that is not JSON by its name=value pairs', () => {
    expect(JSON.parse(redactJsonText('{"login":"x","password":"p"}'))).toEqual({ login: 'x', password: REDACTED });
    expect(redactJsonText('{"login":"x","password":"p"')).toBe(`{"login":"x","password":"${REDACTED}"`);
    expect(redactText('user=alice&password=hunter2&remember=1')).toBe(`user=alice&password=${REDACTED}&remember=1`);
    expect(redactText('Authorization: Bearer eyJhbGciOi.payload.sig')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText("login failed for alice with token='abc123'")).toBe(`login failed for alice with token='${REDACTED}'`);
  });

  it('stays linear on long text without separators', () => {
    const started = performance.now();
    expect(redactText('y'.repeat(200_000))).toHaveLength(200_000);
    expect(redactText(`${'a'.repeat(100_000)}: "${'b'.repeat(100_000)}`)).toHaveLength(200_003);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('redacts credential parameters of a query string and a URL', () => {
    expect(redactQuery('?token=abc&page=2')).toBe(`?token=${REDACTED}&page=2`);
    expect(redactUrl('/api/user/auth/verify?token=abc&next=%2Fdashboard#top')).toBe(`/api/user/auth/verify?token=${REDACTED}&next=%2Fdashboard#top`);
    expect(redactUrl('https://bob:pw@example.com/a?api_key=1')).toBe(`https://${REDACTED}@example.com/a?api_key=${REDACTED}`);
    expect(redactUrl('/api/servers?page=1')).toBe('/api/servers?page=1');
  });

  it('redacts authorization and cookie headers, whatever their case', () => {
    expect(redactHeaders({ Authorization: 'Bearer x', Cookie: 'user_token=abc', 'Content-Type': 'application/json', 'X-CSRF-Token': 'c' })).toEqual({
      authorization: REDACTED,
      cookie: REDACTED,
      'content-type': 'application/json',
      'x-csrf-token': REDACTED,
    });
    expect(redactHeaders([['set-cookie', 'a=b']])).toEqual({ 'set-cookie': REDACTED });
  });

  it('shows cookies by name with the session cookie hidden', () => {
    expect(redactCookies('locale=en; user_token=s3cr3t; theme=dark')).toEqual([
      { name: 'locale', value: 'en' },
      { name: 'user_token', value: REDACTED },
      { name: 'theme', value: 'dark' },
    ]);
    expect(redactCookies('')).toEqual([]);
  });

  it('shows stored values with credentials hidden by their key or inside', () => {
    expect(redactStoredValue('upload_key', 'k-123')).toBe(REDACTED);
    expect(redactStoredValue('user_info', '{"username":"a","api_token":"t"}')).toBe(`{"username":"a","api_token":"${REDACTED}"}`);
    expect(redactStoredValue('locale', 'en')).toBe('en');
  });
});
