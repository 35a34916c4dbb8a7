// The system API the kernel calls at start-up (spec §4, §7): custom.css, custom.js, ga-ads, the
// public settings and the enabled plugins' manifests.
import { platform, release } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { SettingValue } from '../../sdk/server';
import { errorBody, sendError } from '../http/errors';
import type { BootSource } from '../http/index-document';
import type { PluginHost } from '../plugins/host';
import { onSettingsScreen } from '../settings/groups';
import type { SettingsStore } from '../settings/store';

export interface SystemRouteOptions {
  settings: SettingsStore;
  plugins: PluginHost;
  version: string;
  /** LOG_LEVEL debug or trace: the panel runs in debug mode */
  debug: boolean;
}

/** A text answer, sent as it is; the media type is what the API document (/api/docs) shows. */
const textResponse = (mediaType: string) => ({ 200: { content: { [mediaType]: { schema: { type: 'string' } } } } });

/** What GET /api/system/settings answers: the public subset of the active owners plus the computed keys. */
export function publicSettingsReader(options: SystemRouteOptions): () => Promise<Record<string, SettingValue>> {
  const { settings, plugins, version, debug } = options;
  // spec §3 "Debug info": computed, not stored; the OS kernel release only in debug mode
  const computed: Record<string, SettingValue> = {
    app_version: version,
    debug_debug: debug,
    debug_version: version,
    debug_os: platform(),
    debug_os_kernel: debug ? release() : '',
    debug_name: 'Orepanel',
    debug_telemetry: false,
  };
  // a panel-wide setting (the spec §3 feature flags among them) is served whether or not its plugin is on
  return async () => ({ ...(await settings.publicValues((owner, def) => onSettingsScreen(owner, def) || plugins.isActive(owner))), ...computed });
}

/**
 * The start-up data index.html carries (server/http/index-document.ts): the very answers of GET
 * /api/system/plugins and GET /api/system/settings. Its version changes with the served plugin list
 * (a new cached string whenever a plugin is enabled or disabled) and with the settings revision.
 */
export function systemBootSource(options: SystemRouteOptions): BootSource {
  const readSettings = publicSettingsReader(options);
  return {
    version: async () => [options.plugins.servedJson(), await options.settings.freshRevision()],
    inputs: async () => ({ pluginsJson: options.plugins.servedJson(), settings: await readSettings() }),
  };
}

export function systemRoutes(app: FastifyInstance, options: SystemRouteOptions): void {
  const { settings, plugins } = options;
  const readPublicSettings = publicSettingsReader(options);

  app.get(
    '/api/system/settings',
    { schema: { response: { 200: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } } } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return readPublicSettings();
    },
  );

  app.get('/api/system/plugins', { schema: { response: { 200: { type: 'array', items: { type: 'object', additionalProperties: true } } } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8');
    return reply.send(plugins.servedJson());
  });

  // every active plugin's own stylesheet/script first, the administrator's custom code last so it wins
  app.get('/api/system/custom.css', { schema: { response: textResponse('text/css') } }, async (_request, reply) => {
    const own = String((await settings.get('custom_css')) ?? '');
    const body = [...plugins.assets('css'), own].filter((part) => part.trim() !== '').join('\n');
    return reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(body);
  });

  app.get('/api/system/custom.js', { schema: { response: textResponse('application/javascript') } }, async (_request, reply) => {
    const own = String((await settings.get('custom_js')) ?? '');
    const body = [...plugins.assets('js'), own].filter((part) => part.trim() !== '').join('\n;\n');
    return reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').send(body);
  });

  // spec §7: plain text holding the ad client id; a non-OK status when none is set
  app.get('/api/system/ga-ads', { schema: { response: textResponse('text/plain') } }, async (_request, reply) => {
    const client = String((await settings.get('google_ads_client_id')) ?? '').trim();
    if (!client) return sendError(reply, 404, errorBody('ADS_NOT_CONFIGURED', 'No ad client is configured.'));
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(client);
  });
}
