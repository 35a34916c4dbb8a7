// Session fixtures: the signed-in user a rendered plugin sees.
import type { SessionBilling, SessionStats, SessionUser } from '../client/stores/session';
import type { SessionResponse } from '../types';
import type { HttpReply } from './http';

/** A signed-in test user; every field has a plausible default. */
export interface TestSession {
  user?: Partial<SessionUser>;
  billing?: Partial<SessionBilling>;
  stats?: Partial<SessionStats>;
  permissions?: string[];
}

/** The answer GET /api/user/session gives for `session` (spec shape). */
export function testSessionResponse(session: TestSession = {}): SessionResponse {
  return {
    success: true,
    error_code: null,
    user_info: {
      uuid: '00000000-0000-4000-8000-000000000001',
      username: 'tester',
      email: 'tester@example.com',
      first_name: 'Test',
      last_name: 'User',
      avatar: null,
      background: null,
      role: 1,
      role_name: 'Default',
      verified: true,
      two_fa_enabled: false,
      created_at: '2025-01-01T00:00:00.000Z',
      ...session.user,
    },
    billing: { coins: 0, ram: 1024, disk: 1024, cpu: 100, ports: 2, databases: 1, backups: 5, server_slots: 1, ...session.billing },
    stats: { servers: 0, minutes_afk: 0, referrals: 0, ...session.stats },
    permissions: session.permissions ?? [],
  };
}

/** An http handler reply with the session answer for `session`. */
export function sessionReply(session: TestSession = {}): HttpReply {
  return { status: 200, body: testSessionResponse(session) };
}
