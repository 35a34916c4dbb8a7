// The earn-referrals plugin's API: every account's referral code, the referral recorded when a new
// account registers with one (event user.registered, from the auth plugin's register route), both
// sides paid through the wallet — the referrer perhaps only after the new account's e-mail
// verification (event user.verified) — and the user's page, GET /api/user/earn/referrals.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { ReferralCodes } from './referral-codes';
import { ReferralRewards } from './referral-rewards';
import { registerReferralRoutes } from './referral-routes';
import { REFERRAL_MIGRATIONS, type ReferralTables } from './tables';

export default defineServerPlugin({
  id: 'earn-referrals',
  migrations: REFERRAL_MIGRATIONS,
  register(app, ctx) {
    const codes = new ReferralCodes(ctx.db.withTables<ReferralTables>(), ctx.dialect, () => ctx.clock.now());
    const rewards = new ReferralRewards(ctx, codes);
    // two handlers, so that a failure of one (logged by the bus) does not stop the other; a code
    // that could not be made now is made when its owner first asks for it
    ctx.events.on('user.registered', async ({ userId }) => {
      await codes.codeOf(userId);
    });
    ctx.events.on('user.registered', ({ userId, ref }) => rewards.registered(userId, ref));
    ctx.events.on('user.verified', ({ userId }) => rewards.verified(userId));
    registerReferralRoutes(app, ctx, codes, rewards);
  },
});
