// The catalogue of bad input the route-walking fuzz test sends, generated from a route's own schemas
// (the route registry keeps them): for each body property, query parameter and path parameter, values
// its schema refuses — wrong types, numeric and boolean strings, one-item arrays, non-finite, huge,
// negative and fractional numbers, 100 KB strings, NUL bytes — plus missing and extra fields,
// `__proto__` / `constructor` keys, malformed JSON and the wrong content type. Every case is input
// the route must refuse; the test asserts a 4xx for each and that nothing changed.
import type { RegisteredRoute } from '../../server/http/route-registry';

export interface FuzzCase {
  label: string;
  url: string;
  /** the raw body text (so 1e309 can be sent as JSON sends it) */
  payload?: string;
  contentType?: string;
}

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const typesOf = (schema: Schema): string[] => (typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : []);
const propertiesOf = (schema: unknown): [string, Schema][] =>
  isSchema(schema) && isSchema(schema.properties) ? Object.entries(schema.properties).filter((e): e is [string, Schema] => isSchema(e[1])) : [];
const requiredOf = (schema: unknown): string[] => (isSchema(schema) && Array.isArray(schema.required) ? (schema.required as string[]) : []);

const HUGE_TEXT = 'x'.repeat(100 * 1024);
const A_UUID = '0f0e0d0c-0b0a-4000-8000-000000000001';

/** A value the schema most likely accepts: the base that each case spoils in one place. */
export function plausible(schema: Schema): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.anyOf) && isSchema(schema.anyOf[0])) return plausible(schema.anyOf[0]);
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
    const max = typeof schema.maximum === 'number' ? schema.maximum : min;
    return Math.min(Math.max(1, min), max);
  }
  if (types.includes('boolean')) return false;
  if (types.includes('array')) {
    const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
    return Array.from({ length: count }, () => (isSchema(schema.items) ? plausible(schema.items) : 'a'));
  }
  if (types.includes('object') || isSchema(schema.properties)) {
    return Object.fromEntries(requiredOf(schema).map((name) => [name, plausible(propertiesOf(schema).find(([n]) => n === name)?.[1] ?? {})]));
  }
  // a backup archive's name (the backups plugin's routes): valid, so the body's cases reach the body
  if (typeof schema.pattern === 'string' && schema.pattern.endsWith('\\.opbk$')) return 'orepanel-20260101-000000-manual.opbk';
  if (typeof schema.pattern === 'string' && schema.pattern.includes('{8}-')) return A_UUID;
  const length = typeof schema.minLength === 'number' ? Math.max(schema.minLength, 1) : 1;
  return 'a'.repeat(length);
}

/** Raw JSON texts the schema refuses, each with a label. */
export function refusedJson(schema: Schema): [string, string][] {
  if (Array.isArray(schema.enum) || 'const' in schema)
    return [
      ['not a choice', '"zz-not-a-choice"'],
      ['array', '[]'],
    ];
  if (Array.isArray(schema.anyOf)) return [['object', '{"zz":1}']];
  const types = typesOf(schema);
  const nullable = types.includes('null');
  const out: [string, string][] = [];
  if (!nullable) out.push(['null', 'null']);
  if (types.includes('integer') || types.includes('number')) {
    out.push(['numeric string', '"5"'], ['one-item array', '[5]'], ['boolean', 'true'], ['boolean string', '"true"'], ['+Infinity', '1e309'], ['-Infinity', '-1e309']);
    if (typeof schema.maximum === 'number') out.push(['above maximum', String(schema.maximum + 1)], ['huge', '1e300']);
    if (typeof schema.minimum === 'number') out.push(['below minimum', String(schema.minimum - 1)], ['very negative', '-1e300']);
    if (types.includes('integer')) out.push(['fraction', typeof schema.minimum === 'number' ? String(schema.minimum + 0.5) : '0.5']);
  } else if (types.includes('string')) {
    out.push(['number', '5'], ['boolean', 'true'], ['array', '["a"]'], ['object', '{}'], ['NUL byte', '"a\\u0000b"']);
    if (typeof schema.maxLength !== 'number' || schema.maxLength < HUGE_TEXT.length) out.push(['100 KB string', JSON.stringify(HUGE_TEXT)]);
    if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push(['empty string', '""']);
  } else if (types.includes('boolean')) {
    out.push(['boolean string', '"true"'], ['number', '1'], ['numeric string', '"1"']);
  } else if (types.includes('array')) {
    out.push(['string', '"a"'], ['object', '{}']);
    if (typeof schema.maxItems === 'number' && schema.maxItems < 10_000 && isSchema(schema.items)) {
      out.push(['too many items', JSON.stringify(Array.from({ length: schema.maxItems + 1 }, () => plausible(schema.items as Schema)))]);
    }
    if (isSchema(schema.items)) for (const [label, text] of refusedJson(schema.items).slice(0, 3)) out.push([`item: ${label}`, `[${text}]`]);
  } else if (types.includes('object') || isSchema(schema.properties)) {
    out.push(['string', '"a"'], ['array', '[]'], ['extra field', JSON.stringify({ ...(plausible(schema) as object), zz_extra: 1 })]);
  }
  return out;
}

