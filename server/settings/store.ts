// Application settings: key → text in the settings table, typed by the declaration of each key
// (core catalogue or a plugin's manifest). Reads come from an in-process copy refreshed every few
// seconds, so several instances converge without a restart; writes go to the database at once.
import type { Kysely } from 'kysely';
import type { CoreDatabase, SettingEntry, SettingValue } from '../../sdk/server';
import { httpError } from '../../sdk/server';
import type { ManifestSetting } from '../../sdk/types';
import { isUniqueViolation } from '../db/connect';
import { isPublicSetting } from './catalogue';
import { SecretBox } from './secret-box';

const REFRESH_MS = 5_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface StoredSetting {
  value: string;
  updatedAt: string | null;
}

export function encodeSetting(value: SettingValue): string {
  if (value === null) return '';
  return typeof value === 'string' ? value : String(value);
}

export function decodeSetting(def: ManifestSetting, text: string | undefined): SettingValue {
  if (text === undefined) return def.default;
  switch (def.type) {
    case 'boolean':
      return text === 'true' || text === '1';
    case 'number': {
      const n = Number(text);
      return text.trim() !== '' && Number.isFinite(n) ? n : def.default;
    }
    case 'select':
      return def.options && !def.options.includes(text) ? def.default : text;
    default:
      return text;
  }
}

/** Why `value` is not acceptable for `def`, or null when it is. */
export function settingValueProblem(def: ManifestSetting, value: SettingValue): string | null {
  switch (def.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (def.min !== undefined && value < def.min) return `must be at least ${def.min}`;
      if (def.max !== undefined && value > def.max) return `must be at most ${def.max}`;
      return null;
    case 'select':
      return typeof value === 'string' && (def.options ?? []).includes(value) ? null : `must be one of: ${(def.options ?? []).join(', ')}`;
    case 'url':
      if (typeof value !== 'string') return 'must be text';
      if (value === '') return null;
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must be an http or https address';
      } catch {
        return 'must be an http or https address';
      }
    case 'email':
      if (typeof value !== 'string') return 'must be text';
      return value === '' || EMAIL.test(value) ? null : 'must be an email address';
    default:
      if (typeof value !== 'string') return 'must be text';
      if (def.max !== undefined && value.length > def.max) return `must be at most ${def.max} characters`;
      return null;
  }
}

export class SettingsStore {
  private readonly definitions = new Map<string, { def: ManifestSetting; owner: string }>();
  private cache: Map<string, StoredSetting> | null = null;
  private loadedAt = 0;
  private loading: Promise<Map<string, StoredSetting>> | null = null;
  /** bumps on every change the process sees, so derived values (the public JSON) can be cached */
  private revision = 0;

  private readonly box: SecretBox | null;
  private changed: () => Promise<void> = async () => undefined;

  /** `secretKey` (SECRET_KEY) encrypts the values of secret settings; without it they are stored as given. */
  constructor(
    private readonly db: Kysely<CoreDatabase>,
    secretKey: string | null = null,
  ) {
    this.box = secretKey ? new SecretBox(secretKey) : null;
  }

  /** A stored text as the value of `def`: secrets are decrypted (one sealed with another key reads as unset). */
  private decode(def: ManifestSetting, text: string | undefined): SettingValue {
    if (text === undefined || !def.secret || !SecretBox.isSealed(text)) return decodeSetting(def, text);
    const plain = this.box?.open(text) ?? null;
    return decodeSetting(def, plain ?? '');
  }

  /** Declares settings for `owner` ('core' or a plugin id). A key owned by someone else is refused. */
  declare(owner: string, settings: readonly ManifestSetting[]): void {
    for (const def of settings) {
      const existing = this.definitions.get(def.key);
      if (existing && existing.owner !== owner) {
        throw new Error(`setting "${def.key}" is already declared by ${existing.owner === 'core' ? 'the core' : `plugin "${existing.owner}"`}`);
      }
    }
    for (const def of settings) this.definitions.set(def.key, { def, owner });
  }

  /** Forgets `owner`'s declarations (a removed plugin): its stored values stay unless its data is dropped. */
  forget(owner: string): void {
    for (const [key, entry] of this.definitions) if (entry.owner === owner) this.definitions.delete(key);
  }

  /** Would declare() accept these settings for `owner`? The reason when not. */
  declarationProblem(owner: string, settings: readonly ManifestSetting[]): string | null {
    for (const def of settings) {
      const existing = this.definitions.get(def.key);
      if (existing && existing.owner !== owner) {
        return `its setting "${def.key}" is already declared by ${existing.owner === 'core' ? 'the core' : `plugin "${existing.owner}"`}`;
      }
    }
    return null;
  }

  definition(key: string): ManifestSetting | undefined {
    return this.definitions.get(key)?.def;
  }

  ownerOf(key: string): string | undefined {
    return this.definitions.get(key)?.owner;
  }

  /** The settings `owner` declared, in declaration order. */
  declaredBy(owner: string): ManifestSetting[] {
    return [...this.definitions.values()].filter((d) => d.owner === owner).map((d) => d.def);
  }

