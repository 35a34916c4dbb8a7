// The account plugin's API (reference paths under /api/user/session): the signed-in user's names,
// e-mail, avatar and background, password change, active sessions with revoke, support PIN and
// account deletion. Every route needs a fully signed-in session; every change is in the audit log.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { registerAccountDeletion } from './account-deletion';
import { registerPasswordChange } from './password-change';
import { registerProfile } from './profile';
import { registerSessionList } from './session-list';
import { registerSupportPin } from './support-pin';

export default defineServerPlugin({
  id: 'account',
  // guessing the current password with a stolen cookie (password change, account deletion, a new
  // e-mail address): the policy keeps the name it had in the core; its limits are this plugin's settings
  rateLimitPolicies: {
    'auth.password': {
      scopes: [
        { by: 'ip', setting: 'rate_limit_password_per_ip' },
        { by: 'account', setting: 'rate_limit_password_per_account' },
      ],
      account: { session: true },
    },
  },
  register(app, ctx) {
    registerProfile(app, ctx);
    registerPasswordChange(app, ctx);
    registerSessionList(app, ctx);
    registerSupportPin(app, ctx);
    registerAccountDeletion(app, ctx);
  },
});