/** Query or path texts (already URL-encoded) the schema refuses. */
export function refusedText(schema: Schema, inPath: boolean): [string, string][] {
  if (Array.isArray(schema.enum)) return [['not a choice', 'zz-not-a-choice']];
  const types = typesOf(schema);
  const out: [string, string][] = [];
  if (types.includes('integer') || types.includes('number')) {
    out.push(
      ['1e309', '1e309'],
      ['Infinity', 'Infinity'],
      ['NaN', 'NaN'],
      ['hex', '0x10'],
      ['padded', '%205'],
      ['word', 'abc'],
      ['exponent', '1e3'],
      ['too long', '99999999999999999999'],
    );
    if (typeof schema.maximum === 'number' && schema.maximum < 1e15) out.push(['above maximum', String(schema.maximum + 1)]);
    if (typeof schema.minimum === 'number') out.push(['below minimum', String(schema.minimum - 1)]);
    if (types.includes('integer')) out.push(['fraction', '1.5']);
  } else if (types.includes('boolean')) {
    out.push(['1', '1'], ['yes', 'yes'], ['empty', '']);
  } else if (types.includes('string')) {
    out.push(['NUL byte', 'a%00b']);
    // a path segment longer than the router takes is a 414 before the schema; in a query, 100 KB
    if (inPath) out.push(['over-long segment', 'x'.repeat(300)]);
    else if (typeof schema.maxLength !== 'number' || schema.maxLength < HUGE_TEXT.length) out.push(['100 KB', HUGE_TEXT]);
    // prototype names are refused where the pattern refuses them (a tag pattern of lower-case words takes "constructor" as a word)
    if (typeof schema.pattern === 'string') for (const word of ['__proto__', 'constructor']) if (!new RegExp(schema.pattern, 'u').test(word)) out.push([word, word]);
  }
  return out;
}

function plausibleText(schema: Schema): string {
  const value = plausible(schema);
  return encodeURIComponent(Array.isArray(value) ? String(value[0] ?? 'a') : String(value));
}

function urlWith(route: RegisteredRoute, params: Record<string, string>, query: string): string {
  const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => params[name] ?? '1');
  return query ? `${path}?${query}` : path;
}

const BOUNDARY = 'fuzzBoundary7MA4YWxk';

