// The panel's configuration, read once from the environment at start. Every variable is listed in
// CONFIG_VARS (the README's configuration table is written from it). Bad values stop the start
// with one message naming every problem.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import type { DatabaseDialect } from '../sdk/server';

export interface ConfigVar {
  name: string;
  default: string;
  description: string;
}

export const CONFIG_VARS: readonly ConfigVar[] = [
  { name: 'PORT', default: '3000', description: 'TCP port the panel listens on.' },
  { name: 'HOST', default: '0.0.0.0', description: 'Address the panel listens on (127.0.0.1 to accept local connections only).' },
  {
    name: 'DATA_DIR',
    default: './data',
    description:
      'Directory for the SQLite database, the generated secret key, third-party plugins (DATA_DIR/plugins/<id>/) and uploaded files (DATA_DIR/files/, unless FILES_S3_BUCKET is set).',
  },
  {
    name: 'DATABASE_URL',
    default: '(unset: SQLite at DATA_DIR/orepanel.sqlite)',
    description:
      'postgres://user:pass@host:5432/db (or postgresql://) for PostgreSQL; mysql://user:pass@host:3306/db (or mariadb://) for MySQL/MariaDB. Every instance of one panel needs the same one.',
  },
  { name: 'REDIS_URL', default: '(unset: in-process)', description: 'redis://host:6379 — shares rate limits, presence and cache invalidation between several panel instances.' },
  {
    name: 'REDIS_PREFIX',
    default: 'orepanel:',
    description: 'Put before every Redis key and pub/sub channel of the panel, so several panels can share one Redis (each with its own prefix; its instances with the same one).',
  },
  {
    name: 'TRUST_PROXY',
    default: '(unset: trust no proxy)',
    description: 'Which reverse proxies may set X-Forwarded-For/-Proto: a comma list of IPs or CIDRs (e.g. 127.0.0.1,10.0.0.0/8), or a number of hops.',
  },
  { name: 'APP_URL', default: '(unset)', description: 'Public address of the panel, e.g. https://panel.example.com (used in links sent by mail).' },
  { name: 'SESSION_TTL_DAYS', default: '30', description: 'How long a login session lasts, in days.' },
  { name: 'LOG_LEVEL', default: 'info', description: 'fatal, error, warn, info, debug, trace or silent.' },
  {
    name: 'FILES_S3_BUCKET',
    default: '(unset: files in DATA_DIR/files/)',
    description: 'Keeps uploaded files in this S3 bucket instead of DATA_DIR/files/ (needed when several panel instances serve the same files).',
  },
  {
    name: 'FILES_S3_ENDPOINT',
    default: '(unset: AWS S3)',
    description: 'The address of an S3-compatible storage (MinIO, Cloudflare R2, Backblaze B2…), e.g. https://s3.example.com.',
  },
  { name: 'FILES_S3_REGION', default: 'us-east-1', description: 'The bucket\'s region (S3-compatible storages often take any value, or "auto").' },
  {
    name: 'FILES_S3_ACCESS_KEY_ID',
    default: '(unset: the AWS default credentials)',
    description: "Access key for the bucket; set together with FILES_S3_SECRET_ACCESS_KEY, or neither to use the environment's AWS credentials.",
  },
  { name: 'FILES_S3_SECRET_ACCESS_KEY', default: '(unset)', description: 'Secret for FILES_S3_ACCESS_KEY_ID.' },
  {
    name: 'FILES_S3_PREFIX',
    default: "(unset: the bucket's root)",
    description: "A folder inside the bucket for the panel's files, e.g. orepanel/ (lets one bucket serve several panels).",
  },
  { name: 'FILES_S3_FORCE_PATH_STYLE', default: 'false', description: 'true for storages that want bucket names in the path (MinIO and most self-hosted ones).' },
  {
    name: 'SECRET_KEY',
    default: '(unset: generated once into DATA_DIR/secret.key)',
    description:
      'At least 32 characters; encrypts secret settings. Every instance of one panel needs the same key (one with another refuses to start). Keep it safe: changing it makes stored secrets unreadable.',
  },
  {
    name: 'BACKUP_PASSPHRASE',
    default: "(unset: backups are encrypted with the install's secret key)",
    description:
      'At least 12 characters. When set, new backups (DATA_DIR/backups) are encrypted with this passphrase instead of the secret key, and restoring one made with it needs it set again.',
  },
  {
    name: 'METRICS_TOKEN',
    default: '(unset: no /metrics)',
    description: 'At least 16 characters. Turns on Prometheus metrics at GET /metrics, answered only to a scraper sending Authorization: Bearer <token>.',
  },
  {
    name: 'SHUTDOWN_DRAIN_SECONDS',
    default: '5',
    description:
      'On SIGTERM, how long (0 to 20 s) the instance keeps serving, answering with Connection: close and /readyz 503, before it closes its connections: longer than the proxy keeps an idle connection to it (docs/deploy.md: keepalive_timeout 4s), so no request is sent on a connection that is being closed.',
  },
  {
    name: 'METRICS_ALLOW',
    default: '(unset: no address list)',
    description:
      'A comma list of IP addresses/CIDRs (127.0.0.1,10.0.0.0/8). Turns on /metrics for scrapers at those addresses (the client address as TRUST_PROXY makes it); with METRICS_TOKEN as well, both are needed.',
  },
];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export type DatabaseConfig = { dialect: 'sqlite'; file: string } | { dialect: Exclude<DatabaseDialect, 'sqlite'>; url: string };

