import { afterEach, describe, expect, it, vi } from 'vitest';
import { setHttpFetch } from './http';
import { provideKernelServices, type KernelServices } from './kernel-services';
import { completeLogin, logout } from './session';
import { sessionStore } from './stores/session';

function fakeKernel(log: string[]): KernelServices {
  return {
    refreshSession: async () => void log.push('refresh'),
    clearSession: () => void log.push('clear'),
    navigate: (to, options) => void log.push(`navigate ${to}${options?.replace ? ' (replace)' : ''}`),
    loadLanguage: async () => {},
  };
}

afterEach(() => {
  setHttpFetch(null);
  vi.restoreAllMocks();
});

describe('session actions', () => {
  it('say clearly that they need a running kernel', async () => {
    await expect(completeLogin()).rejects.toThrow('No Orepanel kernel is running');
  });

  it('completeLogin refreshes the session, then goes to the after-login route (spec §2 rule 4)', async () => {
    const log: string[] = [];
    const stop = provideKernelServices(fakeKernel(log));
    await completeLogin();
    stop();
    expect(log).toEqual(['refresh', 'navigate /auth/after-login (replace)']);
  });

  it('completeLogin stops when the fresh session ended at once (2FA pending: the kernel already sent it to /auth/2fa/verify)', async () => {
    const log: string[] = [];
    const stop = provideKernelServices({
      ...fakeKernel(log),
      refreshSession: async () => {
        log.push('refresh');
        sessionStore.getState().fail('TW0_FA_BLOCKED', 'Two-factor verification needed.');
      },
    });
    await completeLogin();
    stop();
    expect(log).toEqual(['refresh']);
  });

  it('logout revokes the session on the server, clears it locally and goes to login', async () => {
    const log: string[] = [];
    const stop = provideKernelServices(fakeKernel(log));
    setHttpFetch(async (url, init) => {
      log.push(`${init.method} ${url}`);
      return new Response('{"success":true}', { headers: { 'content-type': 'application/json' } });
    });
    await logout();
    stop();
    expect(log).toEqual(['POST /api/user/auth/logout', 'clear', 'navigate /auth/login (replace)']);
    expect(sessionStore.getState().loggedIn).toBe(false);
  });

  it('logout still clears locally when the server cannot be reached', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const log: string[] = [];
    const stop = provideKernelServices(fakeKernel(log));
    setHttpFetch(() => Promise.reject(new TypeError('offline')));
    await logout();
    stop();
    expect(log).toEqual(['clear', 'navigate /auth/login (replace)']);
  });
});
