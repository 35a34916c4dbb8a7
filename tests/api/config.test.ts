// The environment configuration: defaults, every variable validated with a clear message, and the
// generated secret key kept with owner-only permissions.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_VARS, ConfigError, loadConfig } from '../../server/config';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'orepanel-config-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig({ DATA_DIR: freshDir(), ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const cwd = freshDir();
    const config = loadConfig({}, { cwd });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: join(cwd, 'data'),
      database: { dialect: 'sqlite', file: join(cwd, 'data', 'orepanel.sqlite') },
      redisUrl: null,
      trustProxy: false,
      appUrl: null,
      sessionTtlDays: 30,
      logLevel: 'info',
    });
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({ DATA_DIR: freshDir(), DATABASE_URL: '', REDIS_URL: '', PORT: '' });
    expect(config.database.dialect).toBe('sqlite');
    expect(config.redisUrl).toBeNull();
    expect(config.port).toBe(3000);
  });

  it('chooses the dialect from DATABASE_URL', () => {
    const dataDir = freshDir();
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u:p@db:5432/panel' }).database).toEqual({ dialect: 'postgres', url: 'postgres://u:p@db:5432/panel' });
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgresql://db/panel' }).database.dialect).toBe('postgres');
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'mysql://root@db/panel' }).database.dialect).toBe('mysql');
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'mariadb://root@db/panel' }).database.dialect).toBe('mysql');
  });

  it('maps TRUST_PROXY to addresses or a hop count', () => {
    const dataDir = freshDir();
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number from 0 to 65535/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'sqlite://x' }, /DATABASE_URL scheme "sqlite:" is not supported/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL is not a valid URL/],
    [{ REDIS_URL: 'http://cache' }, /REDIS_URL must start with redis:\/\//],
    [{ TRUST_PROXY: 'everyone' }, /TRUST_PROXY must be a number of hops or a comma list.*everyone/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '0' }, /between 1 and 32/],
    [{ APP_URL: 'ftp://panel' }, /APP_URL must be an http/],
    [{ SESSION_TTL_DAYS: '0' }, /SESSION_TTL_DAYS must be a whole number from 1 to 3650/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ SECRET_KEY: 'short' }, /SECRET_KEY must be at least 32 characters/],
  ])('refuses %j with a clear message', (env, message) => {
    const problems = problemsOf(env);
    expect(problems.join('\n')).toMatch(message);
  });

  it('names every problem at once', () => {
    expect(problemsOf({ PORT: 'x', LOG_LEVEL: 'y', SESSION_TTL_DAYS: 'z' })).toHaveLength(3);
  });

  it('generates the secret key once, readable by the owner only', () => {
    const dataDir = freshDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
    const file = join(dataDir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.secretKey);
    expect(loadConfig({ DATA_DIR: dataDir }).secretKey).toBe(first.secretKey);
    expect(loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'k'.repeat(40) }).secretKey).toBe('k'.repeat(40));
  });

  it('documents every variable it reads', () => {
    expect(CONFIG_VARS.map((v) => v.name)).toEqual([
      'PORT',
      'HOST',
      'DATA_DIR',
      'DATABASE_URL',
      'REDIS_URL',
      'TRUST_PROXY',
      'APP_URL',
      'SESSION_TTL_DAYS',
      'LOG_LEVEL',
      'SECRET_KEY',
    ]);
    for (const v of CONFIG_VARS) expect(v.description.length).toBeGreaterThan(10);
  });
});
