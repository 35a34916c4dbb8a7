// Talking to a payment provider: node's fetch with a time limit, the answer read as JSON whatever
// the status (both providers explain failures in JSON bodies), and one error type for "the provider
// could not be reached or said no" that the routes turn into a 502 without leaking the provider's
// words to the buyer (they go to the log).
import type { PaymentProvider } from '../shared/money';

const TIMEOUT_MS = 15_000;

export class PaymentProviderError extends Error {
  override readonly name = 'PaymentProviderError';
  constructor(
    readonly provider: PaymentProvider,
    /** the provider's HTTP status; 0 when it could not be reached or answered something unreadable */
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ProviderAnswer {
  status: number;
  body: unknown;
}

export async function providerRequest(provider: PaymentProvider, url: string, init: RequestInit): Promise<ProviderAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new PaymentProviderError(provider, 0, `${provider} could not be reached: ${(error as Error).message}`);
  }
  const text = await response.text().catch(() => '');
  if (text === '') return { status: response.status, body: null };
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new PaymentProviderError(provider, response.status, `${provider} answered HTTP ${response.status} with a body that is not JSON`);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(value: unknown, key: string): string | null {
  return isRecord(value) && typeof value[key] === 'string' ? value[key] : null;
}

/** The address `path` under a configured API base address (which may carry a path of its own). */
export function apiUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
