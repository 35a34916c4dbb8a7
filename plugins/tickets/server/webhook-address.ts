// Where a department webhook may point. An administrator types the address, the panel POSTs to it:
// without a guard that is a way to make the panel call its own network (a database's HTTP port, a
// cloud metadata service). So an address must be https:// and reach the public internet, unless the
// tickets_webhooks_allow_private setting allows a private or loopback receiver (a chat bot on the
// same host; the tests' stand-in), which also allows plain http:// there.
//
// A name is checked when it is saved and again on every delivery, on the very addresses the
// connection uses (guardedLookup): a name that resolved to a public address when it was saved and
// to 127.0.0.1 at send time (DNS rebinding) is refused then.
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** Not the public internet: this host, private networks, link-local (cloud metadata), CGNAT, multicast, reserved. */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-translated (NAT64) and documentation ranges; IPv4-mapped ones are unwrapped below
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** True for an address on the public internet; "::ffff:10.0.0.1" is judged as 10.0.0.1. */
export function isPublicAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1] : ip;
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type AddressProblem =
  /** not a URL, or not http(s) */
  | 'WEBHOOK_URL_INVALID'
  /** http:// while private receivers are not allowed */
  | 'WEBHOOK_URL_NOT_HTTPS'
  /** user:password@ in the address */
  | 'WEBHOOK_URL_CREDENTIALS'
  /** the name does not resolve */
  | 'WEBHOOK_HOST_UNKNOWN'
  /** a private, loopback or reserved address */
  | 'WEBHOOK_HOST_PRIVATE';

export class WebhookAddressError extends Error {
  constructor(
    readonly code: AddressProblem,
    message: string,
  ) {
    super(message);
  }
}

/** The host of a parsed URL as node resolves it ("[::1]" → "::1"). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Checks the address's form; the parsed URL, or a WebhookAddressError. */
export function parseWebhookUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookAddressError('WEBHOOK_URL_INVALID', 'The address is not a URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookAddressError('WEBHOOK_URL_INVALID', 'The address must start with https://.');
  if (url.protocol === 'http:' && !allowPrivate) throw new WebhookAddressError('WEBHOOK_URL_NOT_HTTPS', 'The address must start with https://.');
  if (url.username !== '' || url.password !== '')
    throw new WebhookAddressError('WEBHOOK_URL_CREDENTIALS', 'The address must not hold a user name or password; use the signing secret.');
  if (hostOf(url) === '') throw new WebhookAddressError('WEBHOOK_URL_INVALID', 'The address has no host.');
  return url;
}

function refusePrivate(address: string, host: string, allowPrivate: boolean): void {
  if (!allowPrivate && !isPublicAddress(address)) {
    throw new WebhookAddressError('WEBHOOK_HOST_PRIVATE', `${host} is a private or local address (${address}); webhooks go to the public internet only.`);
  }
}

const resolveAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/** Checks the address when it is saved: its form, and every address its host resolves to. */
export async function checkWebhookUrl(text: string, allowPrivate: boolean): Promise<URL> {
  const url = parseWebhookUrl(text, allowPrivate);
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    refusePrivate(host, host, allowPrivate);
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new WebhookAddressError('WEBHOOK_HOST_UNKNOWN', `${host} does not resolve.`);
  }
  if (addresses.length === 0) throw new WebhookAddressError('WEBHOOK_HOST_UNKNOWN', `${host} does not resolve.`);
  for (const { address } of addresses) refusePrivate(address, host, allowPrivate);
  return url;
}

/**
 * A `lookup` for http.request that resolves the name and refuses it when any address is not public,
 * so the connection goes only to an address that was checked (no second lookup an attacker's DNS
 * could answer differently). An IP literal is not looked up by node: check it with assertPublicHost.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
      if (error) return callback(error, '', 0);
      try {
        if (addresses.length === 0) throw new WebhookAddressError('WEBHOOK_HOST_UNKNOWN', `${hostname} does not resolve.`);
        for (const { address } of addresses) refusePrivate(address, hostname, allowPrivate);
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** At send time, for a host written as an IP address (node connects to it without a lookup). */
export function assertPublicHost(url: URL, allowPrivate: boolean): void {
  const host = hostOf(url);
  if (isIP(host) !== 0) refusePrivate(host, host, allowPrivate);
}
