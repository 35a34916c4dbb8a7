// The auth plugin: login (also with Discord/GitHub), registration, password reset, two-factor,
// single sign-on (/auth/sso) and logout pages. Setup only hands the kernel lazy loaders, so each
// page is its own chunk, fetched when first shown.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'auth',
  setup(ctx) {
    ctx.routes.provide('LoginPage', () => import('./LoginPage'));
    ctx.routes.provide('RegisterPage', () => import('./RegisterPage'));
    ctx.routes.provide('LogoutPage', () => import('./LogoutPage'));
    ctx.routes.provide('ForgotPasswordPage', () => import('./ForgotPasswordPage'));
    ctx.routes.provide('ForgotPasswordSentPage', () => import('./ForgotPasswordSentPage'));
    ctx.routes.provide('ResetPasswordPage', () => import('./ResetPasswordPage'));
    ctx.routes.provide('SsoPage', () => import('./SsoPage'));
    ctx.routes.provide('TwoFactorVerifyPage', () => import('./TwoFactorVerifyPage'));
    ctx.routes.provide('TwoFactorSetupPage', () => import('./TwoFactorSetupPage'));
    ctx.routes.provide('TwoFactorDisbandPage', () => import('./TwoFactorDisbandPage'));
  },
});
