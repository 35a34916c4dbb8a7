// POST /api/user/session/info/update: first/last name, e-mail, avatar and background addresses.
// A new e-mail address needs the current password (or, with 2FA on, a fresh code): otherwise a
// stolen cookie could move the account to the thief's mailbox and reset its password from there.
// It is unverified until its link is followed (the auth plugin mails one when mail is on, on the
// user.email_changed event), and the links mailed to the old one stop working.
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_RULES, type ServerPluginContext } from '@orepanel/sdk/server';
import { proofProperties, requireProof, type Proof } from './identity';

const { email, name } = ACCOUNT_RULES;

/** spec §5: URL inputs must be http or https addresses ('' or null clears the picture) */
const imageUrl = { type: ['string', 'null'], maxLength: 512 } as const;

const body = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    first_name: { type: 'string', minLength: name.minLength, maxLength: name.maxLength, pattern: name.pattern },
    last_name: { type: 'string', minLength: name.minLength, maxLength: name.maxLength, pattern: name.pattern },
    email: { type: 'string', maxLength: email.maxLength, pattern: email.pattern },
    avatar: imageUrl,
    background: imageUrl,
    ...proofProperties,
  },
} as const;

interface ProfileBody extends Proof {
  first_name?: string;
  last_name?: string;
  email?: string;
  avatar?: string | null;
  background?: string | null;
}

const answer = {
  type: 'object',
  required: ['success', 'user_info', 'verification_sent'],
  properties: {
    success: { type: 'boolean' },
    user_info: {
      type: 'object',
      properties: {
        first_name: { type: 'string' },
        last_name: { type: 'string' },
        email: { type: 'string' },
        avatar: { type: ['string', 'null'] },
        background: { type: ['string', 'null'] },
        verified: { type: 'boolean' },
      },
    },
    verification_sent: { type: 'boolean' },
  },
} as const;

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function registerProfile(app: FastifyInstance, ctx: ServerPluginContext): void {
  app.post<{ Body: ProfileBody }>(
    '/user/session/info/update',
    // the password check makes this a way to guess the password with a stolen cookie: limited like the others
    { config: { auth: true, rateLimit: 'auth.password' }, schema: { body, response: { 200: answer } } },
    async (request) => {
      const user = (await ctx.auth.currentUser(request))!;
      const input = request.body;
      // what changes, as the audit entry records it
      const changes: { first_name?: string; last_name?: string; email?: string; verified?: number; avatar?: string | null; background?: string | null } = {};
      for (const field of ['avatar', 'background'] as const) {
        const value = input[field];
        if (value === undefined) continue;
        const trimmed = value === null ? '' : value.trim();
        if (trimmed !== '' && !isWebAddress(trimmed)) throw ctx.httpError(400, 'VALIDATION_ERROR', 'Invalid URL', field);
        changes[field] = trimmed === '' ? null : trimmed;
      }
      if (input.first_name !== undefined) changes.first_name = input.first_name.trim();
      if (input.last_name !== undefined) changes.last_name = input.last_name.trim();
      // a change of letter case is the same address; a proof sent anyway is checked all the same
      const newAddress = input.email !== undefined && input.email.toLowerCase() !== user.email.toLowerCase();
      if (newAddress || input.current_password !== undefined || input.code !== undefined) {
        await requireProof(ctx, request, user.id, input, 'account.email_change_failed');
      }
      if (input.email !== undefined && input.email !== user.email) changes.email = input.email;
      // 409 EMAIL_TAKEN when another account holds the address; a different one (not only another letter case) is unverified
      const { emailChanged } = await ctx.accounts.updateProfile(user.id, {
        firstName: changes.first_name,
        lastName: changes.last_name,
        email: changes.email,
        avatar: changes.avatar,
        background: changes.background,
      });
      if (emailChanged) changes.verified = 0;
      if (Object.keys(changes).length > 0) {
        await ctx.audit.record(request, { action: 'account.profile_update', targetUserId: user.id, details: { ...changes, previous_email: emailChanged ? user.email : null } });
      }
      let verificationSent = false;
      if (emailChanged) {
        await ctx.events.emit('user.credentials_changed', { userId: user.id });
        verificationSent = await ctx.mail.enabled();
        await ctx.events.emit('user.email_changed', { userId: user.id, email: changes.email!, linkBase: await ctx.mail.publicUrl(request) });
      }
      const profile = await ctx.accounts.profile(user.id);
      if (!profile) throw ctx.httpError(404, 'USER_NOT_FOUND', 'That user does not exist.');
      const userInfo = {
        first_name: profile.firstName,
        last_name: profile.lastName,
        email: profile.email,
        avatar: profile.avatar,
        background: profile.background,
        verified: profile.verified,
      };
      return { success: true, user_info: userInfo, verification_sent: verificationSent };
    },
  );
}
