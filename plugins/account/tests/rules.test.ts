import { describe, expect, it } from 'vitest';
import { describeDevice, formatDateTime } from '../client/format';
import { changesAddress, checkProfile, profileBody, type ProfileInput } from '../client/profile-rules';

const valid: ProfileInput = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', avatar: '', background: 'https://example.com/bg.jpg' };

describe('profile rules', () => {
  it('accepts a valid profile, an empty picture address included', () => {
    expect(checkProfile(valid)).toEqual({});
  });

  it('allows only http and https picture addresses (spec §5: Invalid URL)', () => {
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'ftp://example.com/a.png', 'example.com/a.png', `https://example.com/${'a'.repeat(520)}`]) {
      expect(checkProfile({ ...valid, avatar: bad }).avatar, bad).toBe('validation.invalidUrl');
    }
    expect(checkProfile({ ...valid, avatar: 'http://example.com/a.png' }).avatar).toBeUndefined();
  });

  it('requires names and a well-formed e-mail (spec §5: Invalid email address)', () => {
    expect(checkProfile({ ...valid, first_name: '  ', email: 'ada@' })).toEqual({ first_name: 'validation.required', email: 'validation.invalidEmail' });
    expect(checkProfile({ ...valid, last_name: 'x'.repeat(65) }).last_name).toBe('validation.nameTooLong');
  });

  it('trims, and clears a picture with null', () => {
    expect(profileBody({ ...valid, first_name: ' Ada ', avatar: '   ' })).toEqual({ ...valid, avatar: null });
  });

  it('asks for the current password for another address, not for a change of letter case', () => {
    expect(changesAddress({ email: ' Ada@Example.com ' }, { email: 'ada@example.com' })).toBe(false);
    expect(changesAddress({ email: 'ada@elsewhere.com' }, { email: 'ada@example.com' })).toBe(true);
  });
});

describe('device and date descriptions', () => {
  it('names common browsers and systems, Edge and Opera before Chrome', () => {
    expect(describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0')).toEqual({
      browser: 'Edge',
      os: 'Windows',
    });
    expect(describeDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1')).toEqual({
      browser: 'Safari',
      os: 'iOS',
    });
    expect(describeDevice('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36')).toEqual({
      browser: 'Chrome',
      os: 'Android',
    });
    expect(describeDevice(null)).toEqual({ browser: null, os: null });
  });

  it('formats a timestamp in the interface language and keeps what is not one', () => {
    expect(formatDateTime('2026-01-02T10:00:00.000Z', 'en')).toMatch(/2026/);
    expect(formatDateTime('2026-01-02T10:00:00.000Z', 'md')).toMatch(/2026/);
    expect(formatDateTime('yesterday', 'en')).toBe('yesterday');
  });
});
