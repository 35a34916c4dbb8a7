// The earn-links plugin's API: link for rewards through shortener providers (Linkvertise, ShareUs,
// LinkPays, GyaniLinks) — single-use tokens stored on the server, a minimum time, an expiry, a daily
// limit and a cooldown per user and provider, every payment through the wallet (counter `links`).
import { defineServerPlugin } from '@orepanel/sdk/server';
import { LinkQuotas } from './link-quotas';
import { LinkRedemption } from './link-redemption';
import { registerLinkRoutes } from './link-routes';
import { LinkStart } from './link-start';
import { LinkTokens } from './link-tokens';
import { LINK_MIGRATIONS, type LinkTables } from './tables';

export default defineServerPlugin({
  id: 'earn-links',
  migrations: LINK_MIGRATIONS,
  register(app, ctx) {
    const db = ctx.db.withTables<LinkTables>();
    const tokens = new LinkTokens(db);
    const quotas = new LinkQuotas(db, ctx.dialect);
    registerLinkRoutes(app, ctx, {
      quotas,
      start: new LinkStart(ctx, tokens, quotas),
      redemption: new LinkRedemption(ctx, tokens, quotas),
    });
  },
});
