import { describe, expect, it } from 'vitest';
import { hasPermission, installsAtStartup, isAdminRole, orderByRequires, satisfiesRange, sdkRangeProblem } from './manifest';
import { validateManifest } from './manifest-validate.mjs';

describe('satisfiesRange', () => {
  it.each([
    ['1.0.0', '^1.0.0', true],
    ['1.4.2', '^1.2.0', true],
    ['2.0.0', '^1.0.0', false],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.5.0', '>=1.0.0 <2.0.0', true],
    ['2.0.0', '>=1.0.0 <2.0.0', false],
    ['3.1.0', '^1.0.0 || ^3.0.0', true],
    ['1.7.0', '1.x', true],
    ['2.0.0', '1.x', false],
    ['1.0.0', '*', true],
    ['1.0.0', '1.0.0', true],
    ['1.0.1', '1.0.0', false],
  ])('%s in %s → %s', (v, r, expected) => {
    expect(satisfiesRange(v, r)).toBe(expected);
  });

  it('reports an unparsable range as null', () => {
    expect(satisfiesRange('1.0.0', '^banana')).toBeNull();
  });
});

describe('sdkRangeProblem', () => {
  it('accepts a compatible range', () => {
    expect(sdkRangeProblem('^1.0.0', '1.0.0')).toBeNull();
  });
  it('gives a readable reason for an incompatible major', () => {
    expect(sdkRangeProblem('^2.0.0', '1.0.0')).toBe('it needs sdk ^2.0.0 but this panel provides sdk 1.0.0 (plugin API v1)');
  });
  it('gives a readable reason for an invalid range', () => {
    expect(sdkRangeProblem('lol', '1.0.0')).toMatch(/not a valid semver range/);
  });
});

describe('orderByRequires', () => {
  it('puts requirements first and keeps input order otherwise', () => {
    const { ordered, refused } = orderByRequires([{ id: 'store', requires: ['wallet'] }, { id: 'auth' }, { id: 'wallet', requires: ['auth'] }]);
    expect(ordered.map((p) => p.id)).toEqual(['auth', 'wallet', 'store']);
    expect(refused).toEqual([]);
  });

  it('refuses a plugin with a missing requirement, and its dependants', () => {
    const { ordered, refused } = orderByRequires([{ id: 'a', requires: ['missing'] }, { id: 'b', requires: ['a'] }, { id: 'c' }]);
    expect(ordered.map((p) => p.id)).toEqual(['c']);
    expect(refused.map((r) => [r.item.id, r.reason])).toEqual([
      ['a', 'it requires plugin "missing", which is not installed or not enabled'],
      ['b', 'it requires plugin "a", which could not be loaded'],
    ]);
  });

  it('refuses a cycle instead of looping', () => {
    const { ordered, refused } = orderByRequires([
      { id: 'x', requires: ['y'] },
      { id: 'y', requires: ['x'] },
    ]);
    expect(ordered).toEqual([]);
    expect(refused.length).toBe(2);
    expect(refused[0].reason).toMatch(/dependency cycle/);
  });
});

describe('permissions and roles', () => {
  it('admin.root passes every check (spec §6)', () => {
    expect(hasPermission(['admin.root'], 'admin.users.list')).toBe(true);
    expect(hasPermission(['admin.users.list'], 'admin.users.list')).toBe(true);
    expect(hasPermission(['admin.users.edit'], 'admin.users.list')).toBe(false);
    expect(hasPermission([], undefined)).toBe(true);
  });
  it('only roles 2..8 are admin-type (spec §2 rule 2)', () => {
    expect([0, 1, 2, 5, 8, 9].map(isAdminRole)).toEqual([false, false, true, true, true, false]);
    expect(isAdminRole('7')).toBe(true);
    expect(isAdminRole('abc')).toBe(false);
    expect(isAdminRole(null)).toBe(false);
  });
});

