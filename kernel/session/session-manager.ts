// The session, to the letter of spec §4, §8 and §9:
// - a session is valid while a user_token cookie exists;
// - at start: the cached permissions first, then GET /api/user/session (no-cache), then a refresh every
//   60 000 ms; only one fetch runs at a time;
// - a failed fetch (no answer, or a 5xx other than 503) is retried up to 3 times, 2 000 ms apart, never
//   on a 503 / SERVER_UNAVAILABLE;
// - the refresh stops when the cookie vanishes, on 503 and on a server error;
// - on a session error: the cookie variants and ALL local storage are cleared and the timer stops; then
//   TW0_FA_BLOCKED goes to /auth/2fa/verify without a dialog, anything else shows its dialog and goes
//   to /auth/login.
// Everything the outside world provides (fetch, timers, cookies, storage, dialogs, navigation) is
// injected, so the rules are tested with fake timers.
import type { SessionResponse } from '../../sdk/types';
import { clearSessionCookies, type CookieJar } from './cookies';
import { forgetSession, readCachedPermissions, readStoredRole, storeSession, type KeyValueStorage } from './session-storage';

/** spec §9 */
export const SESSION_REFRESH_MS = 60_000;
export const SESSION_MAX_RETRIES = 3;
export const SESSION_RETRY_DELAY_MS = 2_000;
export const SESSION_URL = '/api/user/session';
export const TWO_FA_BLOCKED = 'TW0_FA_BLOCKED';
export const TWO_FA_VERIFY_PATH = '/auth/2fa/verify';
export const LOGIN_PATH = '/auth/login';

/**
 * Which dialog a session error shows (spec §8):
 * - `unavailable`: 503 / SERVER_UNAVAILABLE — 'Server Unavailable'
 * - `invalid`: success false, or a server error during a refresh — 'Session Error'
 * - `start`: no session could be fetched at start, even after the retries — 'Error'
 */
export type SessionErrorKind = 'unavailable' | 'invalid' | 'start';

