// Every instance of a panel must run with the same SECRET_KEY: secret settings, 2FA secrets and the
// shared sign-on key are sealed with it. The database keeps a check value of the key — an HMAC of a
// fixed label, from which the key cannot be found — written by the first instance that starts; an
// instance whose key gives another value refuses to start instead of coming up with every secret
// "not set" (and sealing new ones that the other instances cannot open).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/connect';

const CHECK_LABEL = 'orepanel/secret-key-check/v1';
export const SECRET_CHECK_NAME = 'secret_key_check';

interface PanelMetaTable {
  panel_meta: { name: string; value: string; updated_at: string };
}

export function secretKeyCheckValue(secretKey: string): string {
  return createHmac('sha256', secretKey).update(CHECK_LABEL).digest('base64url');
}

/** Thrown when this instance's SECRET_KEY is not the database's: the message says what to do. */
export class SecretKeyMismatchError extends Error {
  constructor() {
    super(
      [
        'SECRET_KEY does not match the key this database was set up with, so this instance could not read its secrets and would write ones the other instances cannot read.',
        'Every instance of the panel needs the same SECRET_KEY (and the same DATABASE_URL): copy SECRET_KEY from an instance that runs — or the first instance’s DATA_DIR/secret.key — into this one’s environment, then start it again.',
        `If the original key is lost, the stored secrets are lost with it: delete the row '${SECRET_CHECK_NAME}' of the table panel_meta to start with this key, then enter the secret settings again.`,
      ].join('\n'),
    );
    this.name = 'SecretKeyMismatchError';
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The stored check value, or null when none is stored yet. */
export async function storedSecretCheck(db: Kysely<unknown>): Promise<string | null> {
  const typed = db as Kysely<PanelMetaTable>;
  const row = await typed.selectFrom('panel_meta').select('value').where('name', '=', SECRET_CHECK_NAME).executeTakeFirst();
  return row?.value ?? null;
}

/** True when `secretKey` is the database's key (or the database has none yet). */
export async function secretKeyMatches(db: Kysely<unknown>, secretKey: string): Promise<boolean> {
  const stored = await storedSecretCheck(db);
  return stored === null || same(stored, secretKeyCheckValue(secretKey));
}

/**
 * Stores the check value of `secretKey` when the database has none, and throws
 * SecretKeyMismatchError when it holds another key's. Two instances starting at once on a new
 * database: one insert wins, the other compares against it.
 */
export async function verifySecretKey(db: Kysely<unknown>, secretKey: string): Promise<void> {
  const typed = db as Kysely<PanelMetaTable>;
  const mine = secretKeyCheckValue(secretKey);
  let stored = await storedSecretCheck(db);
  if (stored === null) {
    try {
      await typed.insertInto('panel_meta').values({ name: SECRET_CHECK_NAME, value: mine, updated_at: new Date().toISOString() }).execute();
      return;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      stored = await storedSecretCheck(db);
    }
  }
  if (stored === null || !same(stored, mine)) throw new SecretKeyMismatchError();
}
