// Services one server plugin offers to others: typed references (Backstage's ApiRef is the model)
// instead of imports of another plugin's code, and its tables stay its own. The provider declares
// each reference in its own plugins/<id>/contract.ts — the one file of a plugin another plugin may
// import, and only a plugin that lists the provider in its plugin.json `requires` (the import rule of
// `npm run lint` holds both). The provider names the service after itself (`<plugin id>.<name>`) and
// provides it in register(); a consumer gets it with ctx.services.get(ref) in start() or later (a
// route handler, a job run). The host runs every register() before any start() (Kibana's setup/start),
// so a service is never asked for before it is provided, and Kibana's other rule holds too: a plugin
// sees only the contracts of the plugins it declares.
//
// A plugin that can do without another lists it in `optional` instead: it may import that plugin's
// contract too, and asks ctx.services.find(ref), which answers null while the provider is missing or
// disabled (Kibana's rule: a missing optional plugin is an absent contract, not a crash) — ask at each
// use (a request, a job run), since an administrator may switch the provider on or off at any time.
//
// The core never uses a plugin's service (it never imports plugins/): where the core needs
// something from plugins, the sdk defines the core's own shape and each plugin hands it over through
// its definition or manifest (rate-limit policies in defineServerPlugin, settings in plugin.json).

export const SERVICE_REF_BRAND = '@orepanel/service-ref';

/** A typed name for a service; `T` is what the provider hands over. */
export interface ServiceRef<T> {
  readonly $$type: typeof SERVICE_REF_BRAND;
  /** `<providing plugin id>.<service name>`, e.g. auth.oauth-grants */
  readonly id: string;
  /** the providing plugin's id (the part of `id` before the first dot) */
  readonly provider: string;
  /** never set: carries `T` for the type checker */
  readonly type?: T;
}

const SERVICE_ID = /^([a-z][a-z0-9-]{1,39})\.[a-z][a-z0-9-]{0,63}$/;

export function createServiceRef<T>(id: string): ServiceRef<T> {
  const match = SERVICE_ID.exec(id);
  if (!match) throw new TypeError(`createServiceRef: "${id}" is not <plugin id>.<service name>`);
  return Object.freeze({ $$type: SERVICE_REF_BRAND, id, provider: match[1] });
}

/** ctx.services */
export interface PluginServices {
  /**
   * Offers `implementation` under `ref`, in register(). Only the plugin the ref names may provide it,
   * once, and not from start() (throws otherwise: a programming error, found when the panel starts).
   */
  provide<T>(ref: ServiceRef<T>, implementation: T): void;
  /**
   * The service under `ref`, from start() on (a route handler or a job may ask too: they run after
   * start). Throws when asked in register(), when its provider is not in this plugin's `requires`, or
   * when the provider did not provide it (it failed to load, or does not offer it).
   */
  get<T>(ref: ServiceRef<T>): T;
  /**
   * The service under `ref` when its provider is active now, else null: for a provider in this plugin's
   * `optional` (or `requires`). Same phases as get(); throws for a provider listed in neither.
   */
  find<T>(ref: ServiceRef<T>): T | null;
}