  /** Every declared setting with its owner ('core' or a plugin id), in declaration order. */
  declarations(): { def: ManifestSetting; owner: string }[] {
    return [...this.definitions.values()];
  }

  /** Inserts the default of every declared key that has no row yet (idempotent, safe to race). */
  async ensureDefaults(): Promise<void> {
    const existing = new Set((await this.db.selectFrom('settings').select('key').execute()).map((r) => r.key));
    const missing = [...this.definitions.values()].filter(({ def }) => !existing.has(def.key));
    for (const { def } of missing) {
      try {
        await this.db
          .insertInto('settings')
          .values({ key: def.key, value: encodeSetting(def.default), updated_at: null })
          .execute();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error; // another instance inserted it first
      }
    }
    this.invalidate();
  }

  invalidate(): void {
    this.cache = null;
    this.revision++;
  }

  get currentRevision(): number {
    return this.revision;
  }

  /** The revision once the in-process copy is current (re-read every few seconds): for cached derived values. */
  async freshRevision(): Promise<number> {
    await this.rows();
    return this.revision;
  }

  private async rows(): Promise<Map<string, StoredSetting>> {
    if (this.cache && Date.now() - this.loadedAt < REFRESH_MS) return this.cache;
    if (!this.loading) {
      this.loading = (async () => {
        try {
          const rows = await this.db.selectFrom('settings').select(['key', 'value', 'updated_at']).execute();
          const map = new Map(rows.map((r) => [r.key, { value: r.value, updatedAt: r.updated_at }]));
          if (!this.cache || !sameRows(this.cache, map)) this.revision++;
          this.cache = map;
          this.loadedAt = Date.now();
          return map;
        } finally {
          this.loading = null;
        }
      })();
    }
    return this.loading;
  }

  private requireDefinition(key: string): ManifestSetting {
    const def = this.definitions.get(key)?.def;
    if (!def) throw new Error(`setting "${key}" is not declared by the core or any loaded plugin`);
    return def;
  }

  async getEntry(key: string): Promise<SettingEntry> {
    const def = this.requireDefinition(key);
    const row = (await this.rows()).get(key);
    return { value: this.decode(def, row?.value), updatedAt: row?.updatedAt ?? null };
  }

  /**
   * The value from the in-process copy without waiting (hot paths): refreshed in the background when
   * stale; undefined while there is no copy (then call get()).
   */
  peek(key: string): SettingValue | undefined {
    const def = this.requireDefinition(key);
    if (!this.cache || Date.now() - this.loadedAt >= REFRESH_MS) void this.rows().catch(() => undefined);
    return this.cache ? this.decode(def, this.cache.get(key)?.value) : undefined;
  }

  async get(key: string): Promise<SettingValue> {
    return (await this.getEntry(key)).value;
  }

  async getMany(keys: readonly string[]): Promise<Record<string, SettingValue>> {
    const rows = await this.rows();
    const out: Record<string, SettingValue> = {};
    for (const key of keys) out[key] = this.decode(this.requireDefinition(key), rows.get(key)?.value);
    return out;
  }

  /** Typed as number; falls back to the declared default when the stored value is not a number. */
  async getNumber(key: string): Promise<number> {
    const value = await this.get(key);
    return typeof value === 'number' ? value : Number(this.requireDefinition(key).default ?? 0);
  }

  async set(key: string, value: SettingValue): Promise<void> {
    const def = this.requireDefinition(key);
    const problem = settingValueProblem(def, value);
    if (problem) throw httpError(400, 'VALIDATION_ERROR', `${key} ${problem}.`, key);
    const plain = encodeSetting(value);
    // an empty secret stays empty: "not set" must be visible without the key
    const text = def.secret && this.box && plain !== '' ? this.box.seal(plain) : plain;
    const now = new Date().toISOString();
    const updated = await this.db.updateTable('settings').set({ value: text, updated_at: now }).where('key', '=', key).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      try {
        await this.db.insertInto('settings').values({ key, value: text, updated_at: now }).execute();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        await this.db.updateTable('settings').set({ value: text, updated_at: now }).where('key', '=', key).execute();
      }
    }
    this.invalidate();
    await this.changed();
  }

  /** How a change made here reaches the other instances (set once by the app; see cluster/cache-sync.ts). */
  announceWith(announce: () => Promise<void>): void {
    this.changed = announce;
  }

  /** The public subset (spec §3 non-secret keys and plugins' `public: true` settings), typed. */
  async publicValues(isVisible: (owner: string, def: ManifestSetting) => boolean): Promise<Record<string, SettingValue>> {
    const rows = await this.rows();
    const out: Record<string, SettingValue> = {};
    for (const { def, owner } of this.definitions.values()) {
      if (!isPublicSetting(def) || !isVisible(owner, def)) continue;
      out[def.key] = this.decode(def, rows.get(def.key)?.value);
    }
    return out;
  }
}

function sameRows(a: Map<string, StoredSetting>, b: Map<string, StoredSetting>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, row] of a) {
    const other = b.get(key);
    if (!other || other.value !== row.value || other.updatedAt !== row.updatedAt) return false;
  }
  return true;
}
