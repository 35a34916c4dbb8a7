// Alt detection: which other accounts signed in from the same browser or the same IP address.
//
// Two signals of different strength:
// - the browser: a random op_device cookie (HttpOnly, about 400 days), set at every sign-in (the login
//   limit reads it too: known-devices.ts). Another account signing in with the same cookie within
//   alt_device_window_days is almost surely the same person (or a shared family computer) — reason
//   shared_device;
// - the IP address (request.ip: X-Forwarded-For counts only behind a proxy TRUST_PROXY names): weak
//   on its own (carrier NAT, schools, one household), so it only links sign-ins within
//   alt_ip_window_hours — reason shared_ip.
// Either only flags the account for review (reference "do better": never ban everyone behind one IP).
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../auth/cookies';
import type { AbuseReviewDb } from './abuse-review-tables';

export const DEVICE_COOKIE = 'op_device';
/** browsers cap cookie lifetimes at 400 days */
export const DEVICE_COOKIE_MAX_AGE = 400 * 86_400;
const DEVICE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function hashDevice(device: string): string {
  return createHash('sha256').update(device).digest('hex');
}

/** The browser's device id from its op_device cookie; null without one (or with a malformed one). */
export function readDeviceCookie(request: FastifyRequest): string | null {
  const existing = readCookie(request.headers.cookie, DEVICE_COOKIE);
  return existing && DEVICE_SHAPE.test(existing) ? existing : null;
}

/** The browser's device id: its op_device cookie, or a new one set on this answer. */
export function ensureDeviceCookie(request: FastifyRequest, reply: FastifyReply): string {
  const existing = readDeviceCookie(request);
  if (existing) return existing;
  const device = randomBytes(32).toString('base64url');
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${DEVICE_COOKIE}=${device}; Path=/; SameSite=Lax; Max-Age=${DEVICE_COOKIE_MAX_AGE}; HttpOnly${secure}`);
  return device;
}

export interface AltWindows {
  ipHours: number;
  deviceDays: number;
}

export interface LinkedAccounts {
  /** accounts seen with the same device cookie */
  byDevice: number[];
  /** accounts seen from the same IP address (and not already linked by the device) */
  byIp: number[];
}

export class AltDetector {
  constructor(
    private readonly db: AbuseReviewDb,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a sign-in and drops traces older than the longest window. */
  async recordSignIn(userId: number, ip: string | null, deviceHash: string, windows: AltWindows): Promise<void> {
    const now = this.now();
    await this.db
      .insertInto('sign_in_traces')
      .values({ user_id: userId, ip: ip ? ip.slice(0, 45) : null, device_hash: deviceHash, created_at: new Date(now).toISOString() })
      .execute();
    const keepMs = Math.max(windows.ipHours * 3_600_000, windows.deviceDays * 86_400_000);
    await this.db
      .deleteFrom('sign_in_traces')
      .where('created_at', '<', new Date(now - keepMs).toISOString())
      .execute();
  }

  /** Other accounts that signed in from this browser or this address within the windows. */
  async linkedAccounts(userId: number, ip: string | null, deviceHash: string, windows: AltWindows): Promise<LinkedAccounts> {
    const now = this.now();
    const deviceSince = new Date(now - windows.deviceDays * 86_400_000).toISOString();
    const byDevice = await this.db
      .selectFrom('sign_in_traces')
      .select('user_id')
      .distinct()
      .where('device_hash', '=', deviceHash)
      .where('created_at', '>=', deviceSince)
      .where('user_id', '!=', userId)
      .orderBy('user_id')
      .limit(50)
      .execute();
    let byIp: { user_id: number }[] = [];
    if (ip) {
      const ipSince = new Date(now - windows.ipHours * 3_600_000).toISOString();
      byIp = await this.db
        .selectFrom('sign_in_traces')
        .select('user_id')
        .distinct()
        .where('ip', '=', ip.slice(0, 45))
        .where('created_at', '>=', ipSince)
        .where('user_id', '!=', userId)
        .orderBy('user_id')
        .limit(50)
        .execute();
    }
    const deviceIds = byDevice.map((r) => r.user_id);
    const known = new Set(deviceIds);
    return { byDevice: deviceIds, byIp: byIp.map((r) => r.user_id).filter((id) => !known.has(id)) };
  }
}
