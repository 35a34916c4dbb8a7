// The SystemJS loader plugins run in (systemjs' minimal s.js build, bundled into the kernel). Two hooks
// on the loader's prototype, so every registry created from it is wired the same way:
//   resolve      a bare specifier listed in sdk/shared-modules.json -> `orepanel-shared:<specifier>`
//   instantiate  `orepanel-shared:<specifier>` -> a System.register declaration whose execute() awaits
//                the kernel's own namespace (eager: already in the kernel bundle; lazy: a kernel chunk
//                imported on first use)
// Everything else (a plugin's entry and its chunks) loads as usual: a <script> tag, with the SRI
// integrity registered through the loader's import map.
import 'systemjs/dist/s.js';
import { isSharedModule, loadSharedModule, type ModuleNamespace } from './shared-modules';

type ExportFunction = (name: string | Record<string, unknown>, value?: unknown) => unknown;
type Declaration = { setters?: ((ns: ModuleNamespace) => void)[]; execute?: () => void | Promise<void> };
export type Registration = [string[], (exportFn: ExportFunction, context?: unknown) => Declaration, unknown[]?];

export interface ImportMap {
  imports?: Record<string, string>;
  scopes?: Record<string, Record<string, string>>;
  integrity?: Record<string, string>;
  depcache?: Record<string, string[]>;
}

/** The part of a SystemJS loader the kernel uses. */
export interface SystemLoader {
  import(id: string, parentUrl?: string): Promise<ModuleNamespace>;
  resolve(id: string, parentUrl?: string): string;
  instantiate(url: string, parentUrl?: string, meta?: unknown): Registration | Promise<Registration | undefined> | undefined;
  addImportMap(map: ImportMap, baseUrl?: string): void;
  getImportMap(): Required<ImportMap>;
  readonly constructor: new () => SystemLoader;
}

declare global {
  // set by systemjs/dist/s.js
  var System: SystemLoader;
}

/** Prefix of the registry ids of shared modules (never a fetchable URL). */
export const SHARED_MODULE_PREFIX = 'orepanel-shared:';

const wired = Symbol.for('orepanel.systemjs.sharedModules');

function sharedRegistration(specifier: string): Registration {
  return [
    [],
    (exportFn) => ({
      async execute() {
        // spreads every export of the kernel's namespace onto the registry's module record
        exportFn({ ...(await loadSharedModule(specifier)) });
      },
    }),
  ];
}

/** Adds the shared-module hooks to SystemJS's prototype (once). */
export function wireSharedModules(loader: SystemLoader = globalThis.System): SystemLoader {
  const proto = Object.getPrototypeOf(loader) as SystemLoader & { [wired]?: boolean };
  if (proto[wired]) return loader;
  const resolve = proto.resolve;
  const instantiate = proto.instantiate;
  proto.resolve = function resolveShared(this: SystemLoader, id, parentUrl) {
    return isSharedModule(id) ? SHARED_MODULE_PREFIX + id : resolve.call(this, id, parentUrl);
  };
  proto.instantiate = function instantiateShared(this: SystemLoader, url, parentUrl, meta) {
    if (url.startsWith(SHARED_MODULE_PREFIX)) return sharedRegistration(url.slice(SHARED_MODULE_PREFIX.length));
    return instantiate.call(this, url, parentUrl, meta);
  };
  Object.defineProperty(proto, wired, { value: true });
  return loader;
}

/**
 * A FRESH SystemJS registry (nothing loaded yet) wired with the kernel's shared modules. The plugin
 * loader installs every plugin through one; tests create their own.
 */
export function createPluginRegistry(): SystemLoader {
  const global = wireSharedModules();
  return new global.constructor();
}

/** Registers the SRI integrity of a file the registry will load (checked by the browser on <script>). */
export function registerIntegrity(loader: SystemLoader, url: string, integrity: string): void {
  loader.addImportMap({ integrity: { [url]: integrity } });
}

/**
 * SystemJS's minimal build keeps a failed load in its registry for good, so importing the same URL
 * again re-throws the old error without fetching. Before a retry (a page chunk that failed on a flaky
 * network), the failed records are dropped so the file is fetched again. The registry is the loader's
 * one own symbol-keyed property (s.js has no `System.delete`).
 */
export function forgetFailedLoads(loader: SystemLoader): number {
  let forgotten = 0;
  for (const key of Object.getOwnPropertySymbols(loader)) {
    const records = (loader as unknown as Record<symbol, unknown>)[key];
    if (typeof records !== 'object' || records === null) continue;
    for (const [id, record] of Object.entries(records as Record<string, { er?: unknown } | undefined>)) {
      if (record && record.er !== undefined) {
        delete (records as Record<string, unknown>)[id];
        forgotten++;
      }
    }
  }
  return forgotten;
}
