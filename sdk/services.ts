// Services one server plugin offers to others: typed references (Backstage's ApiRef is the model)
// instead of imports across plugin folders — a plugin may import only the sdk, and its tables stay
// its own. The provider names the service after itself (`<plugin id>.<name>`) and provides it in
// register(); a consumer lists the provider in its plugin.json `requires` (so it loads, registers and
// is switched off after it) and gets the service with ctx.services.get(ref). Kibana's rule holds:
// a plugin sees only the contracts of the plugins it declares.

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
   * Offers `implementation` under `ref`. Only the plugin the ref names may provide it, once (throws
   * otherwise: a programming error, found when the panel starts).
   */
  provide<T>(ref: ServiceRef<T>, implementation: T): void;
  /**
   * The service under `ref`. Throws when its provider is not in this plugin's `requires`, or has not
   * provided it (it failed to load, or provides it later than this plugin's register() asked).
   */
  get<T>(ref: ServiceRef<T>): T;
}