/** Where uploaded files are kept: DATA_DIR/files/, or an S3 bucket shared by every instance. */
export type FilesConfig =
  | { store: 'disk'; dir: string }
  | {
      store: 's3';
      bucket: string;
      endpoint: string | null;
      region: string;
      /** null: the AWS SDK's default credential chain (environment, instance role…) */
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
      /** '' or a folder ending in '/' */
      prefix: string;
      forcePathStyle: boolean;
    };

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly database: DatabaseConfig;
  readonly redisUrl: string | null;
  /** REDIS_PREFIX: before every key and channel the panel uses in Redis */
  readonly redisPrefix: string;
  /** METRICS_TOKEN, or null: /metrics answers 404 */
  readonly metricsToken: string | null;
  /** SHUTDOWN_DRAIN_SECONDS in ms: how long a stopping instance serves on with Connection: close before it closes */
  readonly shutdownDrainMs: number;
  /** METRICS_ALLOW: the addresses/CIDRs /metrics answers, or null for any (then the token alone guards it) */
  readonly metricsAllow: readonly string[] | null;
  /** Fastify's trustProxy: false, a hop count or a list of addresses/CIDRs */
  readonly trustProxy: false | number | string[];
  readonly appUrl: string | null;
  readonly sessionTtlDays: number;
  readonly logLevel: LogLevel;
  readonly secretKey: string;
  readonly files: FilesConfig;
  /** BACKUP_PASSPHRASE, or null: backups are then encrypted with a key derived from secretKey */
  readonly backupPassphrase: string | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** An empty variable counts as unset (so `DATABASE_URL=` means the SQLite default). */
function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function parseDatabase(url: string | undefined, dataDir: string, problems: string[]): DatabaseConfig {
  if (!url) return { dialect: 'sqlite', file: join(dataDir, 'orepanel.sqlite') };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    problems.push('DATABASE_URL is not a valid URL (expected postgres://… or mysql://…)');
    return { dialect: 'sqlite', file: join(dataDir, 'orepanel.sqlite') };
  }
  switch (parsed.protocol) {
    case 'postgres:':
    case 'postgresql:':
      return { dialect: 'postgres', url };
    case 'mysql:':
    case 'mariadb:':
      return { dialect: 'mysql', url };
    default:
      problems.push(`DATABASE_URL scheme "${parsed.protocol}" is not supported (use postgres://, postgresql://, mysql:// or mariadb://)`);
      return { dialect: 'sqlite', file: join(dataDir, 'orepanel.sqlite') };
  }
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(text: string): boolean {
  if (PROXY_NAMES.has(text)) return true;
  const [address, prefix, extra] = text.split('/');
  if (extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

function parseAddressList(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function parseTrustProxy(value: string | undefined, problems: string[]): false | number | string[] {
  if (!value) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 32) problems.push('TRUST_PROXY as a hop count must be between 1 and 32');
    return hops;
  }
  const list = parseAddressList(value) ?? [];
  const bad = list.filter((item) => !isAddressOrCidr(item));
  if (bad.length > 0 || list.length === 0) {
    problems.push(`TRUST_PROXY must be a number of hops or a comma list of IP addresses/CIDRs; not understood: ${bad.join(', ') || value}`);
  }
  return list;
}

function parseInteger(name: string, value: string | undefined, fallback: number, min: number, max: number, problems: string[]): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max} (got "${value}")`);
    return fallback;
  }
  return Number(value);
}

function parseAppUrl(value: string | undefined, problems: string[]): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    return url.toString().replace(/\/+$/, '');
  } catch {
    problems.push(`APP_URL must be an http:// or https:// address (got "${value}")`);
    return null;
  }
}

