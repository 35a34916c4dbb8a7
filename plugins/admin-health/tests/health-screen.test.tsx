// @vitest-environment jsdom
// /mc-admin/health: what the screen shows from the server's answers and what it asks.
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };

function healthAnswer(overrides: Record<string, unknown> = {}) {
  return {
    database: { dialect: 'postgres', ok: true, latency_ms: 1.5 },
    cache: { kind: 'redis', ok: false },
    mail: { enabled: false, queue: { pending: 3, failed: 2 } },
    panel: { configured: true, ok: false, latency_ms: null, code: 'PANEL_AUTH', message: 'This account does not have permission to access the API.' },
    jobs: [
      { name: 'mail.queue', last_run_at: '2026-01-01T12:00:00.000Z', ok: false, message: 'connect ECONNREFUSED', instance: 'web2-41-a1b2c3', duration_ms: 12 },
      { name: 'sessions.cleanup', last_run_at: null, ok: null, message: null, instance: null, duration_ms: null },
    ],
    instances: [
      {
        id: 'web1-40-d4e5f6',
        host: 'web1',
        version: '1.0.0',
        started_at: '2026-01-01T11:00:00.000Z',
        heartbeat_at: '2026-01-01T12:00:00.000Z',
        stopped_at: null,
        alive: true,
        self: true,
      },
      {
        id: 'web2-41-a1b2c3',
        host: 'web2',
        version: '1.0.0',
        started_at: '2026-01-01T11:00:00.000Z',
        heartbeat_at: '2026-01-01T11:30:00.000Z',
        stopped_at: '2026-01-01T11:30:00.000Z',
        alive: false,
        self: false,
      },
    ],
    ...overrides,
  };
}

describe('health', () => {
  it('shows each part with its state, the jobs, and asks again on refresh', async () => {
    let answer = healthAnswer();
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/health', catalogues: { en }, session: ROOT, http: { 'GET /api/admin/health': () => ({ body: answer }) } });
    await app.findByText('postgres');
    expect(app.getByText('1.5 ms')).toBeTruthy();
    expect(app.getByText(en.health.cache.redis)).toBeTruthy();
    expect(app.getByText(en.health.mail.disabled)).toBeTruthy();
    expect(app.getByText('connect ECONNREFUSED')).toBeTruthy();
    expect(app.getByText(en.health.jobs.never)).toBeTruthy();
    expect(app.getByText(en.health.notRun)).toBeTruthy();
    expect(app.getByText('This account does not have permission to access the API.')).toBeTruthy();
    // the instances, this one named, and the instance that ran the mail job (listed twice: as a job's and as an instance)
    expect(app.getByText('web1-40-d4e5f6')).toBeTruthy();
    expect((app.container.textContent ?? '').split('web2-41-a1b2c3').length - 1).toBe(2);
    expect(app.getByText(en.health.instances.alive)).toBeTruthy();
    expect(app.getByText(en.health.instances.stopped)).toBeTruthy();
    expect(app.container.textContent).toContain(en.health.instances.self);
    // database ok; cache, the panel and the mail job failed
    const text = app.container.textContent ?? '';
    expect(text.split(en.health.ok).length - 1).toBe(1);
    expect(text.split(en.health.failed).length - 1).toBeGreaterThanOrEqual(3);

    answer = healthAnswer({
      cache: { kind: 'memory', ok: true },
      mail: { enabled: true, queue: { pending: 0, failed: 0 } },
      panel: { configured: false, ok: null, latency_ms: null, code: null, message: null },
    });
    await app.click(app.getByRole('button', en.health.refresh));
    await app.findByText(en.health.cache.memory);
    expect(app.getByText(en.health.mail.enabled)).toBeTruthy();
    expect(app.getByText(en.health.panel.notConfigured)).toBeTruthy();
    expect(app.httpCalls.filter((c) => c.path === '/api/admin/health')).toHaveLength(2);
  });

  it('keeps the last answer and shows the error when a refresh fails', async () => {
    let fail = false;
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/health',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/health': () => (fail ? { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'The panel is restarting.' } } } : { body: healthAnswer() }) },
    });
    await app.findByText('postgres');
    fail = true;
    await app.click(app.getByRole('button', en.health.refresh));
    await app.findByText('The panel is restarting.');
    expect(app.getByText('postgres')).toBeTruthy();
  });

  it('shows the server’s error with a retry', async () => {
    let fail = true;
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/health',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/health': () => (fail ? { status: 403, body: { error: { code: 'FORBIDDEN', message: 'You may not see this.' } } } : { body: healthAnswer() }) },
    });
    await app.findByText('You may not see this.');
    fail = false;
    await app.click(app.getByRole('button', 'Try again'));
    await app.findByText('postgres');
  });
});
