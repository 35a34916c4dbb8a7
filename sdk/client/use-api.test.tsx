// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { clearPrimedApiAnswers, primeApiAnswers, setHttpFetch, useApi, type UseApiResult } from './http';

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});
afterEach(() => setHttpFetch(null));

it('useApi loads, exposes errors, reloads and aborts on unmount', async () => {
  let calls = 0;
  let lastSignal: AbortSignal | undefined;
  setHttpFetch((_url, init) => {
    calls++;
    lastSignal = init.signal ?? undefined;
    if (calls === 2)
      return Promise.resolve(new Response(JSON.stringify({ error: { code: 'NOPE', message: 'no' } }), { status: 400, headers: { 'content-type': 'application/json' } }));
    return Promise.resolve(new Response(JSON.stringify({ n: calls }), { headers: { 'content-type': 'application/json' } }));
  });
  let seen: UseApiResult<{ n: number }> | null = null;
  function Probe() {
    seen = useApi<{ n: number }>('/api/thing');
    return null;
  }
  const root = createRoot(document.createElement('div'));
  await act(async () => root.render(<Probe />));
  expect(seen!.loading).toBe(false);
  expect(seen!.data).toEqual({ n: 1 });
  await act(async () => seen!.reload());
  expect(seen!.error?.code).toBe('NOPE');
  expect(seen!.data).toEqual({ n: 1 }); // kept while the error shows
  await act(async () => seen!.reload());
  expect(seen!.data).toEqual({ n: 3 });
  expect(seen!.error).toBeNull();
  // a request still running when the component goes away is aborted
  let pendingSignal: AbortSignal | undefined;
  setHttpFetch((_url, init) => {
    pendingSignal = init.signal ?? undefined;
    return new Promise((_resolve, reject) => pendingSignal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
  });
  await act(async () => seen!.reload());
  expect(seen!.loading).toBe(true);
  expect(pendingSignal?.aborted).toBe(false);
  act(() => root.unmount());
  expect(pendingSignal?.aborted).toBe(true);
  expect(lastSignal).toBeDefined();
});

it("a pre-rendered page's answer is shown from the first render and not asked for again; reload and later mounts ask", async () => {
  const asked: string[] = [];
  setHttpFetch((url) => {
    asked.push(url);
    return Promise.resolve(new Response(JSON.stringify({ text: 'fresh' }), { headers: { 'content-type': 'application/json' } }));
  });
  primeApiAnswers({ '/api/legal/privacy-policy': { text: 'drawn on the server' } });
  const renders: (UseApiResult<{ text: string }> | null)[] = [];
  function Probe({ url }: { url: string }) {
    renders.push(useApi<{ text: string }>(url));
    return null;
  }
  const root = createRoot(document.createElement('div'));
  await act(async () => root.render(<Probe url="/api/legal/privacy-policy" />));
  expect(renders[0]).toMatchObject({ data: { text: 'drawn on the server' }, loading: false, error: null });
  expect(asked).toEqual([]);
  // another URL is asked for as always
  const other = createRoot(document.createElement('div'));
  await act(async () => other.render(<Probe url="/api/other" />));
  expect(asked).toEqual(['/api/other']);
  act(() => other.unmount());
  await act(async () => renders[0]?.reload());
  expect(asked).toEqual(['/api/other', '/api/legal/privacy-policy']);
  expect(renders.at(-1)?.data).toEqual({ text: 'fresh' });
  act(() => root.unmount());

  clearPrimedApiAnswers();
  const later = createRoot(document.createElement('div'));
  renders.length = 0;
  await act(async () => later.render(<Probe url="/api/legal/privacy-policy" />));
  expect(renders[0]).toMatchObject({ data: undefined, loading: true });
  expect(asked).toHaveLength(3);
  act(() => later.unmount());
});
