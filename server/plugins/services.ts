// ctx.services: the registry behind the sdk's typed service references (sdk/services.ts). One per
// panel; each plugin gets a view that may provide only services named after itself and get only
// those of the plugins it requires (find: also those it lists as optional) — and each in its own
// phase: provide while the plugin registers, get once the host has moved it to start (startPhase).
// Every plugin a consumer requires has registered before the consumer starts, so a service asked for
// is always one already provided; an optional provider may be missing or switched off, which find()
// answers with null.
import { SERVICE_REF_BRAND, type PluginServices, type ServiceRef } from '../../sdk/services';

function checkRef(ref: ServiceRef<unknown>): void {
  if (!ref || ref.$$type !== SERVICE_REF_BRAND) throw new TypeError('ctx.services: expected a reference made by createServiceRef()');
}

export class ServiceRegistry {
  private readonly provided = new Map<string, unknown>();
  /** plugins past their register(): they may get services, and no longer provide them */
  private readonly started = new Set<string>();

  /** @param isActive whether a plugin is enabled now (find() hands nothing over from one that is not) */
  constructor(private readonly isActive: (pluginId: string) => boolean = () => true) {}

  /** The view of the registry plugin `pluginId` (with its manifest's `requires` and `optional`) gets. */
  forPlugin(pluginId: string, requires: readonly string[], optional: readonly string[] = []): PluginServices {
    const askable = (ref: ServiceRef<unknown>, allowed: readonly string[], listed: string) => {
      checkRef(ref);
      if (ref.provider !== pluginId && !allowed.includes(ref.provider)) {
        throw new Error(`plugin "${pluginId}" uses service "${ref.id}" but does not list plugin "${ref.provider}" in its plugin.json ${listed}`);
      }
      if (!this.started.has(pluginId)) {
        throw new Error(
          `plugin "${pluginId}" asks for service "${ref.id}" in its register(): services are handed over from start() on, once every plugin has registered (ask in start(), or in a route handler or job)`,
        );
      }
    };
    return {
      provide: (ref, implementation) => {
        checkRef(ref);
        if (ref.provider !== pluginId) throw new Error(`plugin "${pluginId}" may not provide service "${ref.id}" (only plugin "${ref.provider}" may)`);
        if (this.started.has(pluginId)) {
          throw new Error(
            `plugin "${pluginId}" provides service "${ref.id}" after its register(): provide it in register(), so that the plugins needing it find it in their start()`,
          );
        }
        if (this.provided.has(ref.id)) throw new Error(`service "${ref.id}" is already provided`);
        this.provided.set(ref.id, implementation);
      },
      get: <T>(ref: ServiceRef<T>): T => {
        askable(ref, requires, '"requires"');
        if (!this.provided.has(ref.id)) throw new Error(`service "${ref.id}" is not provided (plugin "${ref.provider}" did not load or does not offer it)`);
        return this.provided.get(ref.id) as T;
      },
      find: <T>(ref: ServiceRef<T>): T | null => {
        askable(ref, [...requires, ...optional], '"requires" or "optional"');
        if (ref.provider !== pluginId && !this.isActive(ref.provider)) return null;
        return this.provided.has(ref.id) ? (this.provided.get(ref.id) as T) : null;
      },
    };
  }

  /**
   * Takes back what plugin `pluginId` provides and returns it to its register phase: it was removed,
   * or its update registers again (and provides anew).
   */
  withdraw(pluginId: string, serviceIds: readonly string[]): Map<string, unknown> {
    const taken = new Map<string, unknown>();
    for (const id of serviceIds) {
      if (this.provided.has(id)) taken.set(id, this.provided.get(id));
      this.provided.delete(id);
    }
    this.started.delete(pluginId);
    return taken;
  }

  /** Puts back what withdraw() took (an update that failed: the running version provides them again). */
  restore(pluginId: string, taken: ReadonlyMap<string, unknown>): void {
    for (const [id, implementation] of taken) this.provided.set(id, implementation);
    this.started.add(pluginId);
  }

  /** Ends plugin `pluginId`'s register phase: from now on it may get services and no longer provide them. */
  startPhase(pluginId: string): void {
    this.started.add(pluginId);
  }
}
