// POST /api/admin/pterodactyl/test: the "Test connection" button of the Pterodactyl settings
// group — one authenticated call with the stored address and key, answered with the round trip and
// what the panel holds, or with the PanelError's code and the panel's own message (400 when nothing
// is configured, 502 when the panel refused or did not answer).
import type { FastifyInstance } from 'fastify';
import { httpError, type PluginAudit } from '../../sdk/server';
import { isPanelError, type PterodactylPanel } from '../../sdk/pterodactyl';
import { errorResponseSchema } from '../http/errors';
import { errorResponses } from './schemas';

const testAnswer = {
  type: 'object',
  required: ['ok', 'latency_ms', 'locations', 'nodes'],
  properties: { ok: { type: 'boolean' }, latency_ms: { type: 'number' }, locations: { type: 'integer' }, nodes: { type: 'integer' } },
} as const;

export function registerAdminPterodactyl(app: FastifyInstance, services: { panel: PterodactylPanel; audit: PluginAudit }): void {
  app.post(
    '/pterodactyl/test',
    {
      config: { permission: 'admin.settings.view' },
      schema: { response: { 200: testAnswer, ...errorResponses, 502: errorResponseSchema } },
    },
    async (request) => {
      try {
        const result = await services.panel.testConnection();
        await services.audit.record(request, { action: 'admin.pterodactyl.test', details: { ok: true, latency_ms: result.latencyMs } });
        return { ok: true, latency_ms: result.latencyMs, locations: result.locations, nodes: result.nodes };
      } catch (error) {
        if (!isPanelError(error)) throw error;
        await services.audit.record(request, { action: 'admin.pterodactyl.test', details: { ok: false, code: error.code } });
        throw httpError(error.code === 'PANEL_NOT_CONFIGURED' ? 400 : 502, error.code, error.detail);
      }
    },
  );
}
