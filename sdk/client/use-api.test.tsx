// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { setHttpFetch, useApi, type UseApiResult } from './http';

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
