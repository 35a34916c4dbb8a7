// Password hashing with scrypt (memory-hard, in node:crypto). A hash carries its own parameters —
// `$scrypt$ln=14,r=8,p=1$<salt>$<key>` — so the cost can be raised later and old hashes still
// verify (and get rehashed at the next login, see needsRehash).
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** log2(N)=14, r=8: 16 MiB and about 70 ms per hash on the 2-core reference machine. */
export const CURRENT_PARAMS = { ln: 14, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

interface ScryptParams {
  ln: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.ln;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, CURRENT_PARAMS);
  const { ln, r, p } = CURRENT_PARAMS;
  return `$scrypt$ln=${ln},r=${r},p=${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parseHash(hash: string): ParsedHash | null {
  const m = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(hash);
  if (!m) return null;
  const params = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  // refuse absurd parameters from a tampered row rather than allocating gigabytes
  if (params.ln < 10 || params.ln > 20 || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 16) return null;
  return { params, salt: Buffer.from(m[4], 'base64url'), key: Buffer.from(m[5], 'base64url') };
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parseHash(hash);
  if (!parsed || parsed.key.length !== KEY_LENGTH) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return timingSafeEqual(key, parsed.key);
}

/** True when the hash was made with weaker parameters than today's (rehash it after a good login). */
export function needsRehash(hash: string): boolean {
  const parsed = parseHash(hash);
  if (!parsed) return true;
  const { ln, r, p } = parsed.params;
  return ln < CURRENT_PARAMS.ln || r < CURRENT_PARAMS.r || p < CURRENT_PARAMS.p;
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the time of one verification when the account does not exist, so the login answer takes as
 * long for an unknown account as for a wrong password.
 */
export async function burnVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummyHash);
}
