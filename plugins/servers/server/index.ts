// The servers plugin's API: customers queue, resize, renew and delete their servers on the host's
// Pterodactyl panel; a queue worker builds them and a daily renewal pass reminds, suspends and
// deletes; administrators see every server and the queue with its logs.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { OWNED_SERVERS } from '../contract';
import { registerAdminRoutes } from './admin-routes';
import { ownedServers } from './owned-servers';
import { QUEUE_JOB } from './queue-worker';
import { RENEWALS_JOB } from './renewals';
import { createServersPlugin } from './servers-plugin';
import { SERVERS_MIGRATIONS } from './tables';
import { registerUserRoutes } from './user-routes';

export default defineServerPlugin({
  id: 'servers',
  migrations: SERVERS_MIGRATIONS,
  register(app, ctx) {
    const plugin = createServersPlugin(ctx);
    // whose a server is, for other plugins (a support ticket's linked server)
    ctx.services.provide(OWNED_SERVERS, ownedServers(plugin.db, ctx));
    registerUserRoutes(app, ctx, plugin);
    registerAdminRoutes(app, ctx, plugin);
    return plugin;
  },
  // what acts on its own starts once every plugin has registered: the worker builds servers from the
  // server-catalog plugin's catalog, provided in that plugin's register()
  start(ctx, plugin) {
    // reference: the queue is worked every minute (and kicked after each create)
    ctx.jobs.every(QUEUE_JOB, 60_000, () => plugin.worker.run());
    // a daily schedule, checked hourly: every step is measured from expires_at and done once, so an
    // extra pass changes nothing, and a restart never postpones a day's work by another day
    ctx.jobs.every(RENEWALS_JOB, 60 * 60_000, () => plugin.renewals.run());
    // an account being deleted takes its servers off the panel first (its rows here go with it)
    ctx.events.on('user.deleting', async ({ userId }) => {
      const owned = await plugin.db.selectFrom('servers').select('id').where('user_id', '=', userId).execute();
      for (const { id } of owned) {
        try {
          await plugin.servers.remove(Number(id), userId);
        } catch (error) {
          ctx.log.error({ err: error, serverId: id, userId }, 'a deleted account’s server could not be removed from the panel');
        }
      }
    });
  },
});
