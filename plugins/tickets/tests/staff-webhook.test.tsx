// @vitest-environment jsdom
// The webhook section of /mc-admin/departments/:id/edit: a new webhook is checked before sending
// (address, a signed one's secret) and sent whole; the server's refusal lands on the address field
// in the administrator's words; a saved secret is never shown, only "set"; a test send reports how
// the receiver took it; the last delivery's state shows; switching to Discord drops the secret.
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import { checkWebhook, generateSecret, webhookBody, type Webhook } from '../client/staff/DepartmentWebhookForm';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const text = en.staff.webhook;
const HOOK = '/api/admin/departments/1/webhook';

const department = {
  id: 1,
  name: 'Billing',
  description: '',
  hours: null,
  hours_note: '',
  enabled: true,
  role_ids: [],
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
};

const saved = (extra: Partial<Webhook> = {}): Webhook => ({
  department_id: 1,
  url: 'https://hooks.example.com/orepanel',
  kind: 'json',
  enabled: true,
  events: ['created', 'closed'],
  secret_set: true,
  last_status: 'retrying',
  last_at: '2026-01-02T10:00:00.000Z',
  last_error: 'HTTP 502: bad gateway',
  updated_at: '2026-01-02T09:00:00.000Z',
  ...extra,
});

const page = (webhook: Webhook | null, more: Record<string, unknown> = {}) =>
  renderPlugin(plugin, {
    manifest,
    route: '/mc-admin/departments/1/edit',
    catalogues: { en },
    session: ROOT,
    http: {
      'GET /api/admin/departments/1': { body: { department } },
      'GET /api/admin/roles': { body: { data: [] } },
      [`GET ${HOOK}`]: { body: { webhook } },
      ...more,
    },
  });

describe('webhook form rules', () => {
  const values = { url: 'https://hooks.example.com/x', kind: 'json' as const, enabled: true, events: ['created' as const], secret: '' };

  it('wants an http(s) address, and a secret of 16 printable characters for a signed webhook without one', () => {
    expect(checkWebhook({ ...values, url: ' ' }, false)).toEqual({ url: 'staff.validation.required' });
    expect(checkWebhook({ ...values, url: 'ftp://x' }, false)).toEqual({ url: 'staff.webhook.urlInvalid' });
    expect(checkWebhook(values, false)).toEqual({ secret: 'staff.webhook.secretRequired' });
    expect(checkWebhook(values, true)).toEqual({});
    expect(checkWebhook({ ...values, secret: 'short' }, true)).toEqual({ secret: 'staff.webhook.secretShort' });
    expect(checkWebhook({ ...values, secret: 'has a space in it, long enough' }, true)).toEqual({ secret: 'staff.webhook.secretCharacters' });
    expect(checkWebhook({ ...values, kind: 'discord' }, false)).toEqual({});
  });

  it('sends the whole webhook, nothing when nothing changed, and drops the secret of a Discord one', () => {
    expect(webhookBody(null, { ...values, secret: 'a'.repeat(16) })).toEqual({ url: values.url, kind: 'json', enabled: true, events: ['created'], secret: 'a'.repeat(16) });
    const current = saved({ url: values.url, events: ['created'] });
    expect(webhookBody(current, values)).toEqual({});
    expect(webhookBody(current, { ...values, enabled: false })).toEqual({ url: values.url, kind: 'json', enabled: false, events: ['created'] });
    expect(webhookBody(current, { ...values, kind: 'discord' })).toMatchObject({ kind: 'discord', secret: null });
  });

  it('generates 64 hex characters, different each time', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(generateSecret()).not.toBe(secret);
  });
});

