// The HMAC key /auth/sso tokens are signed with: 32 random bytes made on first use, kept in the
// auth_signing_keys table sealed with ctx.secrets (SECRET_KEY), so every instance of the panel signs
// and checks with the same key and a database dump alone does not reveal it. Creation is an INSERT
// on the primary key: when two instances race, the loser reads the winner's key. A stored key this
// instance cannot open is never replaced here: that would sign every other instance's tokens out
// (the core refuses to start with another SECRET_KEY; an administrator who changed the key on
// purpose deletes the row).
import { randomBytes } from 'node:crypto';
import type { PluginSecrets } from '@orepanel/sdk/server';
import type { AuthDb } from './tables';

const KEY_BYTES = 32;

export class SigningKey {
  private cached: Buffer | null = null;

  constructor(
    private readonly db: AuthDb,
    private readonly secrets: PluginSecrets,
    private readonly purpose: string,
  ) {}

  async get(): Promise<Buffer> {
    if (this.cached) return this.cached;
    const stored = await this.read();
    if (stored?.key) return (this.cached = stored.key);
    if (stored === undefined) {
      const fresh = randomBytes(KEY_BYTES);
      try {
        await this.db
          .insertInto('auth_signing_keys')
          .values({ purpose: this.purpose, sealed_key: this.secrets.seal(fresh.toString('base64url')), created_at: new Date().toISOString() })
          .execute();
        return (this.cached = fresh);
      } catch {
        // another instance created it first: use theirs
      }
    }
    const settled = await this.read();
    if (settled?.key) return (this.cached = settled.key);
    if (settled) {
      throw new Error(
        `signing key "${this.purpose}" was sealed with another SECRET_KEY: give this instance the same SECRET_KEY as the others, or delete the row of auth_signing_keys to make a new key`,
      );
    }
    throw new Error(`signing key "${this.purpose}" could not be created`);
  }

  /** Drops the copy in memory (a restored backup may hold another key). */
  forget(): void {
    this.cached = null;
  }

  /** undefined: no row; null key: a row this SECRET_KEY cannot open. */
  private async read(): Promise<{ key: Buffer; sealed: string } | { key: null; sealed: string } | undefined> {
    const row = await this.db.selectFrom('auth_signing_keys').select('sealed_key').where('purpose', '=', this.purpose).executeTakeFirst();
    if (!row) return undefined;
    const plain = this.secrets.open(row.sealed_key);
    const key = plain === null ? null : Buffer.from(plain, 'base64url');
    return key && key.length === KEY_BYTES ? { key, sealed: row.sealed_key } : { key: null, sealed: row.sealed_key };
  }
}
