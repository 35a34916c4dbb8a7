// One request to the panel's Application API: the settings read now (an administrator may change
// the address or the key at any time), a timeout per attempt, and retries with exponential backoff
// and jitter — honouring the panel's Retry-After / X-RateLimit-Reset on 429. A request that creates
// something is not repeated after an uncertain failure (timeout, dropped connection, 5xx): the
// caller gets `uncertain: true` and reconciles by external id instead.
import type { PanelError } from '../../sdk/pterodactyl';
import { errorFromAnswer, errorFromConnection, panelError, timeoutError } from './panel-error';

export interface PanelTuning {
  /** one attempt's limit (default 15 s) */
  timeoutMs?: number;
  /** the first retry's wait; each next one doubles (default 500 ms) */
  backoffBaseMs?: number;
  /** retries after the first attempt (default 3) */
  retries?: number;
  /** the longest Retry-After the client waits out; a longer one fails as PANEL_RATE_LIMITED (default 60 s) */
  maxRetryWaitMs?: number;
  /** items per page when walking a list (default 100, the panel's maximum) */
  pageSize?: number;
  /** how the client waits between attempts (tests record the waits instead of spending them) */
  sleep?: (ms: number) => Promise<void>;
}

export interface PanelConnection {
  /** the panel's address without a trailing slash, '' when not set */
  baseUrl: string;
  apiKey: string;
}

export interface PanelRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** the path after /api/application, with its query */
  path: string;
  body?: unknown;
  /**
   * Safe to send again after an uncertain failure (reads, updates to a stated value, suspend,
   * delete). Creations are not: the panel may have made the thing already.
   */
  idempotent: boolean;
  /** overrides the retries (the connection test makes one attempt) */
  retries?: number;
  /** overrides the timeout of an attempt (the health page waits less) */
  timeoutMs?: number;
}

export interface PanelAnswer {
  status: number;
  body: unknown;
}

const DEFAULTS = { timeoutMs: 15_000, backoffBaseMs: 500, retries: 3, maxRetryWaitMs: 60_000, pageSize: 100 };

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `https://panel.example.com/` or `…/api/application` → `https://panel.example.com` */
export function normaliseBaseUrl(value: string): string {
  return value
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/api\/application$/i, '');
}

export class PanelTransport {
  readonly timeoutMs: number;
  readonly backoffBaseMs: number;
  readonly retries: number;
  readonly maxRetryWaitMs: number;
  readonly pageSize: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly connection: () => Promise<PanelConnection>,
    tuning: PanelTuning = {},
  ) {
    this.timeoutMs = tuning.timeoutMs ?? DEFAULTS.timeoutMs;
    this.backoffBaseMs = tuning.backoffBaseMs ?? DEFAULTS.backoffBaseMs;
    this.retries = tuning.retries ?? DEFAULTS.retries;
    this.maxRetryWaitMs = tuning.maxRetryWaitMs ?? DEFAULTS.maxRetryWaitMs;
    this.pageSize = tuning.pageSize ?? DEFAULTS.pageSize;
    this.sleep = tuning.sleep ?? realSleep;
  }

  async settings(): Promise<PanelConnection> {
    return this.connection();
  }

  async configured(): Promise<PanelConnection | null> {
    const c = await this.connection();
    return c.baseUrl !== '' && c.apiKey !== '' ? c : null;
  }

  private backoff(attempt: number): number {
    // full exponential step, then jitter in its upper half: instances that failed together spread out
    const step = this.backoffBaseMs * 2 ** attempt;
    return Math.round(step / 2 + Math.random() * (step / 2));
  }

  /** How long the panel asks us to wait before the next request (null: it did not say). */
  private rateLimitWait(headers: Headers): number | null {
    const retryAfter = headers.get('retry-after');
    if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter) * 1000;
    if (retryAfter) {
      const at = Date.parse(retryAfter);
      if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
    }
    const reset = headers.get('x-ratelimit-reset');
    if (reset !== null && /^\d+$/.test(reset.trim())) return Math.max(0, Number(reset) * 1000 - Date.now());
    return null;
  }

  private async attempt(connection: PanelConnection, request: PanelRequest): Promise<{ response: Response; body: unknown } | PanelError> {
    const controller = new AbortController();
    const timeoutMs = request.timeoutMs ?? this.timeoutMs;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const mayHaveActed = request.method !== 'GET';
    try {
      const response = await fetch(`${connection.baseUrl}/api/application${request.path}`, {
        method: request.method,
        headers: {
          authorization: `Bearer ${connection.apiKey}`,
          accept: 'application/json',
          ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
        signal: controller.signal,
        redirect: 'manual',
      });
      const text = await response.text();
      let body: unknown = null;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          // a proxy's HTML page (502/503), or not the panel at all
          body = null;
          if (response.ok)
            return panelError({ code: 'PANEL_ERROR', status: response.status, detail: 'The panel answered with something that is not JSON (is the address the panel’s?).' });
        }
      }
      return { response, body };
    } catch (error) {
      if (controller.signal.aborted) return timeoutError(timeoutMs, mayHaveActed);
      return errorFromConnection(error, mayHaveActed);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends `request`; resolves with a 2xx answer, rejects with a PanelError. */
  async send(request: PanelRequest): Promise<PanelAnswer> {
    const connection = await this.configured();
    if (!connection) throw panelError({ code: 'PANEL_NOT_CONFIGURED', detail: 'The Pterodactyl panel address or application key is not set.' });
    const retries = request.retries ?? this.retries;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(connection, request);
      let failure: PanelError;
      let wait = this.backoff(attempt);
      if (!(outcome instanceof Error)) {
        const { response, body } = outcome;
        if (response.ok) return { status: response.status, body };
        if (response.status >= 300 && response.status < 400) {
          // e.g. http:// → https://: following it would resend the key to wherever it points
          const location = response.headers.get('location') ?? '?';
          throw panelError({ code: 'PANEL_ERROR', status: response.status, detail: `The panel address redirects to ${location}: set the address it redirects to.` });
        }
        failure = errorFromAnswer(response.status, body, request.method !== 'GET');
        const asked = this.rateLimitWait(response.headers);
        if (response.status === 429) {
          // the throttle refuses before anything is done: even a creation may be sent again
          if (asked !== null && asked > this.maxRetryWaitMs) throw failure;
          if (asked !== null) wait = Math.max(wait, asked);
          if (attempt >= retries) throw failure;
          await this.sleep(wait);
          continue;
        }
        // a 503 during maintenance may say when to come back
        if (asked !== null && asked <= this.maxRetryWaitMs) wait = Math.max(wait, asked);
      } else {
        failure = outcome;
      }
      if (!failure.transient || attempt >= retries) throw failure;
      // an uncertain failure of a creation must not be repeated blindly
      if (failure.uncertain && !request.idempotent) throw failure;
      await this.sleep(wait);
    }
  }
}
