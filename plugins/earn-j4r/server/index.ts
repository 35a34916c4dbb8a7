// The earn-j4r plugin's API: join-for-rewards — users are paid once per listed Discord guild they
// joined, checked with a Discord authorization through the auth plugin's OAuth flow
// (auth.oauth-grants); administrators list the guilds.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { registerAdminRoutes } from './admin-routes';
import { J4rGuilds } from './guilds';
import { J4rRewards } from './rewards';
import { J4R_MIGRATIONS, type J4rTables } from './tables';
import { registerUserRoutes } from './user-routes';

export default defineServerPlugin({
  id: 'earn-j4r',
  migrations: J4R_MIGRATIONS,
  register(app, ctx) {
    const db = ctx.db.withTables<J4rTables>();
    const guilds = new J4rGuilds(db, ctx.dialect, ctx.httpError);
    registerUserRoutes(app, ctx, guilds, new J4rRewards(ctx, db, guilds));
    registerAdminRoutes(app, ctx, guilds);
  },
});
