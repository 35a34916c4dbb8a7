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
  register(app, ctx) {
    registerProfile(app, ctx);
    registerPasswordChange(app, ctx);
    registerSessionList(app, ctx);
    registerSupportPin(app, ctx);
    registerAccountDeletion(app, ctx);
  },
});
