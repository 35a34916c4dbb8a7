// The system API the kernel calls at start-up (spec §4, §7): custom.css, custom.js, ga-ads, the
// public settings and the enabled plugins' manifests.
import { platform, release } from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasPermission } from '../../sdk/manifest';
import type { SettingValue } from '../../sdk/server';
import { ROOT_PERMISSION, type SettingsDebugInfo } from '../../sdk/types';
import type { SessionService } from '../auth/sessions';
import { errorBody, sendError } from '../http/errors';
import type { BootSource } from '../http/index-document';
import type { PluginHost } from '../plugins/host';
import { onSettingsScreen } from '../settings/groups';
import type { SettingsStore } from '../settings/store';
import { customAssetRevisions, customAssetRoutes } from './custom-assets';

export interface SystemRouteOptions {
  settings: SettingsStore;
  plugins: PluginHost;
  version: string;
  /** LOG_LEVEL debug or trace: the panel runs in debug mode */
  debug: boolean;
  /** REDIS_URL is set: rate limits and the rest are shared through Redis */
  redis: boolean;
  /** who asks (the server's OS details go to administrators only) */
  sessions: Pick<SessionService, 'resolve'>;
}

/** What GET /api/system/settings answers: flat public values plus the debug object. */
export type PublicSettingsAnswer = Record<string, SettingValue | SettingsDebugInfo> & { debug: SettingsDebugInfo };

const SETTINGS_ANSWER_SCHEMA = {
  type: 'object',
  properties: {
    debug: {
      type: 'object',
      required: ['useRedis', 'rateLimit'],
      properties: {
        useRedis: { type: 'boolean' },
        rateLimit: { type: 'object', required: ['enabled', 'limit'], properties: { enabled: { type: 'boolean' }, limit: { type: 'integer' } } },
      },
    },
  },
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
} as const;

/** A text answer, sent as it is; the media type is what the API document (/api/docs) shows. */
const textResponse = (mediaType: string) => ({ 200: { content: { [mediaType]: { schema: { type: 'string' } } } } });

/**
 * What GET /api/system/settings answers to anyone (and index.html carries): the public subset of the
 * active owners plus the computed keys. The server's operating system is not in it: an administrator's
 * own request adds it ({@link withAdministratorDetails}).
 */
export function publicSettingsReader(options: Pick<SystemRouteOptions, 'settings' | 'plugins' | 'version' | 'debug' | 'redis'>): () => Promise<PublicSettingsAnswer> {
  const { settings, plugins, version, debug, redis } = options;
  // spec §3 "Debug info": computed, not stored
  const computed: Record<string, SettingValue> = {
    app_version: version,
    debug_debug: debug,
    debug_version: version,
    debug_os: '',
    debug_os_kernel: '',
    debug_name: 'Orepanel',
    debug_telemetry: false,
  };
  return async () => {
    // a panel-wide setting (the spec §3 feature flags among them) is served whether or not its plugin is on
    const values = await settings.publicValues((owner, def) => onSettingsScreen(owner, def) || plugins.isActive(owner));
    const limits = await settings.getMany(['rate_limit_enabled', 'rate_limit_per_minute']);
    const limit = Number(limits.rate_limit_per_minute);
    const debugInfo: SettingsDebugInfo = {
      useRedis: redis,
      rateLimit: { enabled: limits.rate_limit_enabled === true, limit: Number.isFinite(limit) ? Math.trunc(limit) : 0 },
    };
    return { ...values, ...computed, debug: debugInfo };
  };
}

/** The answer for an administrator (holder of admin.root): with the server's operating system and its kernel release. */
export function withAdministratorDetails(answer: PublicSettingsAnswer): PublicSettingsAnswer {
  return { ...answer, debug_os: platform(), debug_os_kernel: release() };
}

/**
 * The start-up data index.html carries (server/http/index-document.ts): the very answers of GET
 * /api/system/plugins and GET /api/system/settings, and the revisions of custom.css and custom.js.
 * Its version changes with the served plugin list (a new cached string whenever a plugin is enabled
 * or disabled) and with the settings revision (custom_css and custom_js are settings).
 */
export function systemBootSource(options: Pick<SystemRouteOptions, 'settings' | 'plugins' | 'version' | 'debug' | 'redis'>): BootSource {
  const readSettings = publicSettingsReader(options);
  return {
    version: async () => [options.plugins.servedJson(), await options.settings.freshRevision()],
    inputs: async () => {
      const [settings, custom] = await Promise.all([readSettings(), customAssetRevisions(options)]);
      return { pluginsJson: options.plugins.servedJson(), settings, custom };
    },
  };
}

export function systemRoutes(app: FastifyInstance, options: SystemRouteOptions): void {
  const { settings, plugins } = options;
  const readPublicSettings = publicSettingsReader(options);

  const isAdministrator = async (request: FastifyRequest) => {
    const resolved = await options.sessions.resolve(request);
    return resolved.status === 'ok' && hasPermission(resolved.role?.permissions ?? [], ROOT_PERMISSION);
  };

  app.get('/api/system/settings', { schema: { response: { 200: SETTINGS_ANSWER_SCHEMA } } }, async (request, reply) => {
    // the answer depends on who asks: no shared cache may keep an administrator's
    reply.header('cache-control', 'private, no-cache').header('vary', 'Cookie');
    const answer = await readPublicSettings();
    return (await isAdministrator(request)) ? withAdministratorDetails(answer) : answer;
  });

  app.get('/api/system/plugins', { schema: { response: { 200: { type: 'array', items: { type: 'object', additionalProperties: true } } } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8');
    return reply.send(plugins.servedJson());
  });

  // every active plugin's own stylesheet/script first, the administrator's custom code last so it wins
  customAssetRoutes(app, { settings, plugins });

  // spec §7: plain text holding the ad client id; a non-OK status while ads are off or none is set
  // (never the reference's literal "null", which browsers took for a client)
  app.get('/api/system/ga-ads', { schema: { response: textResponse('text/plain') } }, async (_request, reply) => {
    if ((await settings.get('google_ads_enabled')) !== true) return sendError(reply, 404, errorBody('ADS_DISABLED', 'Ads are switched off.'));
    const client = String((await settings.get('google_ads_client_id')) ?? '').trim();
    if (!client) return sendError(reply, 404, errorBody('ADS_NOT_CONFIGURED', 'No ad client is configured.'));
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(client);
  });
}
