// Proof that the owner is at the keyboard before the e-mail address or the password changes: the
// current password or, on an account with two-factor authentication, a fresh code from the
// authenticator app (or an unused recovery code) instead. A stolen session cookie alone changes
// neither, and a wrong proof changes nothing.
import type { FastifyRequest } from 'fastify';
import { ACCOUNT_RULES, type ServerPluginContext } from '@orepanel/sdk/server';
import { TWO_FACTOR } from '../../auth/contract';

/** The body properties that carry the proof (one of the two). */
export const proofProperties = {
  current_password: { type: 'string', minLength: 1, maxLength: ACCOUNT_RULES.password.maxLength },
  // a 6-digit code or a recovery code (xxxxx-xxxxx), as the auth plugin's own 2FA routes take it
  code: { type: 'string', minLength: 6, maxLength: 24, pattern: '^[0-9A-Za-z -]+$' },
} as const;

export interface Proof {
  current_password?: string;
  code?: string;
}

/** Throws a 400 naming the field when `proof` does not prove it is the account's owner; `failedAction` goes to the audit log. */
export async function requireProof(ctx: ServerPluginContext, request: FastifyRequest, userId: number, proof: Proof, failedAction: string): Promise<void> {
  if (proof.current_password !== undefined && proof.code !== undefined) {
    throw ctx.httpError(400, 'VALIDATION_ERROR', 'Send your current password or a two-factor code, not both.', 'code');
  }
  if (proof.code !== undefined) {
    const twoFactor = ctx.services.get(TWO_FACTOR);
    if (!(await twoFactor.enabled(userId))) {
      throw ctx.httpError(400, 'TWO_FA_NOT_ENABLED', 'Two-factor authentication is not on: enter your current password instead.', 'code');
    }
    if (await twoFactor.accept(userId, proof.code)) return;
    await ctx.audit.record(request, { action: failedAction, targetUserId: userId, details: { method: 'code' } });
    throw ctx.httpError(400, 'TWO_FA_INVALID_CODE', 'The code is not valid. Check the time on your device and try again.', 'code');
  }
  if (proof.current_password === undefined) throw ctx.httpError(400, 'CURRENT_PASSWORD_REQUIRED', 'Enter your current password.', 'current_password');
  if (await ctx.auth.checkPassword(userId, proof.current_password)) return;
  await ctx.audit.record(request, { action: failedAction, targetUserId: userId });
  throw ctx.httpError(400, 'WRONG_PASSWORD', 'The current password is not correct.', 'current_password');
}
