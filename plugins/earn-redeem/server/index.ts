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
  register(app, ctx) {
    const codes = new RedeemCodes(ctx.db.withTables<RedeemTables>(), ctx.httpError);
    registerRedeemRoutes(app, ctx, new CodeRedemption(ctx, codes));
    registerAdminRoutes(app, ctx, codes);
  },
});
