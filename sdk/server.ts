// @orepanel/sdk/server — what a plugin's server part may use, and nothing else of ours.
// A plugin's server/index.ts default-exports `defineServerPlugin({ id, migrations?, register })`.
// The host (server/plugins) registers it into its own encapsulated Fastify scope under /api and
// hands it a ServerPluginContext. Built plugins bundle this file, so nothing here may rely on
// object identity across bundles: brands are plain string properties (`$$type`).
//
// This file is the entry point only: the API lives in ./server/*, one module per concern, all of it
// re-exported here so that `@orepanel/sdk/server` stays the one import path. Its public surface is
// recorded in sdk/api-report/server.api.md (npm run api-report).
export type { ManifestMailPreference, ManifestSetting, PluginManifest } from './types';
/** spec §6: admin.root passes every check — for a handler that needs more than its route's permission */
export { hasPermission } from './manifest';
export { createServiceRef, SERVICE_REF_BRAND, type PluginServices, type ServiceRef } from './services';
export * from './pterodactyl';
export * from './schema';
export * from './stored-values';
/**
 * Account field rules shared by the registration route's JSON schema and the core's own check (and
 * the CLI), so the two can never disagree.
 */
export { ACCOUNT_RULES } from './account-rules';

export * from './server/plugin';
export * from './server/http';
export * from './server/http-errors';
export * from './server/route-schemas';
export * from './server/database';
export * from './server/settings';
export * from './server/auth';
export * from './server/audit';
export * from './server/events';
export * from './server/mail';
export * from './server/wallet';
export * from './server/accounts';
export * from './server/early-supporters';
export * from './server/time';
export * from './server/system';
export * from './server/files';
export * from './server/object-storage';
export * from './server/broadcast';
export * from './server/nav';
export * from './server/panel-backup';
