// /api/admin/redirect-links (spec §2 /mc-admin/redirect-links, admin.redirect.links.*) and the public
// GET /api/redirect-links the navigation shows them from: CRUD in navigation order, an http or
// https address only (checked by the server whatever the form did), every bad input a 4xx that
// changes nothing, each change in the audit log; switched off, the plugin's routes (the navigation's
// list included) answer 404 at once and its links come back with it; and the table core migration
// 0006 created is taken over by the plugin's own migration without losing a row.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { roleWith, secondInstance, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { isHttpUrl } from '../shared/link-rules';

describe('isHttpUrl (the rule the admin API, the admin form and the navigation share)', () => {
  it('takes http and https addresses only', () => {
    for (const good of ['https://example.com', 'http://example.com/a?b=c#d', 'HTTPS://Example.com', 'http://127.0.0.1:8080/x']) expect(isHttpUrl(good), good).toBe(true);
    for (const bad of [
      '',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,hi',
      'ftp://example.com',
      'mailto:a@example.com',
      '/relative',
      'example.com',
      'https://',
      ' https://example.com',
      'https://exa mple.com',
      `https://example.com/${'a'.repeat(2048)}`,
    ]) {
      expect(isHttpUrl(bad), bad).toBe(false);
    }
  });
});

interface Link {
  id: number;
  name: string;
  url: string;
  icon: string | null;
  order: number;
  created_at: string;
  updated_at: string;
}

