// Mail preferences plugins declare (plugin.json "mailPreferences"): per account, whether it accepts a
// kind of mail (announcements, newsletters…). Only an account's own choices are stored, one row per
// `<plugin id>.<key>`; an account that never chose gets the declaration's default, so a new
// preference needs no back-fill and a changed default reaches everyone who never chose.
import type { Kysely } from 'kysely';
import type { CoreDatabase, ManifestMailPreference, MigrationKit, PluginManifest } from '../../sdk/server';

export interface MailPreferencesTable {
  user_id: number;
  /** `<plugin id>.<key>` */
  name: string;
  /** 1 accepts, 0 declines (an integer: the same on the three dialects) */
  accepts: number;
}

type PreferencesDb = Kysely<CoreDatabase & { mail_preferences: MailPreferencesTable }>;

export async function createMailPreferencesTable(kit: MigrationKit): Promise<void> {
  await kit
    .createTable('mail_preferences')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(150)', (c) => c.notNull())
    .addColumn('accepts', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('mail_preferences_pk', ['user_id', 'name'])
    .execute();
}

/** One declared preference and the account's choice, as GET /api/user/mail-preferences lists it. */
export interface MailPreferenceState {
  plugin: string;
  key: string;
  /** language code → text; en is always there */
  label: Readonly<Record<string, string>>;
  accepts: boolean;
}

interface Declared extends ManifestMailPreference {
  plugin: string;
}

/** Above this, a recipient filter is asked in slices (SQL engines bound the parameters of one IN list). */
const IN_LIST_SLICE = 500;

export class MailPreferences {
  private readonly db: PreferencesDb;

  /** `manifests`: the active plugins' manifests now (a disabled plugin's preferences are not listed) */
  constructor(
    db: Kysely<CoreDatabase>,
    private readonly manifests: () => readonly PluginManifest[],
  ) {
    this.db = db.withTables<{ mail_preferences: MailPreferencesTable }>();
  }

  private declared(): Declared[] {
    return this.manifests().flatMap((m) => (m.mailPreferences ?? []).map((p) => ({ ...p, plugin: m.id })));
  }

  /** The active plugins' preferences with this account's choices. */
  async list(userId: number): Promise<MailPreferenceState[]> {
    const declared = this.declared();
    if (declared.length === 0) return [];
    const rows = await this.db.selectFrom('mail_preferences').select(['name', 'accepts']).where('user_id', '=', userId).execute();
    const chosen = new Map(rows.map((r) => [r.name, Number(r.accepts) === 1]));
    return declared.map((p) => ({ plugin: p.plugin, key: p.key, label: p.label, accepts: chosen.get(`${p.plugin}.${p.key}`) ?? p.default }));
  }

  /**
   * Stores the account's choices. Returns the first `<plugin>.<key>` that no active plugin declares
   * (then nothing is stored), else null.
   */
  async set(userId: number, choices: readonly { plugin: string; key: string; accepts: boolean }[]): Promise<string | null> {
    const known = new Set(this.declared().map((p) => `${p.plugin}.${p.key}`));
    const unknown = choices.find((c) => !known.has(`${c.plugin}.${c.key}`));
    if (unknown) return `${unknown.plugin}.${unknown.key}`;
    await this.db.transaction().execute(async (trx) => {
      for (const c of choices) {
        const name = `${c.plugin}.${c.key}`;
        // delete + insert: the same on the three dialects, and one account's rows are only its own requests'
        await trx.deleteFrom('mail_preferences').where('user_id', '=', userId).where('name', '=', name).execute();
        await trx
          .insertInto('mail_preferences')
          .values({ user_id: userId, name, accepts: c.accepts ? 1 : 0 })
          .execute();
      }
    });
    return null;
  }

  /**
   * Of `userIds`, those who accept the plugin's preference `key` (in the given order). Throws when the
   * plugin does not declare it: a typo must not mail everyone or no one silently.
   */
  async accepting(pluginId: string, key: string, userIds: readonly number[]): Promise<number[]> {
    const manifest = this.manifests().find((m) => m.id === pluginId);
    const declaration = manifest?.mailPreferences?.find((p) => p.key === key);
    if (!declaration) throw new Error(`mail preferences: plugin "${pluginId}" does not declare "${key}" (or is not active)`);
    const name = `${pluginId}.${key}`;
    const chosen = new Map<number, boolean>();
    for (let i = 0; i < userIds.length; i += IN_LIST_SLICE) {
      const slice = userIds.slice(i, i + IN_LIST_SLICE);
      const rows = await this.db.selectFrom('mail_preferences').select(['user_id', 'accepts']).where('name', '=', name).where('user_id', 'in', slice).execute();
      for (const r of rows) chosen.set(Number(r.user_id), Number(r.accepts) === 1);
    }
    return userIds.filter((id) => chosen.get(id) ?? declaration.default);
  }
}
