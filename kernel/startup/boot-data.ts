// The start-up data the server writes into index.html (server/http/index-document.ts):
//   <script type="application/json" id="op-boot">{"plugins":[…],"settings":{…},"custom":{…}}</script>
// the answers of GET /api/system/plugins and GET /api/system/settings at the time the page was sent,
// and the revisions of custom.css and custom.js (custom-assets.ts).
// When the block is there the kernel uses it instead of those two requests; when it is missing or
// unreadable (a page served by something else than the panel's server) the kernel fetches them as
// before. Either way the start-up keeps the spec §4 order: the data is only used in its own step.
import type { PublicSettings, ServedPluginManifest } from '../../sdk/types';
import type { CustomAssetRevisions } from './custom-assets';

export const BOOT_ELEMENT_ID = 'op-boot';

export interface BootData {
  plugins: ServedPluginManifest[];
  settings: PublicSettings;
  /** the revisions of custom.css and custom.js (null: empty); absent from an older server's page */
  custom: CustomAssetRevisions | null;
}

const isRevision = (value: unknown): value is string | null => value === null || (typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value));

/** The custom assets' revisions, when the block has readable ones. */
function customRevisionsFrom(value: unknown): CustomAssetRevisions | null {
  if (!isRecord(value) || !isRevision(value.css) || !isRevision(value.js)) return null;
  return { css: value.css, js: value.js };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The manifests of a GET /api/system/plugins answer that look like manifests (id and sdk range). */
export function servedManifestsFrom(body: unknown): ServedPluginManifest[] | null {
  if (!Array.isArray(body)) return null;
  return body.filter((m): m is ServedPluginManifest => isRecord(m) && typeof m.id === 'string' && typeof m.sdk === 'string');
}

/** Reads the boot block; null (with a warning when it is there but broken) means "fetch instead". */
export function readBootData(doc: Document = document, log: Pick<Console, 'warn'> = console): BootData | null {
  const element = doc.getElementById(BOOT_ELEMENT_ID);
  if (!element || element.textContent === null || element.textContent.trim() === '') return null;
  try {
    const parsed: unknown = JSON.parse(element.textContent);
    if (!isRecord(parsed)) throw new TypeError('not an object');
    const plugins = servedManifestsFrom(parsed.plugins);
    if (!plugins) throw new TypeError('"plugins" is not a list of manifests');
    if (!isRecord(parsed.settings)) throw new TypeError('"settings" is not an object');
    return { plugins, settings: parsed.settings as PublicSettings, custom: customRevisionsFrom(parsed.custom) };
  } catch (error) {
    log.warn(`The start-up data in #${BOOT_ELEMENT_ID} is unreadable; fetching it instead`, error);
    return null;
  }
}
