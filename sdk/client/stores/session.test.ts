import { beforeEach, describe, expect, it, vi } from 'vitest';
import { kernelEvents } from '../events';
import { sessionSnapshot, sessionStore } from './session';

const ok = {
  success: true,
  error_code: null,
  user_info: {
    uuid: 'u1',
    username: 'alice',
    email: 'a@example.com',
    first_name: 'A',
    last_name: 'L',
    avatar: '',
    background: null,
    role: '8',
    role_name: 'Administrator',
    verified: 1,
    two_fa_enabled: false,
    created_at: '2025-01-01',
  },
  billing: { coins: '42', ram: 1024, disk: 2048, cpu: 100, ports: 2, databases: 1, backups: 5, server_slots: 1 },
  stats: { servers: 1, minutes_afk: 30, referrals: 0 },
  permissions: ['admin.root'],
};

beforeEach(() => sessionStore.getState().clear());

describe('sessionStore', () => {
  it('applies a successful session answer, normalising numbers and flags', () => {
    sessionStore.getState().applyResponse(ok);
    const s = sessionStore.getState();
    expect(s.status).toBe('ready');
    expect(s.loggedIn).toBe(true);
    expect(s.role).toBe(8);
    expect(s.user).toMatchObject({ uuid: 'u1', username: 'alice', role: 8, verified: true, avatar: null });
    expect(s.billing?.coins).toBe(42);
    expect(s.stats?.minutes_afk).toBe(30);
    expect(sessionSnapshot().permissions).toEqual(['admin.root']);
  });

  it('a success:false answer is a session error and signs out', () => {
    sessionStore.getState().applyResponse(ok);
    sessionStore.getState().applyResponse({ success: false, error_code: 'INVALID_SESSION', message: 'expired', user_info: null, billing: null, stats: null, permissions: [] });
    const s = sessionStore.getState();
    expect(s.status).toBe('error');
    expect(s.loggedIn).toBe(false);
    expect(s.error).toEqual({ code: 'INVALID_SESSION', message: 'expired' });
  });

  it('keeps a loaded session on screen while it refreshes', () => {
    sessionStore.getState().beginFetch();
    expect(sessionStore.getState().status).toBe('loading');
    sessionStore.getState().applyResponse(ok);
    sessionStore.getState().beginFetch();
    expect(sessionStore.getState().status).toBe('ready');
  });

  it('emits session:changed when who is signed in changes, not on an identical refresh', () => {
    const seen = vi.fn();
    kernelEvents.on('session:changed', seen);
    sessionStore.getState().applyResponse(ok);
    sessionStore.getState().applyResponse(ok);
    sessionStore.getState().clear();
    kernelEvents.off('session:changed', seen);
    expect(seen).toHaveBeenCalledTimes(2);
    expect(seen.mock.calls[0][0]).toEqual({ loggedIn: true, uuid: 'u1', role: 8, permissions: ['admin.root'] });
    expect(seen.mock.calls[1][0]).toEqual({ loggedIn: false, uuid: null, role: null, permissions: [] });
  });

  it('applies cached permissions before the first fetch (spec §4)', () => {
    sessionStore.getState().applyCached(['admin.users.list'], 4);
    expect(sessionStore.getState().permissions).toEqual(['admin.users.list']);
    expect(sessionStore.getState().role).toBe(4);
  });
});
