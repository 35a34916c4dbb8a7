// The recorder against a stand-in window: real Request/Response/Headers/FormData (Node's), a fetch that
// answers what the test says, a console that remembers what reached it.
import { describe, expect, it } from 'vitest';
import { createDiagnosticsLog, type DiagnosticsLog } from '../../sdk/client/diagnostics';
import { REDACTED } from '../../sdk/client/redact';
import { describeRequestBody, diagnosticsWanted, isPanelStaticFile, readResponseText, recordUpload, startDiagnosticsRecorder } from './recorder';

function standIn(answer: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  const events = new EventTarget();
  const printed: { level: string; args: unknown[] }[] = [];
  const fakeConsole = {} as Console;
  for (const level of ['error', 'warn', 'info', 'log', 'debug'] as const) {
    fakeConsole[level] = (...args: unknown[]) => printed.push({ level, args });
  }
  const win = {
    fetch: answer as typeof fetch,
    console: fakeConsole,
    addEventListener: events.addEventListener.bind(events) as Window['addEventListener'],
    removeEventListener: events.removeEventListener.bind(events) as Window['removeEventListener'],
  };
  return { win, printed, events, original: win.fetch, originalError: fakeConsole.error };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function settled(log: DiagnosticsLog) {
  for (let i = 0; i < 20; i++) {
    const last = log.snapshot().network.at(-1);
    if (last && last.responseBody !== null) return last;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the answer was never recorded');
}

describe('the diagnostics recorder', () => {
  it('records a login with the password redacted before it is stored, and gives the page the untouched answer', async () => {
    const log = createDiagnosticsLog();
    const sent: (string | null)[] = [];
    const { win } = standIn(async (_input, init) => {
      sent.push(init?.body as string);
      return json({ success: true, token: 'session-secret', user: { username: 'alice' } });
    });
    const recorder = startDiagnosticsRecorder(win, log);
    const response = await win.fetch('/api/user/auth/login', {
      method: 'post',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer abc.def.ghi' },
      body: JSON.stringify({ login: 'alice', password: 'correct horse' }),
    });
    // the page reads the whole answer, unredacted: recording works on a copy
    expect(await response.json()).toEqual({ success: true, token: 'session-secret', user: { username: 'alice' } });
    expect(sent).toEqual([JSON.stringify({ login: 'alice', password: 'correct horse' })]);

    const entry = await settled(log);
    expect(entry).toMatchObject({ method: 'POST', url: '/api/user/auth/login', status: 200, error: null });
    expect(JSON.parse(entry.requestBody ?? '')).toEqual({ login: 'alice', password: REDACTED });
    expect(entry.requestHeaders).toEqual({ 'content-type': 'application/json', authorization: REDACTED });
    expect(JSON.parse(entry.responseBody ?? '')).toEqual({ success: true, token: REDACTED, user: { username: 'alice' } });
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    // nowhere in what was stored
    expect(JSON.stringify(log.snapshot())).not.toMatch(/correct horse|session-secret|abc\.def\.ghi/);
    recorder.stop();
  });

  it('records a failed fetch with status 0 and rethrows its error', async () => {
    const log = createDiagnosticsLog();
    const { win } = standIn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const recorder = startDiagnosticsRecorder(win, log);
    await expect(win.fetch('/api/down')).rejects.toThrow('Failed to fetch');
    expect(log.snapshot().network[0]).toMatchObject({ url: '/api/down', status: 0, error: 'TypeError: Failed to fetch' });
    recorder.stop();
  });

  it('redacts credential query parameters of the URL', async () => {
    const log = createDiagnosticsLog();
    const { win } = standIn(async () => new Response(null, { status: 204 }));
    const recorder = startDiagnosticsRecorder(win, log);
    await win.fetch(new URL('https://panel.example/api/verify?token=abc&x=1'));
    expect(log.snapshot().network[0].url).toBe(`https://panel.example/api/verify?token=${REDACTED}&x=1`);
    recorder.stop();
  });

  it('records console output, console errors, rejections and global errors with the spec texts', () => {
    const log = createDiagnosticsLog();
    const { win, printed, events } = standIn(async () => json({}));
    const recorder = startDiagnosticsRecorder(win, log);
    win.console.log('hello', { password: 'p', n: 1 });
    win.console.error('[plugin:x] failed', new Error('boom'));
    events.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error('nope') }));
    events.dispatchEvent(Object.assign(new Event('error'), { message: 'x is not defined', filename: 'https://p.example/a.js', lineno: 3, colno: 9, error: null }));

    // the console still prints what it was given
    expect(printed.map((p) => p.level)).toEqual(['log', 'error']);
    expect(printed[0].args[1]).toEqual({ password: 'p', n: 1 });
    const { console: lines, errors } = log.snapshot();
    expect(lines.map((l) => [l.level, l.text.split('\n')[0]])).toEqual([
      ['log', `hello {"password":"${REDACTED}","n":1}`],
      ['error', '[plugin:x] failed Error: boom'],
    ]);
    expect(errors.map((e) => [e.source, e.text.split('\n')[0]])).toEqual([
      ['console', '[plugin:x] failed Error: boom'],
      ['rejection', 'Unhandled Promise Rejection: Error: nope'],
      ['global', 'Global Error: x is not defined (https://p.example/a.js:3:9)'],
    ]);
    recorder.stop();
  });

  it('stops: fetch, console and listeners are back and the log is empty', async () => {
    const log = createDiagnosticsLog();
    const { win, original, originalError, events } = standIn(async () => json({}));
    const recorder = startDiagnosticsRecorder(win, log);
    expect(win.fetch).not.toBe(original);
    await win.fetch('/a');
    recorder.stop();
    expect(win.fetch).toBe(original);
    expect(win.console.error).toBe(originalError);
    events.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'late' }));
    expect(log.snapshot().network).toEqual([]);
    expect(log.snapshot().errors).toEqual([]);
    expect(log.recording()).toBe(false);
  });

  it('records an upload the sdk sent through XMLHttpRequest, its form described and redacted', () => {
    const log = createDiagnosticsLog();
    const form = new FormData();
    form.append('subject', 'Help');
    form.append('file', new Blob(['abc'], { type: 'text/plain' }), 'notes.txt');
    recordUpload(log, {
      id: 1,
      method: 'POST',
      url: '/api/user/tickets?token=abc',
      status: 201,
      requestBody: form,
      responseBody: { id: 7, upload_key: 'k' },
      startedAt: 5,
      durationMs: 40,
      transport: 'xhr',
    });
    expect(log.snapshot().network[0]).toMatchObject({
      method: 'POST',
      url: `/api/user/tickets?token=${REDACTED}`,
      status: 201,
      durationMs: 40,
      requestBody: '{"subject":"Help","file":"[file notes.txt, text/plain, 3 bytes]"}',
      responseBody: `{"id":7,"upload_key":"${REDACTED}"}`,
    });
  });

  it('is on only while an enabled plugin declares diagnostics', () => {
    expect(diagnosticsWanted([{}, { diagnostics: false }])).toBe(false);
    expect(diagnosticsWanted([{}, { diagnostics: true }])).toBe(true);
  });
});

