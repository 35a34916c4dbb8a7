// The ads plugin: one ad on the dashboard and one on each earn page, in the `dashboard.ads` and
// `earn.ads` slots. Its slot entries carry the google_ads_enabled flag, so while ads are off the kernel
// never installs this plugin and no ad code is fetched at all.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'ads',
  setup(ctx) {
    ctx.slots.provide('DashboardAd', () => import('./DashboardAd'));
    ctx.slots.provide('EarnAd', () => import('./EarnAd'));
  },
});