describe('webhook section', () => {
  it('checks a new webhook before sending, then shows the server’s refusal on the address', async () => {
    const app = await page(null, {
      [`PUT ${HOOK}`]: { status: 400, body: { error: { code: 'WEBHOOK_HOST_PRIVATE', message: 'x is private', field: 'url' } } },
    });
    await app.findByText(text.description);
    await app.click(app.getByRole('button', text.create));
    await app.findByText(en.staff.validation.required);
    await app.type(app.getByLabelText(text.url), 'ftp://10.0.0.5/hook');
    await app.click(app.getByRole('button', text.create));
    await app.findByText(text.urlInvalid);
    expect(app.httpCalls.some((c) => c.method === 'PUT')).toBe(false);
    await app.type(app.getByLabelText(text.url), 'https://10.0.0.5/hook');
    await app.click(app.getByRole('button', text.create));
    await app.findByText(text.errors.WEBHOOK_HOST_PRIVATE);
    expect(app.getByLabelText(text.url).getAttribute('aria-invalid')).toBe('true');
    expect(app.httpCalls.find((c) => c.method === 'PUT')?.body).toEqual({
      url: 'https://10.0.0.5/hook',
      kind: 'discord',
      enabled: true,
      events: ['created', 'customer_replied'],
    });
  });

  it('asks a signed webhook for a secret, generates one to copy, and sends it once', async () => {
    const app = await page(null, {
      [`PUT ${HOOK}`]: (call: { body: unknown }) => ({ body: { webhook: saved({ last_status: null, last_at: null, last_error: null, ...(call.body as object) }) } }),
    });
    await app.findByText(text.description);
    await app.type(app.getByLabelText(text.url), 'https://hooks.example.com/orepanel');
    await app.type(app.getByLabelText(text.kind), 'json');
    await app.click(app.getByRole('button', text.create));
    await app.findByText(text.secretRequired);
    await app.click(app.getByRole('button', text.secretGenerate));
    const secret = (app.getByLabelText(text.secret) as HTMLInputElement).value;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await app.click(app.getByRole('button', text.create));
    await app.findByText(text.secretSet);
    const put = app.httpCalls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({ kind: 'json', secret });
    expect(document.body.textContent).not.toContain(secret);
  });

  it('shows a saved webhook without its secret, its last delivery, and the result of a test', async () => {
    let answer = { ok: true, status: 204, error: null as string | null };
    const app = await page(saved(), { [`POST ${HOOK}/test`]: () => ({ body: answer }) });
    await app.findByText(text.secretSet);
    expect(() => app.getByLabelText(text.secret)).toThrow();
    expect(app.getByText(text.statuses.retrying)).toBeTruthy();
    expect(app.getByText('HTTP 502: bad gateway')).toBeTruthy();
    expect((app.getByLabelText(text.eventNames.created) as HTMLInputElement).checked).toBe(true);
    expect((app.getByLabelText(text.eventNames.staff_replied) as HTMLInputElement).checked).toBe(false);

    await app.click(app.getByRole('button', text.test));
    await app.findByText('The receiver accepted the test (HTTP 204).');
    answer = { ok: false, status: 500, error: 'HTTP 500: oops' };
    await app.click(app.getByRole('button', text.test));
    await app.findByText('HTTP 500: oops');
    expect(app.getByText(text.testFailed)).toBeTruthy();
  });

  it('says so when the webhook cannot be loaded, and the department form still works', async () => {
    const app = await page(null, { [`GET ${HOOK}`]: { status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } } });
    await app.findByText(text.loadFailed);
    expect(app.getByLabelText(en.staff.departments.form.name)).toBeTruthy();
    expect(() => app.getByLabelText(text.url)).toThrow();
  });

  it('drops the secret when a signed webhook becomes a Discord one', async () => {
    const app = await page(saved(), {
      [`PUT ${HOOK}`]: (call: { body: unknown }) => ({ body: { webhook: saved({ ...(call.body as object), secret_set: false, updated_at: '2026-02-01T00:00:00.000Z' }) } }),
    });
    await app.findByText(text.secretSet);
    await app.type(app.getByLabelText(text.kind), 'discord');
    await app.click(app.getByRole('button', text.save));
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.method === 'PUT')).toBe(true));
    expect(app.httpCalls.find((c) => c.method === 'PUT')?.body).toEqual({
      url: 'https://hooks.example.com/orepanel',
      kind: 'discord',
      enabled: true,
      events: ['created', 'closed'],
      secret: null,
    });
  });
});
