// Asks a VPN/proxy checker about a client address, over the proxycheck.io v2 API:
//   GET {vpn_check_url}/{ip}?vpn=1[&key=…]  →  { "status": "ok", "<ip>": { "proxy": "yes", "type": "VPN" } }
// The answer is 'vpn', 'clean' or 'unchecked'. A checker that is down, slow, out of quota or answers
// something unreadable gives 'unchecked' — the caller fails open (the sign-in goes on; the account is
// flagged so an administrator knows it was never checked). Definite answers are cached per address
// for a few hours, so a busy login page does not spend the checker's daily quota.
import { BlockList, isIP } from 'node:net';

export type VpnVerdict = { result: 'vpn'; detail: string } | { result: 'clean' } | { result: 'unchecked'; detail: string };

export interface VpnCheckerOptions {
  timeoutMs?: number;
  cacheTtlMs?: number;
  /** most addresses kept in the cache */
  cacheSize?: number;
  now?: () => number;
}

/** Addresses no checker can say anything about: loopback, private, link-local, carrier NAT. */
const NOT_PUBLIC = new BlockList();
NOT_PUBLIC.addSubnet('0.0.0.0', 8, 'ipv4');
NOT_PUBLIC.addSubnet('10.0.0.0', 8, 'ipv4');
NOT_PUBLIC.addSubnet('100.64.0.0', 10, 'ipv4');
NOT_PUBLIC.addSubnet('127.0.0.0', 8, 'ipv4');
NOT_PUBLIC.addSubnet('169.254.0.0', 16, 'ipv4');
NOT_PUBLIC.addSubnet('172.16.0.0', 12, 'ipv4');
NOT_PUBLIC.addSubnet('192.168.0.0', 16, 'ipv4');
NOT_PUBLIC.addAddress('::', 'ipv6');
NOT_PUBLIC.addAddress('::1', 'ipv6');
NOT_PUBLIC.addSubnet('fc00::', 7, 'ipv6');
NOT_PUBLIC.addSubnet('fe80::', 10, 'ipv6');

/** "::ffff:1.2.3.4" (an IPv4 client on a dual-stack socket) as "1.2.3.4". */
export function plainAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1] : ip;
}

/** True for an address on the public internet (the only kind a VPN checker can judge). */
export function isPublicAddress(ip: string): boolean {
  const address = plainAddress(ip);
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

interface ProxycheckEntry {
  proxy?: unknown;
  type?: unknown;
}

export class VpnChecker {
  private readonly cache = new Map<string, { verdict: VpnVerdict; until: number }>();
  private readonly timeoutMs: number;
  private readonly cacheTtlMs: number;
  private readonly cacheSize: number;
  private readonly now: () => number;

  constructor(options: VpnCheckerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.cacheTtlMs = options.cacheTtlMs ?? 6 * 3_600_000;
    this.cacheSize = options.cacheSize ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  async check(ip: string, baseUrl: string, apiKey: string): Promise<VpnVerdict> {
    const address = plainAddress(ip);
    const cached = this.cache.get(address);
    if (cached && cached.until > this.now()) return cached.verdict;
    if (cached) this.cache.delete(address);
    const verdict = await this.ask(address, baseUrl, apiKey);
    if (verdict.result !== 'unchecked') this.remember(address, verdict);
    return verdict;
  }

  private remember(address: string, verdict: VpnVerdict): void {
    // a Map keeps insertion order: the oldest entry goes first
    if (this.cache.size >= this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(address, { verdict, until: this.now() + this.cacheTtlMs });
  }

  private async ask(address: string, baseUrl: string, apiKey: string): Promise<VpnVerdict> {
    if (!baseUrl) return { result: 'unchecked', detail: 'no checker address is set' };
    // only digits, hex, dots and colons from here on: safe in a path as they are
    if (isIP(address) === 0) return { result: 'unchecked', detail: 'not an IP address' };
    let url: URL;
    try {
      url = new URL(`${baseUrl.replace(/\/+$/, '')}/${address}`);
    } catch {
      return { result: 'unchecked', detail: 'the checker address is not a valid URL' };
    }
    url.searchParams.set('vpn', '1');
    if (apiKey) url.searchParams.set('key', apiKey);
    let body: unknown;
    try {
      const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs) });
      if (!response.ok) return { result: 'unchecked', detail: `checker answered HTTP ${response.status}` };
      body = await response.json();
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? 'checker timed out' : 'checker unreachable or unreadable';
      return { result: 'unchecked', detail: reason };
    }
    if (!body || typeof body !== 'object') return { result: 'unchecked', detail: 'checker answer unreadable' };
    const answer = body as Record<string, unknown>;
    // "warning" still carries a verdict (e.g. a key close to its limit); "denied"/"error" do not
    if (answer.status !== 'ok' && answer.status !== 'warning') return { result: 'unchecked', detail: `checker status ${String(answer.status).slice(0, 32)}` };
    const entry = answer[address] as ProxycheckEntry | undefined;
    if (!entry || typeof entry !== 'object') return { result: 'unchecked', detail: 'checker answer has no verdict' };
    if (entry.proxy === 'yes') return { result: 'vpn', detail: typeof entry.type === 'string' && entry.type ? entry.type.slice(0, 32) : 'proxy' };
    if (entry.proxy === 'no') return { result: 'clean' };
    return { result: 'unchecked', detail: 'checker answer has no verdict' };
  }
}
