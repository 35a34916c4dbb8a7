// Cloudflare Turnstile, checked on the server. With the captcha_enabled setting on, register, login
// and forgot need a token (body field captcha_token) that Cloudflare's siteverify endpoint confirms;
// the request is refused before anything else happens (no account is looked up, nothing changes).
// It fails closed: a missing secret key, an unreachable siteverify or an answer that cannot be read
// refuses the request with 503 CAPTCHA_UNAVAILABLE — an outage never reads as a pass. A confirmed
// token must also have been solved on this panel (the hostname, when the panel's address is known)
// and on the same form (the widget's action), so a token solved elsewhere is refused. Tokens are
// single use: siteverify answers timeout-or-duplicate to a second check.
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { HttpError, ServerPluginContext } from '@orepanel/sdk/server';

/** The form a token was solved on; the client renders the widget with the same action. */
export type CaptchaAction = 'login' | 'register' | 'forgot';

/** The body field that carries the widget's token (Turnstile tokens are at most 2048 characters). */
export const captchaTokenProperty = { captcha_token: { type: 'string', maxLength: 2048 } } as const;

export interface CaptchaBody {
  captcha_token?: string;
}

const VERIFY_TIMEOUT_MS = 5_000;

/** siteverify error codes that mean the visitor's token is bad (solve again), not our setup */
const TOKEN_ERRORS = new Set(['missing-input-response', 'invalid-input-response', 'timeout-or-duplicate']);

type Verdict = { ok: true } | { ok: false; failure: 'failed' | 'unavailable'; reason: string };

interface SiteverifyAnswer {
  success?: unknown;
  'error-codes'?: unknown;
  hostname?: unknown;
  action?: unknown;
}

function errorCodes(answer: SiteverifyAnswer): string[] {
  const codes = answer['error-codes'];
  return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === 'string') : [];
}

export class TurnstileCaptcha {
  constructor(private readonly ctx: ServerPluginContext) {}

  /** The host name tokens must come from: the panel's public address, when one is configured. */
  private async expectedHostname(): Promise<string | null> {
    const address = this.ctx.config.appUrl ?? String((await this.ctx.settings.get('app_url')) ?? '');
    if (!address) return null;
    try {
      return new URL(address).hostname.toLowerCase();
    } catch {
      return null;
    }
  }

  /** Asks siteverify about one token. */
  async verify(token: string, remoteIp: string | null, action: CaptchaAction): Promise<Verdict> {
    const values = await this.ctx.settings.getMany(['turnstile_secret_key', 'turnstile_verify_url']);
    const secret = String(values.turnstile_secret_key ?? '');
    const url = String(values.turnstile_verify_url ?? '');
    if (!secret || !url) return { ok: false, failure: 'unavailable', reason: 'the Turnstile secret key or siteverify address is not set' };

    const form = new URLSearchParams({ secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    let answer: SiteverifyAnswer;
    try {
      const response = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS) });
      if (!response.ok) return { ok: false, failure: 'unavailable', reason: `siteverify answered HTTP ${response.status}` };
      const parsed = (await response.json()) as unknown;
      if (!parsed || typeof parsed !== 'object' || typeof (parsed as SiteverifyAnswer).success !== 'boolean') {
        return { ok: false, failure: 'unavailable', reason: 'siteverify answered something that is not a verdict' };
      }
      answer = parsed as SiteverifyAnswer;
    } catch (error) {
      return { ok: false, failure: 'unavailable', reason: `siteverify could not be reached: ${(error as Error).message}` };
    }

    if (answer.success !== true) {
      const codes = errorCodes(answer);
      // a bad secret, a malformed request or Cloudflare's own failure is not the visitor's fault
      const visitorsFault = codes.length > 0 && codes.every((c) => TOKEN_ERRORS.has(c));
      return { ok: false, failure: visitorsFault ? 'failed' : 'unavailable', reason: `siteverify refused: ${codes.join(', ') || 'no error code'}` };
    }
    const hostname = await this.expectedHostname();
    if (hostname !== null && (typeof answer.hostname !== 'string' || answer.hostname.toLowerCase() !== hostname)) {
      return { ok: false, failure: 'failed', reason: `the token was solved on ${String(answer.hostname)}, not ${hostname}` };
    }
    // a widget rendered without an action answers an empty one; any other action is another form's
    if (typeof answer.action === 'string' && answer.action !== '' && answer.action !== action) {
      return { ok: false, failure: 'failed', reason: `the token was solved for "${answer.action}", not "${action}"` };
    }
    return { ok: true };
  }

  private refusal(verdict: Exclude<Verdict, { ok: true }>): HttpError {
    if (verdict.failure === 'unavailable') {
      return this.ctx.httpError(503, 'CAPTCHA_UNAVAILABLE', 'The captcha cannot be checked right now. Please try again in a moment.');
    }
    return this.ctx.httpError(400, 'CAPTCHA_FAILED', 'The captcha check failed or has expired. Please solve it again.', 'captcha_token');
  }

  /** A route's preHandler (after the body is validated and the rate limits counted it). */
  guard(action: CaptchaAction): preHandlerAsyncHookHandler {
    return async (request: FastifyRequest) => {
      if ((await this.ctx.settings.get('captcha_enabled')) !== true) return;
      const token = (request.body as CaptchaBody | undefined)?.captcha_token?.trim() ?? '';
      if (token === '') throw this.ctx.httpError(400, 'CAPTCHA_REQUIRED', 'Please complete the captcha.', 'captcha_token');
      const verdict = await this.verify(token, request.ip ?? null, action);
      if (verdict.ok) return;
      if (verdict.failure === 'unavailable') this.ctx.log.error({ reason: verdict.reason }, 'the captcha could not be checked; the request was refused');
      else this.ctx.log.info({ reason: verdict.reason, action }, 'captcha refused');
      throw this.refusal(verdict);
    };
  }
}
