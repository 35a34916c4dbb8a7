// auth.two-factor — the auth plugin's check of an account's second factor, for a plugin that lets
// a fresh code stand in for the current password before a sensitive change (the account page: a new
// e-mail address or password).
import { createServiceRef } from './services';

export interface TwoFactorCheck {
  /** true when the account has two-factor authentication on */
  enabled(userId: number): Promise<boolean>;
  /** true when `code` is a TOTP code not accepted before or an unused recovery code; it is used up */
  accept(userId: number, code: string): Promise<boolean>;
}

export const TWO_FACTOR = createServiceRef<TwoFactorCheck>('auth.two-factor');
