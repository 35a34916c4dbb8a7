// @vitest-environment jsdom
// The list pattern: which page numbers Pagination offers, and usePagedList's requests (page and
// search in the address, debounced search back to page 1) through a tiny test plugin.
import { describe, expect, it, afterEach } from 'vitest';
import { definePlugin } from '../plugin';
import { cleanup, renderPlugin, type RecordedHttpCall } from '../../testing';
import { visiblePages } from './list';

afterEach(() => cleanup());

describe('visiblePages', () => {
  it('keeps the first, the last and the neighbours of the current page, with gaps', () => {
    expect(visiblePages(1, 1)).toEqual([1]);
    expect(visiblePages(1, 3)).toEqual([1, 2, 3]);
    expect(visiblePages(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(visiblePages(10, 10)).toEqual([1, null, 9, 10]);
    expect(visiblePages(2, 10)).toEqual([1, 2, 3, null, 10]);
  });
});

const manifest = { id: 'list-demo', name: 'List demo', version: '1.0.0', sdk: '^2.0.0', routes: [{ path: '/things', component: 'ThingsPage' }] };

const plugin = definePlugin({
  id: 'list-demo',
  setup(ctx) {
    ctx.routes.provide('ThingsPage', async () => {
      const { PagedList, usePagedList } = await import('./list');
      return {
        default: function ThingsPage() {
          const list = usePagedList<{ id: number; name: string }>('/api/things', { perPage: 2, debounceMs: 10 });
          return (
            <PagedList
              list={list}
              caption="Things"
              searchLabel="Search things"
              columns={[{ id: 'name', header: 'Name', cell: (r) => r.name }]}
              rowKey={(r) => r.id}
              empty={{ title: 'No things' }}
            />
          );
        },
      };
    });
  },
});

function things(call: RecordedHttpCall) {
  const all = ['apple', 'apricot', 'banana', 'cherry', 'date'].filter((n) => n.includes(call.query.get('search') ?? ''));
  const page = Number(call.query.get('page'));
  const perPage = Number(call.query.get('per_page'));
  const data = all.slice((page - 1) * perPage, page * perPage).map((name, i) => ({ id: (page - 1) * perPage + i, name }));
  return { body: { data, meta: { page, per_page: perPage, total: all.length, total_pages: Math.ceil(all.length / perPage) } } };
}

describe('usePagedList + PagedList', () => {
  it('pages and searches on the server, keeping both in the address', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/things', http: { 'GET /api/things': things } });
    await app.findByText('apple');
    expect(app.getByText('1–2 of 5')).toBeTruthy();
    await app.click(app.getByRole('button', 'Page 3'));
    await app.findByText('date');
    expect(app.location().search).toBe('?page=3');
    await app.type(app.getByLabelText('Search things'), 'ap');
    await app.findByText('apricot');
    const last = app.httpCalls.at(-1)!;
    expect([last.query.get('search'), last.query.get('page')]).toEqual(['ap', '1']);
    expect(app.location().search).toBe('?search=ap');
    await app.type(app.getByLabelText('Search things'), 'zzz');
    await app.findByText('Nothing matches your search.');
  });

  it('shows the server error with a retry', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/things',
      http: { 'GET /api/things': { status: 403, body: { error: { code: 'FORBIDDEN', message: 'Not for you.' } } } },
    });
    await app.findByText('Not for you.');
    expect(app.getByRole('button', 'Try again')).toBeTruthy();
  });
});
