// Redaction of credentials in what the panel records about itself (the debug panel's network log,
// console capture, storage view). The reference panel kept every login form's password in memory and
// showed session cookies one keystroke away; here a value is replaced by REDACTED before it is ever
// stored, so nothing downstream (the panel, "copy as cURL", a screenshot) can leak it.
//
// What counts as a credential is decided by the name it is stored under: passwords, tokens, secrets,
// API and upload keys, authorization and cookie headers, session ids, one-time codes (TOTP, OTP,
// recovery and verification codes, and a plain `code` — except the `code` of the panel's error shape
// `{ error: { code } }`, which is what a developer needs to read).

/** What a redacted value is replaced with. */
export const REDACTED = '[redacted]';

/** Names that are a credential wherever they appear in the name (compared without case or separators). */
const SECRET_WORDS =
  /password|passwd|passphrase|secret|token|apikey|authorization|cookie|credential|sessionid|privatekey|accesskey|uploadkey|licen[cs]ekey|signingkey|encryptionkey|totp|recoverycode|backupcode/;
/** Whole names that are a credential. */
const SECRET_NAMES = new Set(['pass', 'pwd', 'pin', 'otp', 'hotp', 'mfa', 'twofa', '2fa', 'sid', 'code', 'signature']);
/** A `<something>code` that is a one-time code rather than a country, currency or error code. */
const ONE_TIME_CODE = /^(otp|twofa|2fa|mfa|verif\w*|verify|auth\w*|reset|confirm\w*|security|login|onetime|email|sms)code$/;

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Is `name` (a JSON key, header, query parameter, cookie or storage key) a credential? `parent` is the
 * key of the object that holds it: the `code` of an `error` object is the panel's error code, not a
 * one-time code.
 * @example isSecretName('password') // true
 * @example isSecretName('X-CSRF-Token') // true
 * @example isSecretName('code', 'error') // false
 */
export function isSecretName(name: string, parent?: string): boolean {
  const n = normalise(name);
  if (n === '') return false;
  if (n === 'code' && parent !== undefined && normalise(parent) === 'error') return false;
  return SECRET_NAMES.has(n) || SECRET_WORDS.test(n) || ONE_TIME_CODE.test(n) || n.startsWith('otp');
}

/** How deep {@link redactValue} walks before it stops copying (deeper values are summarised). */
const MAX_DEPTH = 12;

/**
 * A copy of a JSON-like value with every credential replaced by {@link REDACTED} (an object under a
 * credential's name is walked, its own keys decide). Null, empty strings and booleans are kept (that a field was empty or a flag was set is worth seeing, and neither is a
 * credential). Cycles and very deep values are cut.
 */
export function redactValue(value: unknown, parent?: string): unknown {
  return redactInner(value, parent, 0, new WeakSet());
}

function redactInner(value: unknown, parent: string | undefined, depth: number, seen: WeakSet<object>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[array]' : '[object]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactInner(item, parent, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // an object under a credential's name is walked (its own keys decide); anything else is hidden
    const hidden = isSecretName(key, parent) && item !== null && item !== '' && typeof item !== 'boolean' && (typeof item !== 'object' || Array.isArray(item));
    out[key] = hidden ? REDACTED : redactInner(item, key, depth + 1, seen);
  }
  return out;
}

/** `name: value` and `name=value` pairs, quoted or not, in free text. */
// names start where a name can start and are at most 64 characters: a long run of letters without a
// separator must not make the search quadratic
const PAIR = /(?<![A-Za-z0-9_.-])(["']?)([A-Za-z0-9_.-]{1,64})\1(\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s&,;}\]"']+)/g;
const BEARER = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{6,}/gi;

/**
 * Free text (a form body, a log line, a body that is not valid JSON) with the values of credential
 * pairs (`"password":"…"`, `token=…`, `Authorization: Bearer …`) replaced.
 */
export function redactText(text: string): string {
  return text.replace(BEARER, `$1 ${REDACTED}`).replace(PAIR, (whole, quote: string, name: string, separator: string, value: string) => {
    // "Authorization: Bearer …": the scheme stays, its credential was replaced above
    if (!isSecretName(name) || ['""', "''", 'null', 'true', 'false'].includes(value) || /^(bearer|basic|token)$/i.test(value)) return whole;
    const quoted = value.startsWith('"') || value.startsWith("'") ? `${value[0]}${REDACTED}${value[0]}` : REDACTED;
    return `${quote}${name}${quote}${separator}${quoted}`;
  });
}

/** A JSON text with its credentials redacted; text that is not JSON goes through {@link redactText}. */
export function redactJsonText(text: string): string {
  try {
    return JSON.stringify(redactValue(JSON.parse(text)));
  } catch {
    return redactText(text);
  }
}

/** A query string (`a=1&token=x`, with or without `?`) with the values of credential parameters replaced. */
export function redactQuery(query: string): string {
  const lead = query.startsWith('?') ? '?' : '';
  const body = lead ? query.slice(1) : query;
  if (body === '') return query;
  return (
    lead +
    body
      .split('&')
      .map((part) => {
        const at = part.indexOf('=');
        if (at < 0) return part;
        let name = part.slice(0, at);
        try {
          name = decodeURIComponent(name.replace(/\+/g, ' '));
        } catch {
          // a malformed escape: judge the raw name
        }
        return isSecretName(name) ? `${part.slice(0, at)}=${REDACTED}` : part;
      })
      .join('&')
  );
}

/** A URL (absolute or relative) with credential query parameters and any user:password part redacted. */
export function redactUrl(url: string): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : url.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  let base = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt < 0 ? '' : beforeHash.slice(queryAt);
  base = base.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, `$1${REDACTED}@`);
  return base + redactQuery(query) + hash;
}

/** Headers as a plain record (lower-case names) with credential headers redacted. */
export function redactHeaders(headers: Iterable<[string, string]> | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const pairs = Symbol.iterator in headers ? (headers as Iterable<[string, string]>) : Object.entries(headers);
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    out[lower] = isSecretName(lower) ? REDACTED : value;
  }
  return out;
}

/** The cookies of a `document.cookie` string, each credential's value redacted. */
export function redactCookies(cookie: string): { name: string; value: string }[] {
  return cookie
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const at = part.indexOf('=');
      const name = at < 0 ? '' : part.slice(0, at).trim();
      const value = at < 0 ? part : part.slice(at + 1);
      return { name, value: isSecretName(name) && value !== '' ? REDACTED : value };
    });
}

/** A stored value (local storage) shown safely: a credential's key hides it; JSON and text are redacted inside. */
export function redactStoredValue(key: string, value: string): string {
  if (isSecretName(key) && value !== '') return REDACTED;
  const trimmed = value.trimStart();
  return trimmed.startsWith('{') || trimmed.startsWith('[') ? redactJsonText(value) : redactText(value);
}
