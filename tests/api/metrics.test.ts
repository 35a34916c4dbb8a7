// Prometheus metrics (issue 17): off by default (404), then only for the bearer of METRICS_TOKEN and/or
// a client at an address of METRICS_ALLOW;
// requests counted by route pattern and status, job runs, the mail queue, wallet ledger entries and
// open websockets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { startPanel, type TestPanel } from './harness';

const TOKEN = 'metrics-token-for-the-test-0123';

describe('GET /metrics', () => {
  let on: TestPanel;
  let off: TestPanel;
  beforeAll(async () => {
    on = await startPanel('sqlite', { env: { METRICS_TOKEN: TOKEN }, jobs: false });
    off = await startPanel('sqlite', { jobs: false });
  });
  afterAll(async () => {
    await on?.close();
    await off?.close();
  });

  it('answers 404 while METRICS_TOKEN is unset', async () => {
    const answer = await off.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.statusCode).toBe(404);
    expect(answer.json().error.code).toBe('NOT_FOUND');
  });

  it('answers 401 without the token or with another one', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const answer = await on.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error.code).toBe('UNAUTHORIZED');
      expect(answer.body).not.toContain('orepanel_');
    }
  });

  it('counts requests by route pattern and status, job runs, the mail queue, the ledger and the sockets', async () => {
    await on.app.inject({ url: '/api/system/settings' });
    await on.app.inject({ url: '/api/user/session' });
    await on.app.inject({ url: '/api/admin/users/00000000-0000-0000-0000-000000000000' });
    await on.services.scheduler.runNow('mail.queue');
    const answer = await on.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/plain');
    const text = answer.body;
    expect(text).toMatch(/orepanel_http_requests_total\{method="GET",route="\/api\/system\/settings",status="200"\} 1/);
    // the pattern, never the raw address (ids would make a series each)
    expect(text).toContain('route="/api/admin/users/:uuid"');
    expect(text).not.toContain('00000000-0000');
    expect(text).toMatch(/orepanel_http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/api\/system\/settings"\}/);
    expect(text).toMatch(/orepanel_job_runs_total\{job="mail.queue",result="ok"\} 1/);
    expect(text).toMatch(/orepanel_mail_queue\{state="pending"\} 0/);
    expect(text).toMatch(/orepanel_wallet_ledger_entries \d+/);
    expect(text).toMatch(/orepanel_websockets_open 0/);
    expect(text).toContain('orepanel_process_cpu_seconds_total');
  });
});

describe('GET /metrics bound to an address list (METRICS_ALLOW)', () => {
  let listed: TestPanel;
  let both: TestPanel;
  beforeAll(async () => {
    // behind a proxy at 127.0.0.1: the address that counts is the client's it forwards
    listed = await startPanel('sqlite', { env: { METRICS_ALLOW: '192.0.2.10, 10.0.0.0/8', TRUST_PROXY: '127.0.0.1' }, jobs: false });
    both = await startPanel('sqlite', { env: { METRICS_ALLOW: '10.0.0.0/8', METRICS_TOKEN: TOKEN }, jobs: false });
  });
  afterAll(async () => {
    await listed?.close();
    await both?.close();
  });

  const scrape = (panel: TestPanel, remoteAddress: string, headers: Record<string, string> = {}) => panel.app.inject({ url: '/metrics', remoteAddress, headers });

  it('answers a listed address or subnet, and 403 to any other — a public client behind the proxy too', async () => {
    for (const address of ['192.0.2.10', '10.20.30.40', '::ffff:10.0.0.1']) {
      const answer = await scrape(listed, address);
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toContain('orepanel_http_requests_total');
    }
    for (const address of ['192.0.2.11', '11.0.0.1', '::1']) {
      const answer = await scrape(listed, address);
      expect(answer.statusCode).toBe(403);
      expect(answer.json().error.code).toBe('FORBIDDEN');
      expect(answer.body).not.toContain('orepanel_');
    }
    // through the proxy: the forwarded client decides, not the proxy's own address
    expect((await scrape(listed, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
    expect((await scrape(listed, '127.0.0.1', { 'x-forwarded-for': '10.1.2.3' })).statusCode).toBe(200);
    // a forged header from an untrusted address changes nothing
    expect((await scrape(listed, '198.51.100.7', { 'x-forwarded-for': '10.1.2.3' })).statusCode).toBe(403);
  });

  it('with METRICS_TOKEN as well, both are needed', async () => {
    expect((await scrape(both, '10.0.0.2')).statusCode).toBe(401);
    expect((await scrape(both, '198.51.100.7', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(403);
    expect((await scrape(both, '10.0.0.2', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
  });

  it('refuses to start with an address list it cannot read', () => {
    for (const value of ['10.0.0.0/33', 'localhost', 'loopback', '10.0.0.1;10.0.0.2', ',']) {
      expect(() => loadConfig({ DATA_DIR: '/tmp/orepanel-metrics-config', METRICS_ALLOW: value, SECRET_KEY: 'k'.repeat(32) })).toThrow(/METRICS_ALLOW/);
    }
  });
});
