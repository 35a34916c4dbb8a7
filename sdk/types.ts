// Types shared by the browser kernel, the server host and plugins. Pure types: no runtime code, so
// both halves (and third-party plugins) can import them freely.

export const LANGUAGES = ['en', 'ro', 'fr', 'de', 'es', 'md'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * A sidebar section: one of the kernel's (main, earn, store, community, support, admin, account, in
 * that order; spec §2 App shell) or one a plugin declares in its plugin.json `navSections`.
 */
export type NavSection = string;

/** A sidebar section a plugin adds (plugin.json `navSections`). */
export interface ManifestNavSection {
  /** what nav items name in their `section` */
  id: string;
  /** the section's title: an i18n key in the declaring plugin's namespace */
  label: string;
  /** where it goes among the kernel's sections (main 100, earn 200, store 300, community 400, support 500, admin 900, account 1000); default 600 */
  order?: number;
}

export interface ManifestRoute {
  path: string;
  component: string;
  /** spec §6: login-required flag */
  auth?: boolean;
  /** spec §2 rule 3: an auth page sends a logged-in user to the dashboard */
  authPage?: boolean;
  /** spec §2 rule 2: needs a stored role from 2 to 8 */
  admin?: boolean;
  permission?: string;
  /** application setting that must be true for the route to exist */
  flag?: string;
  layout?: 'app' | 'bare';
  title?: string;
  /**
   * issue 15: the server sends this public page already rendered inside index.html (per language);
   * `form` also makes its form work before any script runs (see {@link PrerenderForm}); `data` names
   * the public GET routes the page reads, answered on the server and handed to the page.
   */
  prerender?: boolean | { form?: PrerenderForm; data?: string[] };
}

/** A pre-rendered page's form that works without JavaScript (plugin.json `routes[].prerender.form`). */
export interface PrerenderForm {
  /** the POST route (JSON body) the form calls from JavaScript; the server relays the posted fields to it */
  api: string;
  /** where the browser goes once the API accepted the form */
  then: string;
  /** fields filled in again when the page comes back with an error (never a password) */
  keep?: string[];
}

export interface ManifestNavItem {
  route: string;
  label: string;
  icon?: string;
  section?: NavSection;
  order?: number;
  permission?: string;
  flag?: string;
  /** a count on the item, given by the plugin's server part (ctx.nav.badge); hidden at 0 */
  badge?: string;
}

export interface ManifestSlot {
  slot: string;
  component: string;
  order?: number;
  permission?: string;
  flag?: string;
}

/**
 * A panel the kernel floats over every page (developer tools, a help sheet): nothing of the plugin
 * loads until it is first opened, by its keyboard shortcut or its launcher button in the bottom-right
 * corner. The component (provided with `ctx.overlays.provide`) receives {@link OverlayProps}.
 */
export interface ManifestOverlay {
  component: string;
  /** i18n key in the plugin's namespace: the launcher's accessible name and tooltip */
  label: string;
  /** the launcher's icon (the sdk's icon names) */
  icon?: string;
  /** e.g. "Ctrl+I": toggles the overlay, except while the focus is in a text field */
  shortcut?: string;
  /** show a launcher button (default true); false: only the shortcut opens it */
  launcher?: boolean;
  order?: number;
  permission?: string;
  flag?: string;
}

export interface ManifestPermission {
  name: string;
  description?: string;
}

export type SettingType = 'string' | 'text' | 'number' | 'boolean' | 'url' | 'email' | 'select';

export interface ManifestSetting {
  key: string;
  type: SettingType;
  default: string | number | boolean | null;
  options?: string[];
  secret?: boolean;
  public?: boolean;
  label?: string;
  min?: number;
  max?: number;
  /**
   * Only holders of admin.root may change it through the API (`orepanel settings set` still can: it
   * is the host's shell). For a setting that runs code in other people's browsers or decides where
   * links, secrets or requests go: editing it would otherwise be a way to become admin.root.
   */
  rootOnly?: boolean;
  /**
   * A panel-wide setting shown on the admin settings screen in this group (`features` for a feature
   * flag, `security`, `server_defaults`…; another id opens a group named after the plugin) rather than
   * on the plugin's own configuration screen. Such a setting keeps its place on the settings screen,
   * and a public one its place in GET /api/system/settings, while its plugin is switched off.
   */
  group?: string;
}

/**
 * A mail template a plugin sends by name. Its default subject, HTML and text are the files
 * mail/<name>.subject.txt, mail/<name>.html and mail/<name>.txt in the plugin's folder.
 */
export interface ManifestMailTemplate {
  name: string;
  /** what sends it and when, for the administrators' template list */
  description: string;
  /** each ${name} it is sent with (besides app_name and app_url) → the sample value the preview shows */
  placeholders: Record<string, string>;
}

/**
 * A kind of mail the plugin sends that each account may decline (its "Mail" section on /account);
 * the plugin filters its recipients with ctx.mailPreferences.accepting.
 */
export interface ManifestMailPreference {
  /** unique in the plugin, e.g. announcements */
  key: string;
  /** the checkbox's text by language code (en required; the others fall back to it) */
  label: Readonly<Record<string, string>>;
  /** what an account that never chose gets */
  default: boolean;
}

/**
 * A power of the core that only a plugin shipped with the panel may hold. `panel-backup`:
 * ctx.panelBackup (archives of every table and file, and restoring one over the running panel).
 */
export type PluginPrivilege = 'panel-backup';