describe('bodies', () => {
  it('describes forms with passwords hidden and files by name and size, never their bytes', () => {
    const form = new FormData();
    form.append('username', 'alice');
    form.append('password', 'hunter2');
    form.append('file', new Blob(['x'.repeat(10)], { type: 'image/png' }), 'cat.png');
    expect(JSON.parse(describeRequestBody(form, '', 1000) ?? '')).toEqual({ username: 'alice', password: REDACTED, file: '[file cat.png, image/png, 10 bytes]' });
    expect(describeRequestBody(new URLSearchParams({ user: 'a', totp_code: '123456' }), '', 1000)).toBe(`user=a&totp_code=${REDACTED}`);
    expect(describeRequestBody(new Uint8Array(7), '', 1000)).toBe('[binary, 7 bytes]');
    expect(describeRequestBody(undefined, '', 1000)).toBeNull();
  });

  it('cuts a body at the limit and saying so', () => {
    expect(describeRequestBody('a'.repeat(30), 'text/plain', 10)).toBe(`${'a'.repeat(10)}… [cut: 20 more characters]`);
  });

  it('reads at most the limit of an answer and describes what is not text', async () => {
    const big = new Response('y'.repeat(200_000), { headers: { 'content-type': 'text/plain' } });
    const text = await readResponseText(big, 1000);
    expect(text?.startsWith('y'.repeat(1000))).toBe(true);
    expect(text?.length).toBeLessThan(1200);
    const zip = new Response(new Uint8Array(5), { headers: { 'content-type': 'application/zip', 'content-length': '5' } });
    expect(await readResponseText(zip, 1000)).toBe('[application/zip, 5 bytes]');
  });

  it("keeps the panel's own static files as read (public: nothing to redact), and redacts every other answer", async () => {
    const origin = 'https://panel.example.com';
    expect(isPanelStaticFile(`${origin}/locales/en-abc123.json`, origin)).toBe(true);
    expect(isPanelStaticFile(`${origin}/plugins/auth/auth-x.js`, origin)).toBe(true);
    expect(isPanelStaticFile(`${origin}/api/user/session`, origin)).toBe(false);
    expect(isPanelStaticFile('https://elsewhere.example/locales/en.json', origin)).toBe(false);
    expect(isPanelStaticFile('not a url', origin)).toBe(false);
    const body = JSON.stringify({ password: 'label text', token: 'Token' });
    const json = { 'content-type': 'application/json' };
    expect(await readResponseText(new Response(body, { headers: json }), 1000, true)).toBe(body);
    expect(await readResponseText(new Response(body, { headers: json }), 1000)).not.toContain('label text');
  });
});
