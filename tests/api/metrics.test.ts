// Prometheus metrics (issue 17): off by default (404), then only for the bearer of METRICS_TOKEN;
// requests counted by route pattern and status, job runs, the mail queue, wallet ledger entries and
// open websockets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
