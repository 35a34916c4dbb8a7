// Route option `config: { flag: 'store_enabled' }`: a switched-off feature answers one clear error,
// whatever its route — so every plugin behaves the same and none forgets its own check.
import type { onRequestHookHandler, RouteOptions } from 'fastify';
import { errorBody, sendError } from '../http/errors';
import type { SettingsStore } from './store';

export const FEATURE_DISABLED_MESSAGE = 'This feature is turned off on this panel.';

/** The flag check a route's options ask for, or null when it names no flag. */
export function featureFlagGuardFor(settings: SettingsStore, route: RouteOptions): onRequestHookHandler | null {
  const flag = route.config?.flag;
  if (!flag) return null;
  // a typo would otherwise switch the route off for good, silently
  if (settings.definition(flag)?.type !== 'boolean') throw new Error(`route ${route.url}: flag "${flag}" is not a declared boolean setting`);
  return async (_request, reply) => {
    if ((await settings.get(flag)) !== true) return sendError(reply, 403, errorBody('FEATURE_DISABLED', FEATURE_DISABLED_MESSAGE));
  };
}
