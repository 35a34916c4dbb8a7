// @vitest-environment jsdom
// The debug panel's logic: copy as cURL (never a credential), the spec §3 settings groups with the
// debug object, the terminal (expressions, statements, promises, errors, redacted output), the
// filters and the storage view.
import { REDACTED } from '@orepanel/sdk';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellQuote } from '../client/curl';
import { matchesLogFilter } from '../client/LogTab';
import { matchesNetworkFilter } from '../client/NetworkTab';
import { groupSettings } from '../client/settings-groups';
import { readStorage, storageCount } from '../client/StorageTab';
import { runScript, showValue } from '../client/terminal';

describe('copy as cURL', () => {
  it('makes the address absolute, keeps the method, headers and body, and leaves redacted headers out', () => {
    const command = curlCommand(
      {
        method: 'POST',
        url: '/api/user/auth/login',
        requestHeaders: { 'content-type': 'application/json', authorization: REDACTED, cookie: REDACTED },
        requestBody: `{"login":"alice","password":"${REDACTED}"}`,
      },
      'https://panel.example',
    );
    expect(command).toBe(
      `curl --globoff -X POST 'https://panel.example/api/user/auth/login' -H 'content-type: application/json' --data-raw '{"login":"alice","password":"${REDACTED}"}'`,
    );
    expect(command).not.toContain('authorization');
  });

  it('quotes for the shell and sends no body it only described', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(curlCommand({ method: 'POST', url: '/api/x', requestHeaders: {}, requestBody: '{"name":"o\'k"}' }, 'https://p.example')).toBe(
      `curl --globoff -X POST 'https://p.example/api/x' --data-raw '{"name":"o'\\''k"}'`,
    );
    expect(curlCommand({ method: 'GET', url: '/api/x', requestHeaders: {}, requestBody: null }, 'https://p.example')).toBe(`curl --globoff 'https://p.example/api/x'`);
    expect(curlCommand({ method: 'PUT', url: '/api/blob', requestHeaders: {}, requestBody: '[image/png, 10 bytes]' }, 'https://p.example')).toBe(
      `curl --globoff -X PUT 'https://p.example/api/blob'`,
    );
  });
});

describe('the settings groups of spec §3', () => {
  it('lists General, Company, Server defaults, Feature flags and Debug info with the debug object, then Other', () => {
    const groups = groupSettings(
      { app_name: 'Orepanel', company_name: 'Acme', default_ram: 1024, afk_enabled: true, debug_os: '', registration_enabled: true, app_theme: 'dark' },
      { useRedis: false, rateLimit: { enabled: true, limit: 100 } },
    );
    expect(groups.map((g) => g.id)).toEqual(['general', 'company', 'server', 'features', 'debug', 'other']);
    const row = (group: string, key: string) => groups.find((g) => g.id === group)?.rows.find((r) => r.key === key)?.value;
    expect(row('general', 'app_name')).toBe('Orepanel');
    expect(row('general', 'app_url')).toBeUndefined();
    expect(row('company', 'company_name')).toBe('Acme');
    expect(row('server', 'default_ram')).toBe(1024);
    expect(row('features', 'afk_enabled')).toBe(true);
    expect(groups.find((g) => g.id === 'features')?.rows).toHaveLength(13);
    expect(row('debug', 'debug_os')).toBe('');
    expect(row('debug', 'debug.useRedis')).toBe(false);
    expect(row('debug', 'debug.rateLimit.enabled')).toBe(true);
    expect(row('debug', 'debug.rateLimit.limit')).toBe(100);
    expect(groups.at(-1)?.rows.map((r) => r.key)).toEqual(['app_theme', 'registration_enabled']);
  });

  it('has no Other group when every key is the spec’s, and no debug values without the object', () => {
    const groups = groupSettings({ app_name: 'x' }, null);
    expect(groups.map((g) => g.id)).not.toContain('other');
    expect(groups.find((g) => g.id === 'debug')?.rows.find((r) => r.key === 'debug.useRedis')?.value).toBeUndefined();
  });
});

describe('the terminal', () => {
  it('shows the value of an expression', async () => {
    expect(await runScript('1+1')).toEqual({ ok: true, text: '2' });
    expect(await runScript("'a' + 'b'")).toEqual({ ok: true, text: '"ab"' });
    expect(await runScript('({ a: [1, 2] })')).toEqual({ ok: true, text: '{\n  "a": [\n    1,\n    2\n  ]\n}' });
  });

  it('runs statements, awaits promises and reports errors', async () => {
    expect(await runScript('let n = 2; n * 3')).toEqual({ ok: true, text: 'undefined' });
    expect(await runScript('Promise.resolve(41 + 1)')).toEqual({ ok: true, text: '42' });
    expect(await runScript('nope()')).toEqual({ ok: false, text: 'ReferenceError: nope is not defined' });
    expect(await runScript('throw 5')).toEqual({ ok: false, text: 'Uncaught 5' });
    expect((await runScript('1 +')).text).toMatch(/^SyntaxError/);
  });

  it('redacts credentials in what it shows', () => {
    expect(showValue({ user: 'a', token: 't' })).toBe(`{\n  "user": "a",\n  "token": "${REDACTED}"\n}`);
    expect(showValue('locale=en; user_token=abc')).toBe(`"locale=en; user_token=${REDACTED}"`);
  });
});

describe('filters', () => {
  it('finds requests by method, address and status, every word', () => {
    const entry = { method: 'POST', url: '/api/user/auth/login', status: 401 };
    expect(matchesNetworkFilter(entry, 'login')).toBe(true);
    expect(matchesNetworkFilter(entry, 'post 401')).toBe(true);
    expect(matchesNetworkFilter(entry, 'get login')).toBe(false);
    expect(matchesNetworkFilter(entry, '   ')).toBe(true);
  });

  it('finds log lines by text and level', () => {
    const line = { text: 'Unhandled Promise Rejection: Error: nope', level: 'error' as const };
    expect(matchesLogFilter(line, 'promise', null)).toBe(true);
    expect(matchesLogFilter(line, 'promise', 'warn')).toBe(false);
    expect(matchesLogFilter(line, 'UNHANDLED nope', 'error')).toBe(true);
  });
});

describe('the storage view', () => {
  it('lists cookies readable by script and local storage, credentials redacted, and counts them', () => {
    const storage = new Map([
      ['locale', 'fr'],
      ['upload_key', 'k-1'],
      ['user_info', '{"username":"a","api_token":"t"}'],
    ]);
    const view = readStorage({ cookie: 'user_token=abc; locale=fr' }, { length: storage.size, key: (i) => [...storage.keys()][i] ?? null, getItem: (k) => storage.get(k) ?? null });
    expect(view.cookies).toEqual([
      { name: 'user_token', value: REDACTED },
      { name: 'locale', value: 'fr' },
    ]);
    expect(view.local).toEqual([
      { key: 'locale', value: 'fr' },
      { key: 'upload_key', value: REDACTED },
      { key: 'user_info', value: `{"username":"a","api_token":"${REDACTED}"}` },
    ]);
    expect(storageCount(view)).toBe(5);
  });
});
