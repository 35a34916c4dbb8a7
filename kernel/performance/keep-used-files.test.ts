import { describe, expect, it } from 'vitest';
import { KEEP_BATCH, keepUsedFiles, type KeepUsedFilesDeps } from './keep-used-files';

const ORIGIN = 'https://panel.example';

/** Resources arrive by hand, idle callbacks run by hand, and the worker records what it is told. */
function harness(worker: { postMessage(message: unknown): void } | null = null) {
  const messages: unknown[] = [];
  const idle: Array<() => void> = [];
  let emit: (urls: string[]) => void = () => {};
  let observing = false;
  const active = worker ?? { postMessage: (message: unknown) => messages.push(message) };
  const deps: KeepUsedFilesDeps = {
    origin: ORIGIN,
    observeResources(onUrls) {
      emit = onUrls;
      observing = true;
      return () => {
        observing = false;
      };
    },
    whenIdle: (fn) => idle.push(fn),
    activeWorker: async () => active,
  };
  return {
    deps,
    messages,
    load: (...urls: string[]) => emit(urls),
    observing: () => observing,
    async idle() {
      for (const fn of idle.splice(0)) fn();
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

describe('keepUsedFiles: the page names the panel files it used to the service worker', () => {
  it('reports the same-origin files under /assets/ and /plugins/ once the browser is idle, each once', async () => {
    const h = harness();
    keepUsedFiles(h.deps);
    h.load(`${ORIGIN}/assets/kernel-abc123.js`, `${ORIGIN}/plugins/auth/LoginPage-xyz789.js`, `${ORIGIN}/api/user/session`, 'https://ads.example/ad.js');
    expect(h.messages).toEqual([]);
    await h.idle();
    expect(h.messages).toEqual([{ type: 'keep', urls: ['/assets/kernel-abc123.js', '/plugins/auth/LoginPage-xyz789.js'] }]);

    h.load(`${ORIGIN}/assets/kernel-abc123.js`, `${ORIGIN}/plugins/servers/servers-def456.js`);
    await h.idle();
    expect(h.messages[1]).toEqual({ type: 'keep', urls: ['/plugins/servers/servers-def456.js'] });
  });

  it('leaves out what the worker must not keep: another origin, a query string (main.css?v=…), the catalogues and pages', async () => {
    const h = harness();
    keepUsedFiles(h.deps);
    h.load(`${ORIGIN}/assets/main.css?v=1`, 'https://cdn.example/assets/x-abcdef.js', `${ORIGIN}/locales/en-abcdef.json`, `${ORIGIN}/dashboard`, 'not a url ::');
    await h.idle();
    expect(h.messages).toEqual([]);
  });

  it('sends at most the worker’s limit per message', async () => {
    const h = harness();
    keepUsedFiles(h.deps);
    h.load(...Array.from({ length: KEEP_BATCH + 3 }, (_, i) => `${ORIGIN}/plugins/p/chunk${i}-abcdef.js`));
    await h.idle();
    const sizes = h.messages.map((m) => (m as { urls: string[] }).urls.length);
    expect(sizes).toEqual([KEEP_BATCH, 3]);
  });

  it('stops observing and sends nothing more once caching is switched off', async () => {
    const h = harness();
    const stop = keepUsedFiles(h.deps);
    h.load(`${ORIGIN}/assets/kernel-abc123.js`);
    stop();
    expect(h.observing()).toBe(false);
    await h.idle();
    expect(h.messages).toEqual([]);
  });
});
