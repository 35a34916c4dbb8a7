// Client state of the signed-in user. The kernel's session manager (spec §4: fetch with retries,
// 60 s refresh, error catalogue, local storage keys) writes it through the actions below; components
// read it with `useSession()`.
import { create } from 'zustand';
import type { SessionResponse, UserProfile } from '../../types';
import { kernelEvents } from '../events';

type Scalar = string | number | boolean | null;

/** `user_info` of GET /api/user/session, normalised. Fields added by later server versions stay readable. */
export interface SessionUser extends UserProfile {
  created_at: string | null;
  [field: string]: Scalar;
}

/** `billing` of the session: the coin balance and the resource limits the user owns. */
export interface SessionBilling {
  coins: number;
  ram: number;
  disk: number;
  cpu: number;
  ports: number;
  databases: number;
  backups: number;
  server_slots: number;
  [field: string]: number;
}

/** `stats` of the session. */
export interface SessionStats {
  servers: number;
  minutes_afk: number;
  referrals: number;
  [field: string]: number;
}

export type SessionStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The session as plugins see it (argument of the `sessionLoaded` hook). */
export interface SessionSnapshot {
  loggedIn: boolean;
  user: SessionUser | null;
  billing: SessionBilling | null;
  stats: SessionStats | null;
  permissions: readonly string[];
  /** the role number, null when unknown */
  role: number | null;
}

export interface SessionState extends SessionSnapshot {
  status: SessionStatus;
  /** the last session error (spec §8 codes such as SERVER_UNAVAILABLE, TW0_FA_BLOCKED), null when none */
  error: { code: string; message: string } | null;
  /** Marks a fetch as started; keeps a loaded session on screen while it refreshes. */
  beginFetch(): void;
  /** Applies an answer of GET /api/user/session (success or not). */
  applyResponse(response: SessionResponse): void;
  /** spec §4: the cached permissions (and stored role) shown before the first fetch answers. */
  applyCached(permissions: readonly string[], role: number | null): void;
  /** Records a session error; the user is signed out. */
  fail(code: string, message: string): void;
  /** Forgets the session (logout, or after a session error was handled). */
  clear(): void;
}

function toNumber(value: Scalar | undefined): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : 0;
}

function toText(value: Scalar | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

function toOptionalText(value: Scalar | undefined): string | null {
  return value === null || value === undefined || value === '' ? null : String(value);
}

function toFlag(value: Scalar | undefined): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

function numbersOf(group: Record<string, Scalar>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(group)) out[key] = toNumber(value);
  return out;
}

/** Normalises `user_info` (numbers may arrive as text from some databases). */
export function toSessionUser(info: Record<string, Scalar>): SessionUser {
  return {
    ...info,
    uuid: toText(info.uuid),
    username: toText(info.username),
    email: toText(info.email),
    first_name: toText(info.first_name),
    last_name: toText(info.last_name),
    avatar: toOptionalText(info.avatar),
    background: toOptionalText(info.background),
    role: toNumber(info.role),
    role_name: toText(info.role_name),
    verified: toFlag(info.verified),
    two_fa_enabled: toFlag(info.two_fa_enabled),
    created_at: toOptionalText(info.created_at),
  };
}

export function toSessionBilling(billing: Record<string, Scalar>): SessionBilling {
  const n = numbersOf(billing);
  return {
    ...n,
    coins: n.coins ?? 0,
    ram: n.ram ?? 0,
    disk: n.disk ?? 0,
    cpu: n.cpu ?? 0,
    ports: n.ports ?? 0,
    databases: n.databases ?? 0,
    backups: n.backups ?? 0,
    server_slots: n.server_slots ?? 0,
  };
}

export function toSessionStats(stats: Record<string, Scalar>): SessionStats {
  const n = numbersOf(stats);
  return { ...n, servers: n.servers ?? 0, minutes_afk: n.minutes_afk ?? 0, referrals: n.referrals ?? 0 };
}

const signedOut: SessionSnapshot = { loggedIn: false, user: null, billing: null, stats: null, permissions: [], role: null };

/** The session store (zustand). Read it in components through `useSession()`. */
export const sessionStore = create<SessionState>()((set, get) => ({
  ...signedOut,
  status: 'idle',
  error: null,
  beginFetch() {
    if (get().status !== 'ready') set({ status: 'loading' });
  },
  applyResponse(response) {
    if (!response.success || !response.user_info) {
      get().fail(response.error_code ?? 'INVALID_SESSION', response.message ?? 'Your session has expired or is invalid.');
      return;
    }
    const user = toSessionUser(response.user_info);
    set({
      loggedIn: true,
      user,
      billing: response.billing ? toSessionBilling(response.billing) : null,
      stats: response.stats ? toSessionStats(response.stats) : null,
      permissions: [...response.permissions],
      role: user.role,
      status: 'ready',
      error: null,
    });
  },
  applyCached(permissions, role) {
    set({ permissions: [...permissions], role });
  },
  fail(code, message) {
    set({ ...signedOut, status: 'error', error: { code, message } });
  },
  clear() {
    set({ ...signedOut, status: 'idle', error: null });
  },
}));

/** The current session without the store's actions. */
export function sessionSnapshot(state: SessionState = sessionStore.getState()): SessionSnapshot {
  const { loggedIn, user, billing, stats, permissions, role } = state;
  return { loggedIn, user, billing, stats, permissions, role };
}

// Emit `session:changed` whenever who is signed in, their role or their permissions change (not on
// every 60 s refresh that brings the same session back).
sessionStore.subscribe((next, prev) => {
  const same = next.loggedIn === prev.loggedIn && next.user?.uuid === prev.user?.uuid && next.role === prev.role && next.permissions.join(' ') === prev.permissions.join(' ');
  if (!same) {
    kernelEvents.emit('session:changed', {
      loggedIn: next.loggedIn,
      uuid: next.user?.uuid ?? null,
      role: next.role,
      permissions: next.permissions,
    });
  }
});
