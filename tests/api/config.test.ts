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
    expect(loadConfig({ DATA_DIR: freshDir(), REDIS_PREFIX: '' }).redisPrefix).toBe('orepanel:');
    expect(loadConfig({ DATA_DIR: freshDir(), REDIS_PREFIX: 'shop-2:' }).redisPrefix).toBe('shop-2:');
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
    [{ REDIS_PREFIX: 'has space:' }, /REDIS_PREFIX must be 1 to 64 letters/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be at least 16 characters/],
    [{ REDIS_PREFIX: 'x'.repeat(65) }, /REDIS_PREFIX/],
    [{ TRUST_PROXY: 'everyone' }, /TRUST_PROXY must be a number of hops or a comma list.*everyone/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '0' }, /between 1 and 32/],
    [{ APP_URL: 'ftp://panel' }, /APP_URL must be an http/],
    [{ SESSION_TTL_DAYS: '0' }, /SESSION_TTL_DAYS must be a whole number from 1 to 3650/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ SECRET_KEY: 'short' }, /SECRET_KEY must be at least 32 characters/],
    [{ FILES_S3_ENDPOINT: 'http://s3.local' }, /FILES_S3_ENDPOINT is set but FILES_S3_BUCKET is not/],
    [{ FILES_S3_BUCKET: 'Bad_Bucket' }, /FILES_S3_BUCKET "Bad_Bucket" is not a valid bucket name/],
    [{ FILES_S3_BUCKET: 'files', FILES_S3_ENDPOINT: 's3.local' }, /FILES_S3_ENDPOINT must be an http/],
    [{ FILES_S3_BUCKET: 'files', FILES_S3_ACCESS_KEY_ID: 'AKIA' }, /FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY are set together/],
    [{ FILES_S3_BUCKET: 'files', FILES_S3_PREFIX: '../other' }, /FILES_S3_PREFIX must be a relative folder/],
    [{ FILES_S3_BUCKET: 'files', FILES_S3_FORCE_PATH_STYLE: 'yes' }, /FILES_S3_FORCE_PATH_STYLE must be true or false/],
  ])('refuses %j with a clear message', (env, message) => {
    const problems = problemsOf(env);
    expect(problems.join('\n')).toMatch(message);
  });

  it('keeps files in DATA_DIR/files/ unless an S3 bucket is configured', () => {
    const dataDir = freshDir();
    expect(loadConfig({ DATA_DIR: dataDir }).files).toEqual({ store: 'disk', dir: join(dataDir, 'files') });
    expect(
      loadConfig({
        DATA_DIR: dataDir,
        FILES_S3_BUCKET: 'panel-files',
        FILES_S3_ENDPOINT: 'https://s3.example.com',
        FILES_S3_REGION: 'auto',
        FILES_S3_ACCESS_KEY_ID: 'AKIA1',
        FILES_S3_SECRET_ACCESS_KEY: 'secret',
        FILES_S3_PREFIX: 'orepanel',
        FILES_S3_FORCE_PATH_STYLE: 'TRUE',
      }).files,
    ).toEqual({
      store: 's3',
      bucket: 'panel-files',
      endpoint: 'https://s3.example.com',
      region: 'auto',
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'secret' },
      prefix: 'orepanel/',
      forcePathStyle: true,
    });
    expect(loadConfig({ DATA_DIR: dataDir, FILES_S3_BUCKET: 'panel-files' }).files).toEqual({
      store: 's3',
      bucket: 'panel-files',
      endpoint: null,
      region: 'us-east-1',
      credentials: null,
      prefix: '',
      forcePathStyle: false,
    });
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
      'REDIS_PREFIX',
      'TRUST_PROXY',
      'APP_URL',
      'SESSION_TTL_DAYS',
      'LOG_LEVEL',
      'FILES_S3_BUCKET',
      'FILES_S3_ENDPOINT',
      'FILES_S3_REGION',
      'FILES_S3_ACCESS_KEY_ID',
      'FILES_S3_SECRET_ACCESS_KEY',
      'FILES_S3_PREFIX',
      'FILES_S3_FORCE_PATH_STYLE',
      'SECRET_KEY',
      'BACKUP_PASSPHRASE',
      'METRICS_TOKEN',
      'SHUTDOWN_DRAIN_SECONDS',
      'METRICS_ALLOW',
    ]);
    for (const v of CONFIG_VARS) expect(v.description.length).toBeGreaterThan(10);
  });

  it('takes the shutdown drain in whole seconds from 0 to 20 (5 by default)', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'orepanel-config-'));
    try {
      expect(loadConfig({ DATA_DIR: dataDir }).shutdownDrainMs).toBe(5000);
      expect(loadConfig({ DATA_DIR: dataDir, SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainMs).toBe(0);
      expect(loadConfig({ DATA_DIR: dataDir, SHUTDOWN_DRAIN_SECONDS: '12' }).shutdownDrainMs).toBe(12_000);
      for (const bad of ['21', '-1', '2.5', 'soon']) {
        expect(() => loadConfig({ DATA_DIR: dataDir, SHUTDOWN_DRAIN_SECONDS: bad })).toThrow(/SHUTDOWN_DRAIN_SECONDS must be a whole number from 0 to 20/);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('takes a backup passphrase of at least 12 characters', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'orepanel-config-'));
    try {
      expect(loadConfig({ DATA_DIR: dataDir }).backupPassphrase).toBeNull();
      expect(loadConfig({ DATA_DIR: dataDir, BACKUP_PASSPHRASE: 'correct horse battery' }).backupPassphrase).toBe('correct horse battery');
      expect(() => loadConfig({ DATA_DIR: dataDir, BACKUP_PASSPHRASE: 'short' })).toThrow(/BACKUP_PASSPHRASE must be at least 12 characters/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
