// "Copy as cURL" for a recorded request. What was recorded is already redacted: a header whose value
// was redacted (authorization, cookie, CSRF token) is left out rather than sent as "[redacted]", and a
// body keeps its redacted fields, so the command never carries a credential.
import { REDACTED, type NetworkEntry } from '@orepanel/sdk';

/** A shell word in single quotes (a quote inside becomes '\''). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** Bodies the recorder described instead of recording ("[file …]", "[binary, 12 bytes]"). */
const DESCRIBED = /^\[[^\]]*\]$/;

/** The request as a curl command; `origin` makes a relative URL absolute. */
export function curlCommand(entry: Pick<NetworkEntry, 'method' | 'url' | 'requestHeaders' | 'requestBody'>, origin: string): string {
  let url = entry.url;
  try {
    url = new URL(entry.url, origin).href;
  } catch {
    // keep the recorded text
  }
  // --globoff: "[redacted]" in a URL is text, not a curl range
  const parts = ['curl', '--globoff'];
  if (entry.method !== 'GET') parts.push('-X', entry.method);
  parts.push(shellQuote(url));
  for (const [name, value] of Object.entries(entry.requestHeaders)) {
    if (value === REDACTED) continue;
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (entry.requestBody && !DESCRIBED.test(entry.requestBody)) parts.push('--data-raw', shellQuote(entry.requestBody));
  return parts.join(' ');
}