export interface SessionTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** The store the components read (the sdk's sessionStore actions). */
export interface SessionSink {
  beginFetch(): void;
  applyResponse(response: SessionResponse): void;
  applyCached(permissions: readonly string[], role: number | null): void;
  fail(code: string, message: string): void;
  clear(): void;
}

export interface SessionManagerDeps {
  fetch(url: string, init: RequestInit): Promise<Response>;
  cookies: CookieJar;
  storage: KeyValueStorage;
  timers: SessionTimers;
  /** where the browser is, for the cookie variants */
  location(): { hostname: string; pathname: string };
  sink: SessionSink;
  /** Shows the dialog of a session error; resolves when the user closed it. */
  showError(kind: SessionErrorKind): Promise<void>;
  navigate(path: string): void;
  /** After every successful fetch (the sessionLoaded hook). */
  onLoaded?(response: SessionResponse): void;
  /** After the session ended (the sessionCleared hook). */
  onCleared?(code: string | null): void;
  /** Reports what went wrong (console by default). */
  log?: Pick<Console, 'warn' | 'error'>;
  /** the name of the session cookie (spec §9: user_token) */
  cookieName?: string;
  /** The `stats` keys the plugins declare (their manifests), removed at logout with the core's. */
  pluginSessionKeys?(): readonly string[];
}

type Attempt =
  | { kind: 'ok'; body: SessionResponse }
  | { kind: 'rejected'; code: string; message: string }
  | { kind: 'unavailable' }
  | { kind: 'failed'; reason: 'network' | 'server'; status: number | null };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asSessionResponse(body: unknown): SessionResponse | null {
  if (!isRecord(body) || typeof body.success !== 'boolean') return null;
  return {
    success: body.success,
    error_code: typeof body.error_code === 'string' ? body.error_code : null,
    message: typeof body.message === 'string' ? body.message : undefined,
    user_info: isRecord(body.user_info) ? (body.user_info as SessionResponse['user_info']) : null,
    billing: isRecord(body.billing) ? (body.billing as SessionResponse['billing']) : null,
    stats: isRecord(body.stats) ? (body.stats as SessionResponse['stats']) : null,
    permissions: Array.isArray(body.permissions) ? body.permissions.filter((p): p is string => typeof p === 'string') : [],
  };
}

/** Why the session manager gave up on a fetch; thrown by refresh() so callers can stop. */
export class SessionEndedError extends Error {
  override readonly name = 'SessionEndedError';
  constructor(readonly code: string) {
    super(`The session ended (${code})`);
  }
}

export class SessionManager {
  private timer: unknown = null;
  private inFlight: Promise<void> | null = null;
  private started = false;
  private storedKeys = new Set<string>();
  /** the first fetch, sent while the app was still starting (prefetch); start() applies its answer */
  private early: Promise<Attempt> | null = null;
  /** that fetch's answer, once it came (read without waiting by applyEarlyAnswer) */
  private earlyResult: Attempt | null = null;
  /** the valid session applyEarlyAnswer put in place before the app was on screen; start() announces it */
  private appliedEarly: SessionResponse | null = null;
  private readonly cookieName: string;
  private readonly log: Pick<Console, 'warn' | 'error'>;

  constructor(private readonly deps: SessionManagerDeps) {
    this.cookieName = deps.cookieName ?? 'user_token';
    this.log = deps.log ?? console;
  }

  /** spec §4: a session is valid when a user_token cookie exists. */
  hasSession(): boolean {
    return this.deps.cookies.has(this.cookieName);
  }

  /**
   * Sends the first session fetch now, while the rest of the start-up runs, when the cookie exists.
   * Its answer waits for start(): nothing is applied — least of all a session error's "clear all
   * local storage" — before the app is on screen.
   */
  prefetch(): void {
    if (this.started || this.early || !this.hasSession()) return;
    const early = this.attempt();
    this.early = early;
    void early.then((answer) => {
      if (this.early === early) this.earlyResult = answer;
    });
  }

  /**
   * Resolves once the prefetched answer came, or after `maxMs` (at once when nothing was prefetched):
   * the mount step waits this long so that a signed-in page renders with its data, not a skeleton.
   */
  earlyAnswer(maxMs: number): Promise<void> {
    const early = this.early;
    if (!early || this.earlyResult) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = this.deps.timers.setTimeout(resolve, maxMs);
      void early.then(() => {
        this.deps.timers.clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Puts the prefetched answer in place now, without waiting, when it has come and is a valid session:
   * the app's first render then shows the signed-in page complete, with no second pass once start()
   * runs (issue 15). Anything else — no answer yet, a session error — is left for start(), so an
   * error's dialog and "clear all local storage" still come only once the app is on screen.
   */
  applyEarlyAnswer(): boolean {
    const answer = this.earlyResult;
    if (this.started || answer?.kind !== 'ok' || !this.hasSession()) return false;
    this.early = null;
    this.earlyResult = null;
    for (const key of storeSession(this.deps.storage, answer.body)) this.storedKeys.add(key);
    this.deps.sink.applyResponse(answer.body);
    this.appliedEarly = answer.body;
    return true;
  }

  /** True while the 60 s refresh timer runs. */
  get refreshing(): boolean {
    return this.timer !== null;
  }

  /**
   * Starts the session when the cookie exists: cached permissions, first fetch (with retries), then the
   * 60 s refresh. Resolves when the first fetch was handled (a failure is handled, not thrown).
   */
  async start(): Promise<void> {
    if (!this.hasSession()) {
      this.early = null;
      this.appliedEarly = null;
      return;
    }
    if (this.started) return this.refresh().catch(() => undefined);
    this.started = true;
    const early = this.appliedEarly;
    this.appliedEarly = null;
    if (early) {
      // the first fetch's answer is in place already (applyEarlyAnswer): announce it, then refresh
      this.deps.onLoaded?.(early);
      this.startTimer();
      return;
    }
    const { storage, sink } = this.deps;
    sink.applyCached(readCachedPermissions(storage), readStoredRole(storage));
    try {
      await this.fetchOnce('start');
    } catch {
      // handled (dialog + navigation) inside fetchOnce
      return;
    }
    if (this.started) this.startTimer();
  }

  /**
   * Fetches the session now, unless a fetch already runs (then it waits for that one). Rejects with
   * {@link SessionEndedError} when the session ended instead (the error was handled already).
   */
  refresh(): Promise<void> {
    if (!this.started) {
      // e.g. completeLogin() right after the login answer set the cookie
      return this.start().then(() => {
        if (!this.started) throw new SessionEndedError('NO_SESSION');
      });
    }
    return this.fetchOnce('refresh');
  }

  /** Ends the session locally (logout): cookies, the session's stored keys, timer. */
  clear(): void {
    this.stop();
    this.appliedEarly = null;
    const where = this.deps.location();
    clearSessionCookies(this.deps.cookies, where.hostname, where.pathname);
    forgetSession(this.deps.storage, this.storedKeys, this.deps.pluginSessionKeys?.() ?? []);
    this.storedKeys.clear();
    this.deps.sink.clear();
    this.deps.onCleared?.(null);
  }

  /** Stops the refresh timer (the session itself is left as it is). */
  stop(): void {
    if (this.timer !== null) this.deps.timers.clearInterval(this.timer);
    this.timer = null;
    this.started = false;
  }

  private startTimer(): void {
    if (this.timer !== null) return;
    this.timer = this.deps.timers.setInterval(() => {
      // spec §4: the refresh stops when the cookie vanishes
      if (!this.hasSession()) {
        this.stop();
        return;
      }
      this.fetchOnce('refresh').catch(() => undefined);
    }, SESSION_REFRESH_MS);
  }

  /** One fetch with its retries; concurrent callers share it (spec §4: one at a time). */
  private fetchOnce(phase: 'start' | 'refresh'): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const run = this.fetchAndApply(phase).finally(() => {
      this.inFlight = null;
    });
    this.inFlight = run;
    return run;
  }

  private async fetchAndApply(phase: 'start' | 'refresh'): Promise<void> {
    this.deps.sink.beginFetch();
    const result = await this.attemptWithRetries();
    switch (result.kind) {
      case 'ok':
        for (const key of storeSession(this.deps.storage, result.body)) this.storedKeys.add(key);
        this.deps.sink.applyResponse(result.body);
        this.deps.onLoaded?.(result.body);
        return;
      case 'rejected':
        await this.endWithError(result.code, result.message, 'invalid');
        throw new SessionEndedError(result.code);
      case 'unavailable':
        await this.endWithError('SERVER_UNAVAILABLE', 'The server is currently unavailable.', 'unavailable');
        throw new SessionEndedError('SERVER_UNAVAILABLE');
      case 'failed':
        if (phase === 'start') {
          this.log.error('Failed to start session', result);
          await this.endWithError(result.reason === 'server' ? 'SERVER_ERROR' : 'NETWORK_ERROR', 'Failed to start session.', 'start');
          throw new SessionEndedError('SESSION_START_FAILED');
        }
        if (result.reason === 'server') {
          // spec §8: a 5xx is handled as a session error; spec §4: the refresh stops
          await this.endWithError('SERVER_ERROR', 'The server failed to answer the session request.', 'invalid');
          throw new SessionEndedError('SERVER_ERROR');
        }
        // no answer at all (offline for a moment): keep the session and try again at the next tick
        this.log.warn('Session refresh failed: the server could not be reached; retrying at the next refresh');
        return;
    }
  }

  /** spec §4: up to 3 retries, 2 s apart, for failed fetches only. */
  private async attemptWithRetries(): Promise<Attempt> {
    const early = this.early;
    this.early = null;
    this.earlyResult = null;
    let attempt = await (early ?? this.attempt());
    for (let retry = 1; retry <= SESSION_MAX_RETRIES && attempt.kind === 'failed'; retry++) {
      await this.sleep(SESSION_RETRY_DELAY_MS);
      attempt = await this.attempt();
    }
    return attempt;
  }

  private async attempt(): Promise<Attempt> {
    let response: Response;
    try {
      // spec §7: no-cache headers
      response = await this.deps.fetch(SESSION_URL, {
        method: 'GET',
        credentials: 'same-origin',
        cache: 'no-store',
        headers: { Accept: 'application/json', 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
      });
    } catch {
      return { kind: 'failed', reason: 'network', status: null };
    }
    if (response.status === 503) return { kind: 'unavailable' };
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    const session = asSessionResponse(body);
    if (session?.error_code === 'SERVER_UNAVAILABLE') return { kind: 'unavailable' };
    if (response.status >= 500) return { kind: 'failed', reason: 'server', status: response.status };
    if (session?.success && response.ok && session.user_info) return { kind: 'ok', body: session };
    if (session) return { kind: 'rejected', code: session.error_code ?? 'INVALID_SESSION', message: session.message ?? 'Your session has expired or is invalid.' };
    if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string') {
      return { kind: 'rejected', code: body.error.code, message: String(body.error.message ?? body.error.code) };
    }
    // an answer that is not a session at all (a proxy's page, an empty body)
    return { kind: 'failed', reason: 'server', status: response.status };
  }

  /** spec §4: the session error path. */
  private async endWithError(code: string, message: string, kind: SessionErrorKind): Promise<void> {
    this.stop();
    const where = this.deps.location();
    clearSessionCookies(this.deps.cookies, where.hostname, where.pathname);
    try {
      this.deps.storage.clear();
    } catch {
      // storage blocked: nothing was stored either
    }
    this.storedKeys.clear();
    this.deps.sink.fail(code, message);
    this.deps.onCleared?.(code);
    if (code === TWO_FA_BLOCKED) {
      this.deps.navigate(TWO_FA_VERIFY_PATH);
      return;
    }
    try {
      await this.deps.showError(kind);
    } catch (error) {
      this.log.error('The session error dialog could not be shown', error);
    }
    this.deps.navigate(LOGIN_PATH);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.deps.timers.setTimeout(resolve, ms);
    });
  }
}
