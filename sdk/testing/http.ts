// HTTP: the sdk's http client answered by a test's handlers, every call recorded.

/** One request the plugin made through the sdk's http client. */
export interface RecordedHttpCall {
  method: string;
  /** the URL as requested, with its query string */
  url: string;
  /** the path without the query string */
  path: string;
  query: URLSearchParams;
  /** the JSON body, parsed (or the raw body when it was not JSON) */
  body: unknown;
  headers: Record<string, string>;
  /** values of `:name` segments of the handler key that answered */
  params: Record<string, string>;
}

export interface HttpReply {
  /** default 200 */
  status?: number;
  /** sent as JSON (a string is sent as text) */
  body?: unknown;
  headers?: Record<string, string>;
}

export type HttpHandler = HttpReply | ((call: RecordedHttpCall) => HttpReply | Promise<HttpReply>);

/**
 * Answers by `"METHOD /path"`; a path may hold `:name` segments (`'GET /api/user/profile/:uuid'`) and
 * a key with a query string matches only that query. An unanswered request gets a 404 in the API's
 * error shape (code NO_TEST_HANDLER) and a console warning.
 */
export type HttpHandlers = Record<string, HttpHandler>;

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) params[a[i].slice(1)] = decodeURIComponent(b[i]);
    else if (a[i] !== b[i]) return null;
  }
  return params;
}

export function findHandler(handlers: HttpHandlers, method: string, url: string, path: string): { handler: HttpHandler; params: Record<string, string> } | null {
  for (const target of [url, path]) {
    for (const [key, handler] of Object.entries(handlers)) {
      const space = key.indexOf(' ');
      if (space < 0 || key.slice(0, space).toUpperCase() !== method) continue;
      const params = matchPath(key.slice(space + 1).trim(), target);
      if (params) return { handler, params };
    }
  }
  return null;
}

function parseBody(body: BodyInit | null | undefined): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function makeResponse(reply: HttpReply): Response {
  const status = reply.status ?? 200;
  const noBody = status === 204 || status === 205 || status === 304;
  const isText = typeof reply.body === 'string';
  const headers = { 'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json', ...reply.headers };
  const payload = noBody || reply.body === undefined ? null : isText ? (reply.body as string) : JSON.stringify(reply.body);
  return new Response(payload, { status, headers });
}

export function testFetch(handlers: HttpHandlers, calls: RecordedHttpCall[]) {
  return async (input: string, init: RequestInit): Promise<Response> => {
    const method = (init.method ?? 'GET').toUpperCase();
    const parsed = new URL(input, 'http://orepanel.test');
    const path = parsed.pathname;
    const url = `${path}${parsed.search}`;
    const found = findHandler(handlers, method, url, path);
    const call: RecordedHttpCall = {
      method,
      url,
      path,
      query: parsed.searchParams,
      body: parseBody(init.body),
      headers: { ...(init.headers as Record<string, string> | undefined) },
      params: found?.params ?? {},
    };
    calls.push(call);
    if (!found) {
      console.warn(`[sdk/testing] no http handler for ${method} ${url}`);
      return makeResponse({ status: 404, body: { error: { code: 'NO_TEST_HANDLER', message: `No test handler for ${method} ${url}` } } });
    }
    const reply = typeof found.handler === 'function' ? await found.handler(call) : found.handler;
    return makeResponse(reply);
  };
}
