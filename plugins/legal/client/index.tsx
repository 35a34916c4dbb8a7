// The legal plugin: the privacy policy and the terms of service, with the text the host wrote in the
// settings, or a generated default built from the company settings.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'legal',
  setup(ctx) {
    ctx.routes.provide('PrivacyPolicyPage', () => import('./PrivacyPolicyPage'));
    ctx.routes.provide('TermsOfServicePage', () => import('./TermsOfServicePage'));
  },
});
