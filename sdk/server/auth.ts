// Accounts and sessions, as a plugin may use them (ctx.auth).
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The signed-in user behind a request, as the session endpoint sees them. */
export interface SessionUser {
  id: number;
  uuid: string;
  username: string;
  email: string;
  role: number;
  roleName: string;
  permissions: readonly string[];
  banned: boolean;
  twoFaEnabled: boolean;
  sessionId: number;
}

export interface NewUserInput {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  /** defaults to 1 (Default) */
  role?: number;
}

export interface CreatedUser {
  id: number;
  uuid: string;
  username: string;
}

/** A user whose login and password matched (see PluginAuth.checkCredentials). */
export interface CredentialUser {
  id: number;
  uuid: string;
  username: string;
  banned: boolean;
  banReason: string | null;
  twoFaEnabled: boolean;
}

export interface StartSessionOptions {
  /** The session must pass a TOTP check before it may be used (answers TW0_FA_BLOCKED until then). */
  twoFaPending?: boolean;
}

/** One of a user's sessions, as the user's list of signed-in devices shows it. */
export interface UserSession {
  sessionId: number;
  /** the non-secret id the user's list names the session by */
  publicId: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
}

/** The request's live session, whatever its state (also while it waits for its 2FA code). */
export interface SessionState {
  userId: number;
  sessionId: number;
  twoFaPending: boolean;
  /** when the session last proved a TOTP code (ISO), or null */
  twoFaVerifiedAt: string | null;
  banned: boolean;
}

export interface RotateSessionOptions {
  /** the new session has just proved a TOTP code (clears a pending 2FA check, stamps the time) */
  twoFaVerified?: boolean;
}

export interface PluginAuth {
  /** The request's user when its op_session cookie names a valid, fully signed-in session. */
  currentUser(request: FastifyRequest): Promise<SessionUser | null>;
  hashPassword(password: string): Promise<string>;
  verifyPassword(password: string, hash: string): Promise<boolean>;
  /**
   * Creates an account with the default resources from the settings. Throws an http error
   * 409 USERNAME_TAKEN / EMAIL_TAKEN (field username / email) on a case-insensitive duplicate.
   */
  createUser(input: NewUserInput): Promise<CreatedUser>;
  /**
   * Finds the user by username or email (case-insensitive) and checks the password, taking the same
   * time whether or not the account exists. Null when they do not match.
   */
  checkCredentials(login: string, password: string): Promise<CredentialUser | null>;
  /** Creates a new session row (rotating away the request's old one) and sets both cookies. */
  startSession(request: FastifyRequest, reply: FastifyReply, userId: number, options?: StartSessionOptions): Promise<void>;
  /** Revokes the request's session (if any) and clears both cookies. */
  endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The permissions the user's role grants now (none for a missing user) — to check one user's rights against another's. */
  userPermissions(userId: number): Promise<string[]>;
  /** The id of the account a login name (username or email, any case) names, or null. */
  lookupUserId(login: string): Promise<number | null>;
  /** The request's live session (not revoked, not expired), including one waiting for 2FA. */
  session(request: FastifyRequest): Promise<SessionState | null>;
  /**
   * Replaces the request's session by a fresh one of the same user (new token and cookies; the old
   * one is revoked): after a privilege change, a password change or a 2FA check.
   */
  rotateSession(request: FastifyRequest, reply: FastifyReply, options?: RotateSessionOptions): Promise<void>;
  /** Records that the request's session just proved a TOTP code (see SessionState.twoFaVerifiedAt). */
  markTwoFaVerified(request: FastifyRequest): Promise<void>;
  /**
   * Whether the session `sessionId` (SessionState.sessionId) is still signed in: not revoked or
   * expired, not waiting for its 2FA code, its user not banned — for a connection that outlives its
   * request (a WebSocket) and checks the session it was opened with.
   */
  sessionLive(sessionId: number): Promise<boolean>;
  /** How many sessions the user has started from the address `ip`, ended ones too (a new-login notice tells a known address from a new one). */
  sessionsFromAddress(userId: number, ip: string): Promise<number>;
  /** The user's live sessions (not revoked, not expired), newest first. */
  listSessions(userId: number): Promise<UserSession[]>;
  /** The user's session named `publicId` unless it was revoked (an expired one too); null when there is none. */
  findSession(userId: number, publicId: string): Promise<UserSession | null>;
  /** Revokes one session of the user; false when it was not the user's or already revoked. */
  revokeSession(userId: number, sessionId: number): Promise<boolean>;
  /** Ends every session of a user except `exceptSessionId`; returns how many ended. */
  revokeSessions(userId: number, exceptSessionId?: number | null): Promise<number>;
  /** True when `password` is the user's password (same time whether or not the user exists). */
  checkPassword(userId: number, password: string): Promise<boolean>;
  /**
   * Sets a new password (ACCOUNT_RULES.password; 400 VALIDATION_ERROR field password otherwise) and
   * emits user.credentials_changed.
   */
  setPassword(userId: number, password: string): Promise<void>;
  /**
   * Deletes the account (its sessions and the rows that reference it go with it); false when it was
   * already gone. Refused with 409 LAST_ADMINISTRATOR when no other active account would hold
   * admin.root — one conditional statement decides, so two administrators deleting themselves at
   * the same moment cannot both go. `beforeDelete` runs once the rule allows the deletion.
   */
  deleteUser(userId: number, beforeDelete?: () => Promise<void>): Promise<boolean>;
}
