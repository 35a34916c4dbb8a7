// The earn-redeem plugin's API: users redeem codes for coins (through the wallet, exactly `uses`
// times in total and once per user), administrators manage the codes.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { registerAdminRoutes } from './admin-routes';
import { RedeemCodes } from './redeem-codes';
import { registerRedeemRoutes } from './redeem-routes';
import { CodeRedemption } from './redemption';
import { REDEEM_MIGRATIONS, type RedeemTables } from './tables';

export default defineServerPlugin({
  id: 'earn-redeem',
  migrations: REDEEM_MIGRATIONS,
  // guessing redeem codes: every attempt and every check counts, whatever its answer (window:
  // the core's rate_limit_auth_window_seconds; limits: this plugin's settings in plugin.json)
  rateLimitPolicies: {
    'earn.redeem': {
      scopes: [
        { by: 'ip', setting: 'rate_limit_redeem_per_ip' },
        { by: 'account', setting: 'rate_limit_redeem_per_account' },
      ],
      account: { session: true },
    },
  },
  register(app, ctx) {
    const codes = new RedeemCodes(ctx.db.withTables<RedeemTables>(), ctx.httpError);
    registerRedeemRoutes(app, ctx, new CodeRedemption(ctx, codes));
    registerAdminRoutes(app, ctx, codes);
  },
});