const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function parseFiles(env: NodeJS.ProcessEnv, dataDir: string, problems: string[]): FilesConfig {
  const bucket = read(env, 'FILES_S3_BUCKET');
  const others = ['FILES_S3_ENDPOINT', 'FILES_S3_REGION', 'FILES_S3_ACCESS_KEY_ID', 'FILES_S3_SECRET_ACCESS_KEY', 'FILES_S3_PREFIX', 'FILES_S3_FORCE_PATH_STYLE'];
  if (!bucket) {
    // a half-done S3 set-up must not silently keep files on one instance's disk
    const set = others.filter((name) => read(env, name) !== undefined);
    if (set.length > 0) problems.push(`${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set but FILES_S3_BUCKET is not`);
    return { store: 'disk', dir: join(dataDir, 'files') };
  }
  if (!S3_BUCKET.test(bucket)) problems.push(`FILES_S3_BUCKET "${bucket}" is not a valid bucket name (3 to 63 lowercase letters, digits, dots and hyphens)`);
  const endpoint = read(env, 'FILES_S3_ENDPOINT') ?? null;
  if (endpoint !== null) {
    let protocol = '';
    try {
      protocol = new URL(endpoint).protocol;
    } catch {
      /* reported below */
    }
    if (protocol !== 'http:' && protocol !== 'https:') problems.push(`FILES_S3_ENDPOINT must be an http:// or https:// address (got "${endpoint}")`);
  }
  const accessKeyId = read(env, 'FILES_S3_ACCESS_KEY_ID');
  const secretAccessKey = read(env, 'FILES_S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) problems.push('FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY are set together, or neither');
  let prefix = read(env, 'FILES_S3_PREFIX') ?? '';
  if (prefix.startsWith('/') || prefix.split('/').some((part, i, all) => part === '..' || part === '.' || (part === '' && i < all.length - 1))) {
    problems.push(`FILES_S3_PREFIX must be a relative folder such as orepanel/ (got "${prefix}")`);
  }
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  const pathStyle = (read(env, 'FILES_S3_FORCE_PATH_STYLE') ?? 'false').toLowerCase();
  if (pathStyle !== 'true' && pathStyle !== 'false') problems.push(`FILES_S3_FORCE_PATH_STYLE must be true or false (got "${pathStyle}")`);
  return {
    store: 's3',
    bucket,
    endpoint,
    region: read(env, 'FILES_S3_REGION') ?? 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
    prefix,
    forcePathStyle: pathStyle === 'true',
  };
}

/**
 * The secret key from SECRET_KEY, or the one generated on first start into DATA_DIR/secret.key
 * (readable by the owner only).
 */
function resolveSecretKey(value: string | undefined, dataDir: string, problems: string[]): string {
  if (value) {
    if (value.length < 32) problems.push('SECRET_KEY must be at least 32 characters long');
    return value;
  }
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length < 32) problems.push(`${file} holds a key shorter than 32 characters; delete it to generate a new one`);
    return stored;
  }
  const generated = randomBytes(32).toString('base64url');
  writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return generated;
}

export interface LoadConfigOptions {
  /** the directory relative DATA_DIR values are resolved against (default: the process's cwd) */
  cwd?: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): Config {
  const problems: string[] = [];
  const port = parseInteger('PORT', read(env, 'PORT'), 3000, 0, 65535, problems);
  const host = read(env, 'HOST') ?? '0.0.0.0';
  const dataDir = resolve(options.cwd ?? process.cwd(), read(env, 'DATA_DIR') ?? './data');
  const database = parseDatabase(read(env, 'DATABASE_URL'), dataDir, problems);

  const redisUrl = read(env, 'REDIS_URL') ?? null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://');
  const redisPrefix = read(env, 'REDIS_PREFIX') ?? 'orepanel:';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(redisPrefix)) problems.push('REDIS_PREFIX must be 1 to 64 letters, digits or _ . : - (e.g. shop1:)');

  const trustProxy = parseTrustProxy(read(env, 'TRUST_PROXY'), problems);
  const appUrl = parseAppUrl(read(env, 'APP_URL'), problems);
  const sessionTtlDays = parseInteger('SESSION_TTL_DAYS', read(env, 'SESSION_TTL_DAYS'), 30, 1, 3650, problems);

  const logLevelText = (read(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  const logLevel = (LOG_LEVELS as readonly string[]).includes(logLevelText) ? (logLevelText as LogLevel) : 'info';
  if (logLevel !== logLevelText) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevelText}")`);

  const files = parseFiles(env, dataDir, problems);

  // not trimmed beyond what read() does: a passphrase is taken as typed
  const backupPassphrase = read(env, 'BACKUP_PASSPHRASE') ?? null;
  if (backupPassphrase !== null && backupPassphrase.length < 12) problems.push('BACKUP_PASSPHRASE must be at least 12 characters long');
  const metricsToken = read(env, 'METRICS_TOKEN') ?? null;
  if (metricsToken !== null && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters long');
  const metricsAllow = parseAddressList(read(env, 'METRICS_ALLOW'));
  if (metricsAllow?.some((item) => PROXY_NAMES.has(item) || !isAddressOrCidr(item)) || metricsAllow?.length === 0) {
    problems.push(`METRICS_ALLOW must be a comma list of IP addresses/CIDRs (got "${read(env, 'METRICS_ALLOW')}")`);
  }
  const shutdownDrainMs = parseInteger('SHUTDOWN_DRAIN_SECONDS', read(env, 'SHUTDOWN_DRAIN_SECONDS'), 5, 0, 20, problems) * 1000;

  if (problems.length > 0) throw new ConfigError(problems);

  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new ConfigError([`DATA_DIR ${dataDir} cannot be created: ${(error as Error).message}`]);
  }
  const secretKey = resolveSecretKey(read(env, 'SECRET_KEY'), dataDir, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port,
    host,
    dataDir,
    database,
    redisUrl,
    redisPrefix,
    trustProxy,
    appUrl,
    sessionTtlDays,
    logLevel,
    secretKey,
    files,
    backupPassphrase,
    metricsToken,
    metricsAllow,
    shutdownDrainMs,
  });
}
