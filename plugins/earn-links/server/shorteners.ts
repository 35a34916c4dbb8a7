// Turning the callback address into the provider's short link, each provider its real way:
// - Linkvertise has no API call: a "dynamic link" is built from the publisher's account id,
//   `<base>/<account id>/<any number>/dynamic?r=<base64 of the target address>`; Linkvertise
//   sends the visitor to the target once they are through.
// - ShareUs, LinkPays and GyaniLinks answer `GET <base>/api?api=<key>&url=<target>` with JSON,
//   `{ "status": "success", "shortenedUrl": "…" }` or `{ "status": "error", "message": … }`.
// The base addresses are settings, so tests point them at local stand-ins (tests/fixtures/shortener-*.ts).
import { randomInt } from 'node:crypto';
import type { LinkProviderId } from '../shared/providers';
import type { ProviderConfig } from './provider-config';

const TIMEOUT_MS = 10_000;

/** The provider could not be reached, refused, or answered something unusable (details for the log). */
export class ShortenerError extends Error {
  override readonly name = 'ShortenerError';
}

/** The provider lacks what it needs to make links (an account id or API key, a base address). */
export class ShortenerNotConfigured extends Error {
  override readonly name = 'ShortenerNotConfigured';
}

function httpAddress(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function base(config: ProviderConfig): string {
  if (!httpAddress(config.apiUrl)) throw new ShortenerNotConfigured(`${config.name}: no valid base address`);
  return config.apiUrl.replace(/\/+$/, '');
}

function linkvertiseLink(config: ProviderConfig, target: string): string {
  if (!/^\d{1,20}$/.test(config.credential)) throw new ShortenerNotConfigured('Linkvertise: the publisher account id is not set');
  const encoded = Buffer.from(encodeURI(target), 'utf8').toString('base64');
  return `${base(config)}/${config.credential}/${randomInt(1000)}/dynamic?r=${encodeURIComponent(encoded)}`;
}

/** The `message` of an error answer (a text, or a list of texts), for the log. */
function reason(body: Record<string, unknown>): string {
  const message = body.message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.filter((m) => typeof m === 'string').join('; ');
  return 'no message';
}

async function apiLink(config: ProviderConfig, target: string): Promise<string> {
  if (config.credential === '') throw new ShortenerNotConfigured(`${config.name}: the API key is not set`);
  const address = `${base(config)}/api?api=${encodeURIComponent(config.credential)}&url=${encodeURIComponent(target)}`;
  let response: Response;
  try {
    response = await fetch(address, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new ShortenerError(`${config.name} could not be reached: ${(error as Error).message}`);
  }
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ShortenerError(`${config.name} answered HTTP ${response.status} with a body that is not JSON`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ShortenerError(`${config.name} answered HTTP ${response.status} with unexpected JSON`);
  const answer = body as Record<string, unknown>;
  if (!response.ok || answer.status !== 'success') throw new ShortenerError(`${config.name} refused (HTTP ${response.status}): ${reason(answer)}`);
  const short = typeof answer.shortenedUrl === 'string' ? httpAddress(answer.shortenedUrl) : null;
  // the browser is sent there: nothing but an http(s) address will do
  if (!short) throw new ShortenerError(`${config.name} answered without a usable shortenedUrl`);
  return short.toString();
}

const SHORTENERS: Readonly<Record<LinkProviderId, (config: ProviderConfig, target: string) => Promise<string>>> = {
  linkvertise: async (config, target) => linkvertiseLink(config, target),
  shareus: apiLink,
  linkpays: apiLink,
  gyanilinks: apiLink,
};

/** The provider's short link to `target`. */
export function shorten(config: ProviderConfig, target: string): Promise<string> {
  return SHORTENERS[config.id](config, target);
}
