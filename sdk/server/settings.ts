// What a plugin reads of the panel's configuration: settings (its own and the core's), the host's
// read-only configuration, and sealing of secrets with the panel's key.

export type SettingValue = string | number | boolean | null;

export interface SettingEntry {
  value: SettingValue;
  /** when an administrator last changed it; null while it holds its default */
  updatedAt: string | null;
}

/** Reads the core settings and the plugin's own declared settings; writes only the latter. */
export interface PluginSettings {
  get(key: string): Promise<SettingValue>;
  getMany(keys: readonly string[]): Promise<Record<string, SettingValue>>;
  getEntry(key: string): Promise<SettingEntry>;
  set(key: string, value: SettingValue): Promise<void>;
}

/**
 * ctx.secrets: encrypts small secrets at rest with the panel's SECRET_KEY (AES-256-GCM), e.g. a
 * user's TOTP secret or a provider token, so a database dump alone does not reveal them.
 */
export interface PluginSecrets {
  seal(plain: string): string;
  /** The plain text, or null when it was sealed with another SECRET_KEY (or altered). */
  open(sealed: string): string | null;
}

/** The read-only part of the host's configuration a plugin may see. */
export interface PluginConfig {
  readonly appUrl: string | null;
  readonly dataDir: string;
  readonly sessionTtlDays: number;
}
