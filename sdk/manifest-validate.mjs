// Validates plugin.json against sdk/manifest.schema.json. Plain JS so that both the rollup build
// (rollup.config.mjs) and the server host use the very same check.
import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// A path, not `new URL(..., import.meta.url)`: under jsdom (sdk/testing in DOM tests) the global URL is
// jsdom's, which resolves a file: base to an http: URL that readFileSync refuses.
const schema = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'manifest.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
const check = ajv.compile(schema);

/** The schema's one cross-field rule (its `if`/`then`), in words. */
const STARTUP_FOR_GUARDS =
  '/startup: a plugin that taps the beforeNavigate hook must install at start-up (its guard must hold from the first navigation): leave "startup" out or set it to true';

/**
 * The first mail template name a manifest declares twice, or null (uniqueItems compares whole items).
 * @param {import('./types').PluginManifest} manifest
 * @returns {string | null}
 */
function duplicateMailTemplate(manifest) {
  return firstTwice((manifest.mailTemplates ?? []).map(({ name }) => name));
}

/**
 * The first of `values` that comes twice, or null.
 * @param {string[]} values
 * @returns {string | null}
 */
function firstTwice(values) {
  const seen = new Set();
  for (const value of values) {
    if (seen.has(value)) return value;
    seen.add(value);
  }
  return null;
}

/**
 * Why `optional` cannot stand, or null: a plugin cannot use itself, and one it requires is not optional.
 * @param {import('./types').PluginManifest} manifest
 * @returns {string | null}
 */
function optionalProblem(manifest) {
  for (const id of manifest.optional ?? []) {
    if (id === manifest.id) return `/optional: a plugin cannot list itself`;
    if ((manifest.requires ?? []).includes(id)) return `/optional: "${id}" is in requires already (a required plugin is not optional)`;
  }
  return null;
}

/**
 * Why a route's `prerender` cannot stand, or null: the server renders the page without a session, a
 * layout shell or route parameters, so only a public bare page with a fixed path can be pre-rendered.
 * @param {import('./types').PluginManifest} manifest
 * @returns {string | null}
 */
function prerenderProblem(manifest) {
  for (const [i, route] of (manifest.routes ?? []).entries()) {
    if (!route.prerender) continue;
    const where = `/routes/${i}/prerender`;
    if (route.auth) return `${where}: a page that needs a login cannot be pre-rendered (the server renders it for everyone)`;
    if (route.layout !== 'bare') return `${where}: only a "bare" page can be pre-rendered (the shell needs the session)`;
    if (route.path === '*' || /[:*]/.test(route.path)) return `${where}: only a fixed path can be pre-rendered (no parameters, no "*")`;
  }
  return null;
}

/**
 * The value at a JSON pointer such as /privileges/0 (for error messages).
 * @param {unknown} json
 * @param {string} pointer
 * @returns {unknown}
 */
function valueAt(json, pointer) {
  let value = json;
  for (const part of pointer.split('/').slice(1)) value = value && typeof value === 'object' ? /** @type {Record<string, unknown>} */ (value)[part] : undefined;
  return value;
}

/**
 * @param {unknown} json the parsed plugin.json
 * @returns {{ ok: true, manifest: import('./types').PluginManifest } | { ok: false, errors: string[] }}
 * Defaults from the schema are filled in (on a copy).
 */
export function validateManifest(json) {
  const copy = structuredClone(json);
  if (check(copy)) {
    const twice = duplicateMailTemplate(copy);
    if (twice !== null) return { ok: false, errors: [`/mailTemplates: "${twice}" is declared twice`] };
    const preferenceTwice = firstTwice((copy.mailPreferences ?? []).map(({ key }) => key));
    if (preferenceTwice !== null) return { ok: false, errors: [`/mailPreferences: "${preferenceTwice}" is declared twice`] };
    const overlayTwice = firstTwice((copy.overlays ?? []).map(({ component }) => component));
    if (overlayTwice !== null) return { ok: false, errors: [`/overlays: component "${overlayTwice}" is declared twice`] };
    const optional = optionalProblem(copy) ?? prerenderProblem(copy);
    return optional === null ? { ok: true, manifest: copy } : { ok: false, errors: [optional] };
  }
  const errors = new Set();
  for (const e of check.errors ?? []) {
    // the `if` keyword's own "must match then schema" adds nothing to the error of the `then` part
    if (e.keyword === 'if') continue;
    const where = e.instancePath || '(root)';
    if (e.keyword === 'additionalProperties') errors.add(`${where}: unknown property "${e.params.additionalProperty}"`);
    else if (e.schemaPath.startsWith('#/then/')) errors.add(STARTUP_FOR_GUARDS);
    else if (e.keyword === 'enum' && /^\/privileges\/\d+$/.test(e.instancePath)) {
      errors.add(`${where}: unknown privilege ${JSON.stringify(valueAt(copy, e.instancePath))} (known: ${e.params.allowedValues.join(', ')})`);
    } else errors.add(`${where}: ${e.message}`);
  }
  return { ok: false, errors: [...errors] };
}