describe('validateManifest', () => {
  it('accepts every manifest in plugins/ and fills defaults', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    // plugin folders only (plugins/ also holds cross-plugin tests such as locales.test.ts)
    const dirs = readdirSync(new URL('../plugins/', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(dirs.length).toBeGreaterThan(0);
    for (const dir of dirs) {
      const json = JSON.parse(readFileSync(new URL(`../plugins/${dir}/plugin.json`, import.meta.url), 'utf8'));
      const res = validateManifest(json);
      expect(res, dir).toMatchObject({ ok: true });
      if (res.ok) expect(res.manifest.id).toBe(dir);
    }
  });
  it('refuses an unknown property and a bad id with readable errors', () => {
    const res = validateManifest({ id: 'Bad Id', name: 'x', version: '1.0.0', sdk: '^2.0.0', colour: 'red' });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.errors).toContain('(root): unknown property "colour"');
      expect(res.errors.some((e) => e.startsWith('/id:'))).toBe(true);
    }
  });
  it('"startup" is a boolean', () => {
    const base = { id: 'late', name: 'x', version: '1.0.0', sdk: '^2.0.0' };
    expect(validateManifest({ ...base, startup: true })).toMatchObject({ ok: true, manifest: { startup: true } });
    expect(validateManifest({ ...base, startup: 'yes' })).toEqual({ ok: false, errors: ['/startup: must be boolean'] });
  });
  it('takes a badge name on a nav item, and refuses one that is no name', () => {
    const base = { id: 'sample', name: 'x', version: '1.0.0', sdk: '^2.0.0' };
    expect(validateManifest({ ...base, nav: [{ route: '/x', label: 'nav.x', badge: 'unread' }] })).toMatchObject({ ok: true });
    expect(validateManifest({ ...base, nav: [{ route: '/x', label: 'nav.x', badge: 'Unread count' }] })).toEqual({
      ok: false,
      errors: ['/nav/0/badge: must match pattern "^[a-z][a-z0-9-]{0,39}$"'],
    });
  });

  it('takes optional plugins, but not itself nor one it requires', () => {
    const base = { id: 'sample', name: 'x', version: '1.0.0', sdk: '^2.0.0' };
    expect(validateManifest({ ...base, optional: ['servers'] })).toMatchObject({ ok: true, manifest: { optional: ['servers'] } });
    expect(validateManifest({ ...base, optional: ['sample'] })).toEqual({ ok: false, errors: ['/optional: a plugin cannot list itself'] });
    expect(validateManifest({ ...base, requires: ['servers'], optional: ['servers'] })).toEqual({
      ok: false,
      errors: ['/optional: "servers" is in requires already (a required plugin is not optional)'],
    });
  });

  it('takes mail templates with a description and sample placeholders, each name once', () => {
    const base = { id: 'mailer', name: 'x', version: '1.0.0', sdk: '^2.0.0' };
    const notice = { name: 'notice', description: 'Sent when something happens.', placeholders: { first_name: 'Ada' } };
    expect(validateManifest({ ...base, mailTemplates: [notice] })).toMatchObject({ ok: true, manifest: { mailTemplates: [notice] } });
    expect(validateManifest({ ...base, mailTemplates: [notice, { ...notice, description: 'Again.' }] })).toEqual({
      ok: false,
      errors: ['/mailTemplates: "notice" is declared twice'],
    });
    expect(validateManifest({ ...base, mailTemplates: [{ ...notice, name: 'Not A Name' }] }).ok).toBe(false);
    expect(validateManifest({ ...base, mailTemplates: [{ ...notice, placeholders: { first_name: 7 } }] }).ok).toBe(false);
    expect(validateManifest({ ...base, mailTemplates: [{ name: 'notice', placeholders: {} }] }).ok).toBe(false);
  });
  it('takes mail preferences with an English label and a default, each key once', () => {
    const base = { id: 'news', name: 'x', version: '1.0.0', sdk: '^2.0.0' };
    const digest = { key: 'digest', label: { en: 'Weekly digest', ro: 'Rezumat săptămânal' }, default: true };
    expect(validateManifest({ ...base, mailPreferences: [digest] })).toMatchObject({ ok: true, manifest: { mailPreferences: [digest] } });
    expect(validateManifest({ ...base, mailPreferences: [digest, { ...digest, default: false }] })).toEqual({
      ok: false,
      errors: ['/mailPreferences: "digest" is declared twice'],
    });
    expect(validateManifest({ ...base, mailPreferences: [{ ...digest, key: 'Not A Key' }] }).ok).toBe(false);
    expect(validateManifest({ ...base, mailPreferences: [{ ...digest, label: { ro: 'Rezumat' } }] }).ok).toBe(false);
    expect(validateManifest({ ...base, mailPreferences: [{ ...digest, label: { en: 'Digest', xx: 'Digest' } }] }).ok).toBe(false);
    expect(validateManifest({ ...base, mailPreferences: [{ key: 'digest', label: { en: 'Digest' } }] }).ok).toBe(false);
  });
  it('refuses a plugin tapping beforeNavigate with "startup": false (its guard must hold from the first navigation)', () => {
    const base = { id: 'guard', name: 'x', version: '1.0.0', sdk: '^2.0.0', hooks: ['afterNavigate', 'beforeNavigate'] };
    expect(validateManifest({ ...base, startup: false })).toEqual({
      ok: false,
      errors: [
        '/startup: a plugin that taps the beforeNavigate hook must install at start-up (its guard must hold from the first navigation): leave "startup" out or set it to true',
      ],
    });
    expect(validateManifest(base).ok).toBe(true);
    expect(validateManifest({ ...base, startup: true }).ok).toBe(true);
    expect(validateManifest({ ...base, hooks: ['afterNavigate'], startup: false }).ok).toBe(true);
  });
});

describe('installsAtStartup', () => {
  it('follows "startup"; when absent, a plugin declaring hooks or events installs at start-up and any other one on first need', () => {
    expect(installsAtStartup({})).toBe(false);
    expect(installsAtStartup({ hooks: [], events: [] })).toBe(false);
    expect(installsAtStartup({ hooks: ['sessionLoaded'] })).toBe(true);
    expect(installsAtStartup({ events: ['session:changed'] })).toBe(true);
    expect(installsAtStartup({ events: ['session:changed'], startup: false })).toBe(false);
    expect(installsAtStartup({ startup: true })).toBe(true);
  });
});