describe.each(testDialects())('redirect links on %s', (dialect) => {
  let panel: TestPanel;
  let admin: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    admin = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });
  beforeEach(async () => {
    await panel.services.database.db.withTables<{ redirect_links: { id: number } }>().deleteFrom('redirect_links').execute();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, who: SignedInUser | null = admin) =>
    panel.app.inject({ method, url, payload: payload as Record<string, unknown> | undefined, headers: who ? { cookie: who.cookie } : {} });

  const create = async (body: Record<string, unknown>): Promise<Link> => {
    const response = await call('POST', '/api/admin/redirect-links', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ link: Link }>().link;
  };

  const count = async () => {
    const row = await panel.services.database.db
      .withTables<{ redirect_links: { id: number } }>()
      .selectFrom('redirect_links')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  const auditActions = async (linkId: number) => {
    const rows = await panel.services.database.db
      .selectFrom('audit_log')
      .select(['action', 'details', 'actor_user_id'])
      .where('action', 'like', 'admin.redirect_link.%')
      .orderBy('id')
      .execute();
    return rows.filter((r) => (JSON.parse(r.details) as { link_id?: number }).link_id === linkId).map((r) => ({ action: r.action, actor: r.actor_user_id }));
  };

  it('creates, reads, edits and deletes a link, and logs each change', async () => {
    const link = await create({ name: '  Discord  ', url: 'https://discord.gg/orepanel', icon: 'link', order: 5 });
    expect(link).toMatchObject({ name: 'Discord', url: 'https://discord.gg/orepanel', icon: 'link', order: 5 });

    const one = await call('GET', `/api/admin/redirect-links/${link.id}`);
    expect(one.json()).toEqual({ link });

    const edited = await call('PATCH', `/api/admin/redirect-links/${link.id}`, { url: 'http://status.example.com/', icon: null });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<{ link: Link }>().link).toMatchObject({ id: link.id, name: 'Discord', url: 'http://status.example.com/', icon: null, order: 5 });

    const removed = await call('DELETE', `/api/admin/redirect-links/${link.id}`);
    expect(removed.json()).toEqual({ success: true });
    expect((await call('GET', `/api/admin/redirect-links/${link.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/admin/redirect-links/${link.id}`)).json()).toMatchObject({ error: { code: 'REDIRECT_LINK_NOT_FOUND' } });

    expect(await auditActions(link.id)).toEqual(['create', 'update', 'delete'].map((a) => ({ action: `admin.redirect_link.${a}`, actor: admin.id })));
  });

  it('lists in navigation order (order, then name) and pages on the server', async () => {
    for (let i = 0; i < 23; i++) await create({ name: `Link ${String(i).padStart(2, '0')}`, url: `https://example.com/${i}`, order: 10 });
    await create({ name: 'Zeta first', url: 'https://example.com/z', order: -1 });
    await create({ name: 'Alpha last', url: 'https://example.com/a', order: 99 });

    const first = (await call('GET', '/api/admin/redirect-links?page=1&per_page=20')).json<{ data: Link[]; meta: unknown }>();
    expect(first.meta).toEqual({ page: 1, per_page: 20, total: 25, total_pages: 2 });
    expect(first.data.map((l) => l.name).slice(0, 3)).toEqual(['Zeta first', 'Link 00', 'Link 01']);
    const second = (await call('GET', '/api/admin/redirect-links?page=2&per_page=20')).json<{ data: Link[] }>();
    expect(second.data.map((l) => l.name)).toEqual(['Link 19', 'Link 20', 'Link 21', 'Link 22', 'Alpha last']);
    expect((await call('GET', '/api/admin/redirect-links?per_page=101')).statusCode).toBe(400);
  });

  it('serves every link to anyone at GET /api/redirect-links, in order, without bookkeeping fields', async () => {
    const b = await create({ name: 'Status', url: 'https://status.example.com', order: 2 });
    const a = await create({ name: 'Discord', url: 'https://discord.gg/x', icon: 'users', order: 1 });
    const response = await call('GET', '/api/redirect-links', undefined, null);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toEqual({
      data: [
        { id: a.id, name: 'Discord', url: 'https://discord.gg/x', icon: 'users', order: 1 },
        { id: b.id, name: 'Status', url: 'https://status.example.com', icon: null, order: 2 },
      ],
    });
  });

  it('refuses every bad input with a 4xx naming the field, and creates nothing', async () => {
    const bad: [Record<string, unknown>, number, string, string | undefined][] = [
      [{ name: 'x', url: 'javascript:alert(1)' }, 400, 'INVALID_URL', 'url'],
      [{ name: 'x', url: 'data:text/html,<script>alert(1)</script>' }, 400, 'INVALID_URL', 'url'],
      [{ name: 'x', url: 'ftp://example.com' }, 400, 'INVALID_URL', 'url'],
      [{ name: 'x', url: '/dashboard' }, 400, 'INVALID_URL', 'url'],
      [{ name: 'x', url: ' https://example.com' }, 400, 'INVALID_URL', 'url'],
      [{ name: 'x', url: `https://example.com/${'a'.repeat(2048)}` }, 400, 'VALIDATION_ERROR', 'url'],
      [{ name: 'x' }, 400, 'VALIDATION_ERROR', 'url'],
      [{ url: 'https://example.com' }, 400, 'VALIDATION_ERROR', 'name'],
      [{ name: '', url: 'https://example.com' }, 400, 'VALIDATION_ERROR', 'name'],
      [{ name: '   ', url: 'https://example.com' }, 400, 'VALIDATION_ERROR', 'name'],
      [{ name: 'n'.repeat(65), url: 'https://example.com' }, 400, 'VALIDATION_ERROR', 'name'],
      [{ name: 'x', url: 'https://example.com', icon: 'Not An Icon' }, 400, 'VALIDATION_ERROR', 'icon'],
      [{ name: 'x', url: 'https://example.com', order: 1.5 }, 400, 'VALIDATION_ERROR', 'order'],
      [{ name: 'x', url: 'https://example.com', order: 10_000_000 }, 400, 'VALIDATION_ERROR', 'order'],
    ];
    for (const [body, status, code, field] of bad) {
      const response = await call('POST', '/api/admin/redirect-links', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ error: { code, field } });
    }
    expect(await count()).toBe(0);
  });

  it('refuses a bad edit and leaves the link as it was', async () => {
    const link = await create({ name: 'Wiki', url: 'https://wiki.example.com', order: 1 });
    for (const body of [{ url: 'javascript:alert(1)' }, { name: ' ' }, { order: 'first' }, { icon: 'UPPER' }, {}]) {
      const response = await call('PATCH', `/api/admin/redirect-links/${link.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ error: { code: string; message: string } }>().error.message).not.toBe('');
    }
    expect((await call('GET', `/api/admin/redirect-links/${link.id}`)).json()).toEqual({ link });
    expect((await call('PATCH', '/api/admin/redirect-links/999999', { name: 'Ghost' })).json()).toMatchObject({ error: { code: 'REDIRECT_LINK_NOT_FOUND' } });
    expect((await call('PATCH', '/api/admin/redirect-links/abc', { name: 'Ghost' })).statusCode).toBe(400);
  });

  it('lets each permission do its own part only', async () => {
    const reader = await userWithRole(panel, 1);
    const role = await roleWith(panel, ['admin.redirect.links.list']);
    await panel.services.database.db.updateTable('users').set({ role_id: role }).where('id', '=', reader.id).execute();
    // a custom role is not admin-type by number (2–8), but the server decides by permission alone
    const link = await create({ name: 'Docs', url: 'https://docs.example.com' });
    expect((await call('GET', '/api/admin/redirect-links', undefined, reader)).statusCode).toBe(200);
    const refused = await call('POST', '/api/admin/redirect-links', { name: 'Mine', url: 'https://example.com' }, reader);
    expect(refused.statusCode).toBe(403);
    expect((await call('PATCH', `/api/admin/redirect-links/${link.id}`, { name: 'Mine' }, reader)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/admin/redirect-links/${link.id}`, undefined, reader)).statusCode).toBe(403);
    expect(await count()).toBe(1);
  });

  it('leaves the navigation and the admin API at once when switched off, and comes back with its links', async () => {
    const link = await create({ name: 'Forum', url: 'https://forum.example.com' });
    const off = await call('POST', '/api/admin/plugins/redirect-links/disable');
    expect(off.statusCode, off.body).toBe(200);
    try {
      expect((await call('GET', '/api/redirect-links', undefined, null)).statusCode).toBe(404);
      expect((await call('GET', '/api/admin/redirect-links')).statusCode).toBe(404);
      expect((await call('POST', '/api/admin/redirect-links', { name: 'Shop', url: 'https://shop.example.com' })).statusCode).toBe(404);
      // its manifest, and with it the navigation's component, is no longer served
      const served = (await call('GET', '/api/system/plugins', undefined, null)).json<{ id: string }[]>();
      expect(served.map((p) => p.id)).not.toContain('redirect-links');
    } finally {
      expect((await call('POST', '/api/admin/plugins/redirect-links/enable')).statusCode).toBe(200);
    }
    expect((await call('GET', '/api/redirect-links', undefined, null)).json()).toEqual({
      data: [{ id: link.id, name: 'Forum', url: 'https://forum.example.com', icon: null, order: 0 }],
    });
    expect(await count()).toBe(1);
  });

  it('takes over the table of core migration 0006 on an existing install, keeping its rows', async () => {
    const link = await create({ name: 'Status', url: 'https://status.example.com', order: 3 });
    // an install from before the plugin: the core made the table, the plugin's migration never ran
    const db = panel.services.database.db.withTables<{ op_migrations_redirect_links: { name: string; timestamp: string } }>();
    expect((await db.selectFrom('op_migrations_redirect_links').select('name').execute()).map((r) => r.name)).toEqual(['0001_redirect_links']);
    await db.deleteFrom('op_migrations_redirect_links').execute();
    const upgraded = await secondInstance(panel, { jobs: false });
    try {
      expect((await db.selectFrom('op_migrations_redirect_links').select('name').execute()).map((r) => r.name)).toEqual(['0001_redirect_links']);
      const answer = await upgraded.inject({ method: 'GET', url: '/api/redirect-links' });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({ data: [{ id: link.id, name: 'Status', url: 'https://status.example.com', icon: null, order: 3 }] });
    } finally {
      await upgraded.close();
    }
  });
});
