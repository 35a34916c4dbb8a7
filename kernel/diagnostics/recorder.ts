// The kernel's recorder (spec §7: every fetch is logged, method, url, status, request body, response
// body; §8: console errors, 'Unhandled Promise Rejection: …' and 'Global Error: …'). It starts before
// anything else of the panel runs, so the very first requests are there, and writes into the sdk's
// diagnostics log, which plugins read through ctx.diagnostics. Everything is redacted BEFORE it is
// stored (sdk/client/redact.ts) and every list is capped: a login's password never sits in memory.
// Recording never changes what the page sees: the same Response object, the same console output,
// and a failure of the recorder itself is swallowed.
import { diagnosticsLog, type DiagnosticsLog, type LogLevel } from '../../sdk/client/diagnostics';
import { onHttpEvent, type HttpEvent } from '../../sdk/client/http';
import { REDACTED, isSecretName, redactHeaders, redactJsonText, redactQuery, redactText, redactUrl, redactValue } from '../../sdk/client/redact';

export interface DiagnosticsRecorder {
  /** Puts fetch, console and the error listeners back and empties the log. */
  stop(): void;
}

type RecorderWindow = Pick<Window, 'fetch' | 'addEventListener' | 'removeEventListener'> & { console: Console; location?: { origin: string } };

const LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'log', 'debug'];
/** Answers whose text is worth keeping; the others (scripts, styles, images, archives) are described. */
const READABLE = /json|text\/plain|text\/html|xml|x-www-form-urlencoded/i;

/** Cuts a recorded body at the log's limit, saying how much was left out (`unread`: characters never looked at). */
function cutBody(text: string, limit: number, unread = 0): string {
  const over = text.length - limit + unread;
  return over > 0 ? `${text.slice(0, limit)}… [cut: ${over} more characters]` : text;
}

/** Redaction looks at twice the limit at most: enough to redact what is kept, bounded however big the body. */
const scanned = (text: string, limit: number) => (text.length > limit * 2 ? text.slice(0, limit * 2) : text);

/** A request body as safe text: credentials redacted, files and binary described, never their bytes. */
export function describeRequestBody(body: unknown, contentType: string, limit: number): string | null {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') {
    const text = scanned(body, limit);
    const unread = body.length - text.length;
    if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) return cutBody(redactJsonText(text), limit, unread);
    if (/x-www-form-urlencoded/i.test(contentType)) return cutBody(redactQuery(text), limit, unread);
    return cutBody(redactText(text), limit, unread);
  }
  if (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) return cutBody(redactQuery(body.toString()), limit);
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    const fields: Record<string, string | string[]> = {};
    body.forEach((value, name) => {
      const shown =
        typeof value === 'string'
          ? isSecretName(name) && value !== ''
            ? REDACTED
            : value
          : `[file ${value.name || 'blob'}, ${value.type || 'unknown type'}, ${value.size} bytes]`;
      const before = fields[name];
      fields[name] = before === undefined ? shown : Array.isArray(before) ? [...before, shown] : [before, shown];
    });
    return cutBody(JSON.stringify(fields), limit);
  }
  if (typeof Blob !== 'undefined' && body instanceof Blob) return `[${body.type || 'binary'}, ${body.size} bytes]`;
  if (body instanceof ArrayBuffer) return `[binary, ${body.byteLength} bytes]`;
  if (ArrayBuffer.isView(body)) return `[binary, ${body.byteLength} bytes]`;
  if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) return '[a stream, not recorded]';
  return cutBody(redactText(String(body)), limit);
}

/**
 * The panel's own hashed static files (catalogues, scripts, styles): public, the same for every
 * visitor, so there is nothing in them to redact — and redacting the 100 KB start-up catalogue cost
 * every page load several milliseconds (issue 15).
 */
export function isPanelStaticFile(url: string, origin: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.origin === origin && /^\/(locales|assets|plugins)\//.test(parsed.pathname);
  } catch {
    return false;
  }
}

