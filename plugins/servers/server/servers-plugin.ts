// The plugin's parts, made once in register() and handed to the routes and jobs.
import type { ServerPluginContext } from '@orepanel/sdk/server';
import { OAUTH_GRANTS } from '../../auth/contract';
import { SERVER_CATALOG, type ServerCatalog } from '../../server-catalog/contract';
import { AccountResources } from './account-resources';
import { CreationRules } from './creation-rules';
import { HostedServers } from './hosted-servers';
import { QueueWorker } from './queue-worker';
import { Renewals } from './renewals';
import { ServerQueue } from './server-queue';
import type { ServersCoreReads, ServersDb, ServersTables } from './tables';

export interface ServersPlugin {
  db: ServersDb;
  /** the server-catalog plugin's service, asked for when used: by a request or a job, which run after start() */
  catalog: () => ServerCatalog;
  resources: AccountResources;
  rules: CreationRules;
  queue: ServerQueue;
  servers: HostedServers;
  worker: QueueWorker;
  renewals: Renewals;
}

export function createServersPlugin(ctx: ServerPluginContext): ServersPlugin {
  const db = ctx.db.withTables<ServersTables & ServersCoreReads>();
  // the services of the plugins in `requires`, asked for when a request or a job needs them (never
  // in register(), where ctx.services.get refuses: they are handed over from start() on)
  const catalog = () => ctx.services.get(SERVER_CATALOG);
  // linked accounts (force_discord_link / force_github_link) come from the auth plugin's grants service
  const grants = () => ctx.services.get(OAUTH_GRANTS);
  const resources = new AccountResources(db, ctx.accounts, ctx.log);
  const rules = new CreationRules(ctx, catalog, grants, resources);
  const queue = new ServerQueue(ctx, db, resources, rules);
  const servers = new HostedServers(ctx, db, resources, rules);
  const worker = new QueueWorker(ctx, db, queue, catalog);
  const renewals = new Renewals(ctx, db, servers);
  return { db, catalog, resources, rules, queue, servers, worker, renewals };
}
