// Graceful shutdown (issue 17): a stopping instance says it is not ready, finishes the request in
// flight, then takes no more connections; a live socket is closed with "going away" (1001) so the
// client reconnects to another instance.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gracefulShutdown } from '../../server/serve';
import { register, startPanel, type TestPanel } from './harness';

describe('graceful shutdown', () => {
  let panel: TestPanel;
  let base: string;
  let release: () => void = () => undefined;
  beforeAll(async () => {
    panel = await startPanel('sqlite');
    // a request that is still running when the stop begins
    panel.app.get('/test/slow', async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { done: true };
    });
    await panel.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(panel.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await panel.database.drop();
  });

  it('is ready, then not ready while it finishes the request in flight, then refuses connections', async () => {
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    // a live socket (the AFK page's), open once its first message came
    const { cookie } = await register(panel.app);
    const socket = new WebSocket(`${base.replace('http', 'ws')}/api/user/earn/afk/socket`, { headers: { cookie, origin: base } });
    await new Promise((resolve, reject) => {
      socket.once('message', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
    const slow = fetch(`${base}/test/slow`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopping = gracefulShutdown(panel.app);
    expect(panel.services.readiness.shuttingDown).toBe(true);
    expect((await panel.services.readiness.report()).ready).toBe(false);
    release();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ done: true });
    await stopping;
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    // "going away", so the page reconnects (elsewhere) — not 1005, a close without a reason
    expect(await closed).toEqual({ code: 1001, reason: 'server restarting' });
  });
});

describe('graceful shutdown behind a proxy: the drain', () => {
  let panel: TestPanel;
  let base: string;
  beforeAll(async () => {
    panel = await startPanel('sqlite');
    await panel.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(panel.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await panel.database.drop();
  });

  it('serves on while draining, closing each connection after its answer, then stops', async () => {
    const before = await fetch(`${base}/healthz`);
    expect(before.status).toBe(200);
    expect(before.headers.get('connection')).not.toBe('close');
    const stopping = gracefulShutdown(panel.app, 1500);
    // not ready for the balancer, yet still answering what a proxy sends on its open connections
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('connection')).toBe('close');
    const during = await fetch(`${base}/api/system/settings`);
    expect(during.status).toBe(200);
    expect(during.headers.get('connection')).toBe('close');
    await stopping;
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});