/**
 * Reads at most `limit` characters of an answer's copy, then stops reading (a large download is not
 * buffered). `publicFile`: one of the panel's static files ({@link isPanelStaticFile}), kept as read.
 */
export async function readResponseText(response: Response, limit: number, publicFile = false): Promise<string | null> {
  const type = response.headers.get('content-type') ?? '';
  const length = response.headers.get('content-length');
  if (response.type === 'opaque' || response.type === 'opaqueredirect') return '[an opaque answer: not readable by the page]';
  if (response.status === 204 || response.status === 304 || !response.body) return '';
  if (!READABLE.test(type)) return `[${type || 'no content type'}${length ? `, ${length} bytes` : ''}]`;
  const reader = response.clone().body?.getReader();
  if (!reader) return null;
  const decoder = new TextDecoder();
  let text = '';
  let complete = false;
  try {
    while (text.length <= limit) {
      const { done, value } = await reader.read();
      if (done) {
        complete = true;
        break;
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    if (!complete) reader.cancel().catch(() => undefined);
  }
  if (publicFile) return cutBody(text, limit) + (complete || !length ? '' : ` (${length} bytes in all)`);
  const kept = scanned(text, limit);
  if (complete && kept === text && /json/i.test(type)) return cutBody(redactJsonText(text), limit);
  // the rest was never read: its size is unknown unless the server said it
  return cutBody(redactText(kept), limit) + (complete || !length ? '' : ` (${length} bytes in all)`);
}

function requestParts(input: RequestInfo | URL, init: RequestInit | undefined) {
  const request = typeof Request !== 'undefined' && input instanceof Request ? input : null;
  const url = request ? request.url : input instanceof URL ? input.href : String(input);
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
  const headers = new Headers(init?.headers ?? request?.headers ?? undefined);
  const body = init?.body !== undefined ? init.body : request?.body ? '[the body of a Request object, not recorded]' : null;
  return { url, method, headers, body };
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** One console argument as text (objects as redacted JSON). */
function describeArgument(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return value.stack?.includes(value.message) ? value.stack : `${value.name}: ${value.message}${value.stack ? `\n${value.stack}` : ''}`;
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value === 'symbol' || typeof value === 'bigint') return value.toString();
  if (typeof Node !== 'undefined' && value instanceof Node) return `[${value.nodeName.toLowerCase()}]`;
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(redactValue(value)) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The text recorded for console arguments or an error reason: each part described, then redacted. */
export function describeArguments(args: readonly unknown[]): string {
  return redactText(args.map(describeArgument).join(' '));
}

/**
 * Starts recording: wraps `fetch` and the console methods and listens to uncaught errors and
 * rejections. Call it before anything else fetches.
 */
export function startDiagnosticsRecorder(win: RecorderWindow = window, log: DiagnosticsLog = diagnosticsLog, now: () => number = () => performance.now()): DiagnosticsRecorder {
  const limit = log.limits.bodyChars;
  // console calls made while recording (a reader that logs, a failing describe) are not recorded again
  let busy = false;
  const guarded = (work: () => void) => {
    if (busy) return;
    busy = true;
    try {
      work();
    } catch {
      // the recorder must never break what it records
    } finally {
      busy = false;
    }
  };

  const originalFetch = win.fetch;
  const recordedFetch: typeof fetch = function recordedFetch(input, init) {
    let id: number | null = null;
    const started = now();
    guarded(() => {
      const parts = requestParts(input, init);
      id = log.addNetwork({
        startedAt: Date.now(),
        method: parts.method,
        url: redactUrl(parts.url),
        status: null,
        durationMs: null,
        requestHeaders: redactHeaders(parts.headers),
        requestBody: describeRequestBody(parts.body, parts.headers.get('content-type') ?? '', limit),
        responseHeaders: {},
        responseBody: null,
        error: null,
      });
    });
    const answer = originalFetch.call(win, input, init);
    if (id === null) return answer;
    const entry = id;
    return answer.then(
      (response) => {
        guarded(() => {
          log.updateNetwork(entry, { status: response.status, durationMs: Math.round(now() - started), responseHeaders: redactHeaders(response.headers) });
          readResponseText(response, limit, isPanelStaticFile(response.url, win.location?.origin ?? '')).then(
            (text) => log.updateNetwork(entry, { responseBody: text }),
            (error: unknown) => log.updateNetwork(entry, { responseBody: `[not readable: ${errorMessage(error)}]` }),
          );
        });
        return response;
      },
      (error: unknown) => {
        guarded(() => log.updateNetwork(entry, { status: 0, durationMs: Math.round(now() - started), error: errorMessage(error) }));
        throw error;
      },
    );
  };
  win.fetch = recordedFetch;

  const target = win.console;
  const originals = new Map<LogLevel, (...args: unknown[]) => void>();
  const wrappers = new Map<LogLevel, (...args: unknown[]) => void>();
  for (const level of LEVELS) {
    const original = target[level] as (...args: unknown[]) => void;
    originals.set(level, original);
    const wrapper = function (this: unknown, ...args: unknown[]) {
      guarded(() => {
        const text = describeArguments(args);
        const at = Date.now();
        log.addLog('console', { at, level, source: 'console', text });
        if (level === 'error') log.addLog('errors', { at, level, source: 'console', text });
      });
      original.apply(this ?? target, args);
    };
    wrappers.set(level, wrapper);
    target[level] = wrapper;
  }

  // spec §8: the errors tab's texts
  const onRejection = (event: PromiseRejectionEvent) =>
    guarded(() => log.addLog('errors', { at: Date.now(), level: 'error', source: 'rejection', text: `Unhandled Promise Rejection: ${describeArguments([event.reason])}` }));
  const onError = (event: ErrorEvent) =>
    guarded(() => {
      const where = event.filename ? ` (${redactUrl(event.filename)}:${event.lineno}:${event.colno})` : '';
      const detail = event.error instanceof Error && event.error.stack ? `\n${event.error.stack}` : '';
      log.addLog('errors', { at: Date.now(), level: 'error', source: 'global', text: redactText(`Global Error: ${event.message}${where}${detail}`) });
    });
  win.addEventListener('unhandledrejection', onRejection);
  win.addEventListener('error', onError);
  // uploads with progress go through XMLHttpRequest, not fetch: the sdk's http client reports them
  const stopUploads = onHttpEvent((event) => {
    if (event.transport === 'xhr') guarded(() => recordUpload(log, event));
  });
  log.setRecording(true);

  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      // put back only what is still ours: a later wrapper (custom.js, a test) keeps its own
      if (win.fetch === recordedFetch) win.fetch = originalFetch;
      for (const level of LEVELS) if (target[level] === wrappers.get(level)) target[level] = originals.get(level) as Console[typeof level];
      win.removeEventListener('unhandledrejection', onRejection);
      win.removeEventListener('error', onError);
      stopUploads();
      log.setRecording(false);
    },
  };
}

/** An upload the sdk sent through XMLHttpRequest, recorded as a finished request. */
export function recordUpload(log: DiagnosticsLog, event: HttpEvent): void {
  const limit = log.limits.bodyChars;
  const answer = event.responseBody;
  log.addNetwork({
    startedAt: event.startedAt,
    method: event.method,
    url: redactUrl(event.url),
    status: event.status ?? 0,
    durationMs: event.durationMs,
    requestHeaders: {},
    requestBody: describeRequestBody(event.requestBody, '', limit),
    responseHeaders: {},
    responseBody: answer === undefined ? '' : cutBody(typeof answer === 'string' ? redactText(answer) : (JSON.stringify(redactValue(answer)) ?? ''), limit),
    error: event.error ?? null,
  });
}

/** Does any of these plugins read the recorder (plugin.json `"diagnostics": true`)? */
export function diagnosticsWanted(manifests: readonly { diagnostics?: boolean }[]): boolean {
  return manifests.some((m) => m.diagnostics === true);
}