/** plugin.json, as validated by sdk/manifest.schema.json */
export interface PluginManifest {
  id: string;
  name: string;
  description?: string;
  version: string;
  /** semver range of the SDK; its major is the plugin API version */
  sdk: string;
  author?: string;
  core?: boolean;
  enabledByDefault?: boolean;
  requires?: string[];
  /** plugins whose services it uses when they are active (ctx.services.find); their absence is no failure */
  optional?: string[];
  /** powers of the core it needs (plugins shipped with the panel only): see PluginPrivilege */
  privileges?: PluginPrivilege[];
  client?: boolean;
  server?: boolean;
  routes?: ManifestRoute[];
  nav?: ManifestNavItem[];
  navSections?: ManifestNavSection[];
  slots?: ManifestSlot[];
  /** floating panels opened by a shortcut or a launcher button (ctx.overlays) */
  overlays?: ManifestOverlay[];
  permissions?: ManifestPermission[];
  settings?: ManifestSetting[];
  /** the database tables the plugin's migrations create: the only ones its database handle may read and write */
  tables?: string[];
  /** the mail templates it sends: stored when missing, protected from renaming and deletion */
  mailTemplates?: ManifestMailTemplate[];
  /** kinds of mail each account may decline on /account (ctx.mailPreferences) */
  mailPreferences?: ManifestMailPreference[];
  /**
   * Counters this plugin publishes (ctx.counters) that GET /api/user/session reports under `stats`
   * (spec §3; 0 until published), e.g. the servers plugin's `servers`.
   */
  stats?: string[];
  events?: string[];
  hooks?: string[];
  /**
   * Install the browser part at start-up, before the first page renders, instead of when one of its
   * routes or slot components is first rendered. Absent: true when the plugin declares `hooks` or
   * `events` (it hears them from the beginning), false otherwise — see `installsAtStartup`. A plugin
   * tapping `beforeNavigate` cannot set it to false (its guard must hold from the first navigation).
   */
  startup?: boolean;
  /**
   * Reads what the kernel records from start-up (every fetch, console output, uncaught errors; all
   * redacted and capped) through `ctx.diagnostics`. The kernel records only while an enabled plugin
   * declares this.
   */
  diagnostics?: boolean;
  locales?: Language[];
}

/** What GET /api/system/plugins serves for each enabled plugin: its manifest plus where its built files are. */
export interface ServedPluginManifest extends PluginManifest {
  /** URL of the System.register entry bundle, content-hashed; absent when client is false */
  entry?: string;
  /** Subresource Integrity of the entry bundle (sha384-…) */
  integrity?: string;
  /** language -> URL of that language's catalogue (content-hashed static JSON) */
  localeFiles?: Partial<Record<Language, string>>;
}

/** spec §3/§7: the answer of GET /api/user/session */
export interface SessionResponse {
  success: boolean;
  error_code: string | null;
  message?: string;
  user_info: Record<string, string | number | boolean | null> | null;
  billing: Record<string, string | number | boolean | null> | null;
  stats: Record<string, string | number | boolean | null> | null;
  permissions: string[];
}

/** A user's profile as every API answer shows it (the session's user_info, the admin user pages). */
/** One entry of a user's coin ledger as the API answers it (GET /api/user/wallet/transactions). */
export interface LedgerEntry {
  id: number;
  /** + credit, − debit */
  delta: number;
  balance_after: number;
  /** what moved the coins, dot-separated (e.g. gift.sent, admin.adjust) */
  kind: string;
  reference: string | null;
  reason: string | null;
  created_at: string;
}

export interface UserProfile {
  uuid: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  avatar: string | null;
  background: string | null;
  /** role number: 1 Default … 7 Admin, 8 Administrator */
  role: number;
  role_name: string;
  verified: boolean;
  two_fa_enabled: boolean;
}

/** The one error shape of every 4xx/5xx API answer. */
export interface ApiErrorBody {
  error: { code: string; message: string; field?: string };
}

/** Public application settings served by GET /api/system/settings (never secrets). */
export type PublicSettings = Record<string, string | number | boolean | null>;

/**
 * spec §3 "Debug info": the object GET /api/system/settings carries under `debug` beside the flat
 * values (read with `useSettingsDebugInfo()`).
 */
export interface SettingsDebugInfo {
  /** REDIS_URL is set: rate limits, presence and locks are shared between instances */
  useRedis: boolean;
  /** the app-wide per-address limit */
  rateLimit: { enabled: boolean; limit: number };
}

/** The resources an account holds and spends on its servers (each a users column): what the store sells, administrators set and servers use. */
export const ACCOUNT_RESOURCES = Object.freeze(['ram', 'disk', 'cpu', 'ports', 'databases', 'backups', 'server_slots'] as const);
export type AccountResource = (typeof ACCOUNT_RESOURCES)[number];

/** An account found by its support PIN, as staff are shown it (the core's support PIN lookup, ctx.accountStats.bySupportPin). */
export interface SupportPinAccount {
  uuid: string;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  role: number;
  role_name: string;
  banned: boolean;
  created_at: string;
}

export const ADMIN_ROLE_MIN = 2;
export const ADMIN_ROLE_MAX = 8;
export const ROOT_PERMISSION = 'admin.root';
export const SESSION_COOKIE = 'user_token';

/**
 * issue 15: a copy of the stored interface language (local storage `locale`, spec §1) in a cookie, so
 * the server pre-renders a public page in the language the kernel will mount it in.
 */
export const LANGUAGE_COOKIE = 'locale';