/** A multipart body (ASCII only, so the string is the bytes) with text fields and files. */
function multipartText(fields: Record<string, string>, files: { name: string; content: string; claim: string }[]): string {
  const parts = Object.entries(fields).map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  for (const file of files) {
    parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.claim}\r\n\r\n${file.content}\r\n`);
  }
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

/**
 * An upload route's forms it must refuse: plausible fields with a file that is no accepted type
 * (an executable's bytes named as an image), one with an HTML page named as an image, and a form
 * cut short.
 */
export function uploadCases(url: string, base: unknown): FuzzCase[] {
  const fields = Object.fromEntries(Object.entries(isSchema(base) ? base : {}).map(([name, value]) => [name, String(value)]));
  const contentType = `multipart/form-data; boundary=${BOUNDARY}`;
  return [
    {
      label: 'form: an executable named as an image',
      url,
      contentType,
      payload: multipartText(fields, [{ name: 'cat.png', content: 'MZ\u0000\u0000PE\u0000\u0000', claim: 'image/png' }]),
    },
    {
      label: 'form: an HTML page named as an image',
      url,
      contentType,
      payload: multipartText(fields, [{ name: 'cat.png', content: '<html><script>alert(1)</script></html>', claim: 'image/png' }]),
    },
    { label: 'form: cut short', url, contentType, payload: multipartText(fields, []).slice(0, 40) },
  ];
}

/** The cases for one route. */
export function casesFor(route: RegisteredRoute): FuzzCase[] {
  const paramSchemas = Object.fromEntries(propertiesOf(route.input.params));
  const baseParams = Object.fromEntries(Object.entries(paramSchemas).map(([name, schema]) => [name, plausibleText(schema)]));
  for (const name of route.url.match(/:([A-Za-z0-9_]+)/g) ?? []) baseParams[name.slice(1)] ??= '1';
  const queryProps = propertiesOf(route.input.querystring);
  const requiredQuery = new Set(requiredOf(route.input.querystring));
  const baseQuery = queryProps.filter(([name]) => requiredQuery.has(name)).map(([name, schema]) => `${name}=${plausibleText(schema)}`);
  const query = (extra: string[] = [], without?: string) => [...baseQuery.filter((q) => !q.startsWith(`${without}=`)), ...extra].join('&');
  const url = urlWith(route, baseParams, query());
  const cases: FuzzCase[] = [];

  for (const [name, schema] of Object.entries(paramSchemas)) {
    for (const [label, text] of refusedText(schema, true)) cases.push({ label: `param ${name}: ${label}`, url: urlWith(route, { ...baseParams, [name]: text }, query()) });
  }
  for (const [name, schema] of queryProps) {
    for (const [label, text] of refusedText(schema, false)) {
      cases.push({ label: `query ${name}: ${label}`, url: urlWith(route, baseParams, query([`${name}=${text}`], name)) });
    }
    if (!typesOf(schema).includes('array'))
      cases.push({ label: `query ${name}: repeated`, url: urlWith(route, baseParams, query([`${name}=${plausibleText(schema)}`, `${name}=${plausibleText(schema)}`], name)) });
  }
  cases.push({ label: 'query: unknown parameter', url: urlWith(route, baseParams, query(['zz_extra=1'])) });
  cases.push({ label: 'query: __proto__', url: urlWith(route, baseParams, query(['__proto__=1'])) });
  for (const name of requiredQuery) cases.push({ label: `query ${name}: missing`, url: urlWith(route, baseParams, query([], name)) });

  if (route.method === 'GET' || route.method === 'HEAD') return cases;
  const body = route.input.body;
  if (route.upload !== undefined) cases.push(...uploadCases(url, isSchema(body) ? plausible(body) : {}));
  if (!isSchema(body)) {
    cases.push({ label: 'body to a route that takes none', url, payload: '{"zz_extra":1}', contentType: 'application/json' });
    cases.push({ label: 'text body to a route that takes none', url, payload: 'hello', contentType: 'text/plain' });
    return cases;
  }
  const base = plausible(body);
  if (!isSchema(base)) return cases;
  const text = JSON.stringify(base);
  const json = (label: string, payload: string) => cases.push({ label: `body: ${label}`, url, payload, contentType: 'application/json' });
  json('malformed JSON', text.slice(0, -1));
  json('array', '[]');
  json('string', '"a"');
  json('number', '42');
  json('null', 'null');
  cases.push({ label: 'body: wrong content type', url, payload: text, contentType: 'text/plain' });
  cases.push({ label: 'body: form-encoded', url, payload: 'a=1', contentType: 'application/x-www-form-urlencoded' });
  json('extra field', JSON.stringify({ ...base, zz_extra: 1 }));
  json('__proto__ key', `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"__proto__":{"polluted":1}}`);
  json('constructor key', `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"constructor":{"prototype":{"polluted":1}}}`);
  for (const name of requiredOf(body)) {
    const without = { ...base };
    delete without[name];
    json(`${name}: missing`, JSON.stringify(without));
  }
  const SENTINEL = '"__fuzz_value__"';
  for (const [name, schema] of propertiesOf(body)) {
    const shaped = JSON.stringify({ ...base, [name]: '__fuzz_value__' });
    for (const [label, value] of refusedJson(schema)) json(`${name}: ${label}`, shaped.replace(SENTINEL, value));
  }
  return cases;
}
