// The `orepanel` command: user create (the first administrator), migrate, usage errors and exit
// codes — run in-process against each dialect — and the bin wrapper's hint before a build.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type CliIO } from '../../server/cli';
import { buildApp, servicesOf } from '../../server/app';
import { loadConfig } from '../../server/config';
import { REPO_PLUGINS, ROOT, cookieHeader, createTestDatabase, testDialects, type TestDatabase } from './harness';

function capture(): CliIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t) };
}

describe.each(testDialects())('orepanel CLI on %s', (dialect) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    env = { DATA_DIR: database.dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await database?.drop();
  });

  const run = async (...argv: string[]) => {
    const io = capture();
    const code = await main(argv, io, env);
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
  };

  it('creates the first administrator, who can then log in with admin.root', async () => {
    const res = await run(
      'user',
      'create',
      '--username',
      'Root',
      '--email',
      'root@example.com',
      '--password',
      'admin password 1',
      '--role',
      '8',
      '--first-name',
      'Rita',
      '--last-name',
      'Oot',
    );
    expect(res).toMatchObject({ code: 0, err: '' });
    expect(res.out).toMatch(/^Created user Root \(uuid [0-9a-f-]{36}, role 8\)\.$/);

    const app = await buildApp({ config: loadConfig(env), logger: false, builtPlugins: false, pluginDirs: [REPO_PLUGINS] });
    try {
      const login = await app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: 'root@example.com', password: 'admin password 1' } });
      expect(login.statusCode).toBe(200);
      const session = (await app.inject({ url: '/api/user/session', headers: { cookie: cookieHeader(login) } })).json();
      // the host typed the address on the server: nobody is sent a verify link for it
      expect(session.user_info).toMatchObject({ username: 'Root', first_name: 'Rita', last_name: 'Oot', role: 8, role_name: 'Administrator', verified: true });
      expect(session.permissions).toEqual(['admin.root']);
      expect(session.billing.ram).toBe(1024);
      expect(servicesOf(app).plugins.refused).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('defaults to role 1 and to the username for the names', async () => {
    expect((await run('user', 'create', '--username', 'plain', '--email', 'plain@example.com', '--password', 'plain password')).code).toBe(0);
    const config = loadConfig(env);
    const app = await buildApp({ config, logger: false, builtPlugins: false, pluginDirs: [REPO_PLUGINS] });
    try {
      const user = await servicesOf(app).database.db.selectFrom('users').select(['role_id', 'first_name', 'last_name']).where('username', '=', 'plain').executeTakeFirstOrThrow();
      expect(user).toEqual({ role_id: 1, first_name: 'plain', last_name: 'plain' });
    } finally {
      await app.close();
    }
  });

  it('exits 1 with a clear message for a taken username or email, an invalid field or an unknown role', async () => {
    expect(await run('user', 'create', '--username', 'ROOT', '--email', 'x@example.com', '--password', 'long enough')).toEqual({
      code: 1,
      out: '',
      err: 'error: This username is already taken.',
    });
    expect(await run('user', 'create', '--username', 'fresh', '--email', 'ROOT@example.com', '--password', 'long enough')).toEqual({
      code: 1,
      out: '',
      err: 'error: An account with this email address already exists.',
    });
    expect((await run('user', 'create', '--username', 'fresh', '--email', 'nope', '--password', 'long enough')).err).toBe('error: Invalid email address');
    expect((await run('user', 'create', '--username', 'fresh', '--email', 'f@example.com', '--password', 'short')).err).toMatch(/Password must be 8–256 characters/);
    expect((await run('user', 'create', '--username', 'fresh', '--email', 'f@example.com', '--password', 'long enough', '--role', '42')).err).toBe(
      'error: Role 42 does not exist.',
    );
  });

  it('exits 2 with the usage for wrong usage', async () => {
    for (const argv of [
      ['user', 'create', '--username', 'u'],
      ['user', 'create', '--username', 'u', '--email', 'e@example.com', '--password', 'pppppppp', '--role', 'admin'],
      ['user', 'create', '--bogus', 'x'],
      ['user', 'delete'],
      ['launch'],
      ['migrate', 'now'],
      [],
    ]) {
      const res = await run(...argv);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.err + res.out).toContain('Usage:');
    }
    expect((await run('help')).code).toBe(0);
  });

  it('migrate brings the database up to date and exits 0', async () => {
    const res = await run('migrate');
    expect(res.code).toBe(0);
    // every plugin of the repo (they all load in source mode)
    const plugins = readdirSync(REPO_PLUGINS).filter((id) => existsSync(join(REPO_PLUGINS, id, 'plugin.json'))).length;
    expect(res.out).toBe(`Database (${dialect}) is up to date: core and ${plugins} plugin(s).`);
  });
});

describe('orepanel CLI configuration errors', () => {
  it('exits 1 with the problems listed', async () => {
    const io = capture();
    const code = await main(['migrate'], io, { PORT: 'abc', DATA_DIR: join(tmpdir(), 'never-created-orepanel') });
    expect(code).toBe(1);
    expect(io.stderr.join('\n')).toBe('Invalid configuration:\n  - PORT must be a whole number from 0 to 65535 (got "abc")');
  });
});

describe('bin/orepanel.mjs', () => {
  it('asks for a build when dist/server/cli.js is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orepanel-bin-'));
    try {
      mkdirSync(join(dir, 'bin'));
      cpSync(join(ROOT, 'bin', 'orepanel.mjs'), join(dir, 'bin', 'orepanel.mjs'));
      const res = spawnSync(process.execPath, [join(dir, 'bin', 'orepanel.mjs'), 'migrate'], { encoding: 'utf8' });
      expect(res.status).toBe(1);
      expect(res.stderr).toBe('Run npm run build first\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
