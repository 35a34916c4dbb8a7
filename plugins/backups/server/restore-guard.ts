// Before a restore replaces every table and file, the root administrator proves three things at the
// keyboard: they mean this panel (its name typed exactly: a restore aimed at the wrong tab of the
// wrong panel stops here), they know the account's password now (a stolen session cookie alone restores
// nothing), and — on an account with two-factor authentication — they hold its second factor too
// (both, not one or the other: this is the most destructive action the panel has). The password and
// the code are checked with the panel's own pieces (ctx.auth.checkPassword, the auth plugin's
// two-factor check, which uses a code up); a wrong one is a warning in the audit log and a 400 naming
// the field. The route's rate-limit policy caps the guesses.
import type { FastifyRequest } from 'fastify';
import type { ServerPluginContext, SessionUser } from '@orepanel/sdk/server';
import { TWO_FACTOR } from '../../auth/contract';
import type { RestoreRequest } from '../shared/wire';

const REFUSED = 'admin.backup.restore_refused';

export async function confirmRestorer(ctx: ServerPluginContext, request: FastifyRequest, user: SessionUser, body: RestoreRequest, archive: string): Promise<void> {
  const refuse = async (reason: string, status: number, code: string, message: string, field: string) => {
    await ctx.audit.record(request, { action: REFUSED, targetUserId: user.id, details: { archive, reason } });
    return ctx.httpError(status, code, message, field);
  };
  const panelName = String((await ctx.settings.get('app_name')) ?? '');
  if (body.panel_name !== panelName) {
    throw await refuse('panel_name', 400, 'PANEL_NAME_MISMATCH', "Type the panel's name exactly as it is shown, to confirm which panel is replaced.", 'panel_name');
  }
  // the password first: a wrong one must not use up a valid code
  if (!(await ctx.auth.checkPassword(user.id, body.password))) {
    throw await refuse('password', 400, 'WRONG_PASSWORD', 'The password is not correct.', 'password');
  }
  const twoFactor = ctx.services.get(TWO_FACTOR);
  if (await twoFactor.enabled(user.id)) {
    if (body.code === undefined || body.code === '') {
      throw await refuse('code_missing', 400, 'TWO_FA_CODE_REQUIRED', 'Enter a code from your authenticator app as well.', 'code');
    }
    if (!(await twoFactor.accept(user.id, body.code))) {
      throw await refuse('code', 400, 'TWO_FA_INVALID_CODE', 'The code is not valid. Check the time on your device and try again.', 'code');
    }
  }
}
