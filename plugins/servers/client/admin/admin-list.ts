// The admin lists of this plugin (servers, queue, attempt logs) with the sdk's table, search field
// and pagination. The servers API answers a page as `{ <rows>, total, page, per_page }` rather than
// the sdk's `{ data, meta }` that usePagedList reads, so this hook does the same job for that shape:
// page, search and filters live in the address (reload, back and shared links keep the position), and
// the result is the sdk's PagedListState, shown by the sdk's PagedList.
import { useApi, useSearchParams, type PagedListState } from '@orepanel/sdk';
import { useEffect, useState } from 'react';

export interface ServerApiPage {
  total: number;
  page: number;
  per_page: number;
}

const DEBOUNCE_MS = 300;

function positive(text: string | null): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export interface AdminList<T> extends PagedListState<T> {
  /** a filter kept in the address (e.g. status) */
  filter(name: string): string;
  setFilter(name: string, value: string): void;
}

/**
 * Fetches one page of `url` with `?page=` (and `search=` and the named filters when set).
 * @param rowsOf picks the rows out of the answer (`(a) => a.servers`)
 */
export function useAdminList<A extends ServerApiPage, T>(url: string, rowsOf: (answer: A) => T[], filters: readonly string[] = []): AdminList<T> {
  const [params, setParams] = useSearchParams();
  const page = positive(params.get('page'));
  const search = params.get('search') ?? '';
  const [searchText, setSearchText] = useState(search);

  useEffect(() => setSearchText(search), [search]);

  const write = (changes: Record<string, string>) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value && !(key === 'page' && value === '1')) out.set(key, value);
          else out.delete(key);
        }
        return out;
      },
      { replace: true },
    );

  // search once the user stops typing; a new search starts at page 1 (`write` only wraps the
  // router's setter, so the search texts alone decide when to run)
  useEffect(() => {
    const wanted = searchText.trim();
    if (wanted === search) return;
    const timer = setTimeout(() => write({ search: wanted, page: '1' }), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText, search]);

  const query = new URLSearchParams({ page: String(page) });
  if (search) query.set('search', search);
  for (const f of filters) {
    const value = params.get(f);
    if (value) query.set(f, value);
  }
  const target = `${url}?${query.toString()}`;

  const { data, loading, error, reload } = useApi<A>(target);
  const meta = data ? { page: data.page, per_page: data.per_page, total: data.total, total_pages: Math.max(1, Math.ceil(data.total / Math.max(1, data.per_page))) } : undefined;

  // a page past the end (rows deleted, a stale link): go to the last page that exists
  const lastPage = meta?.total_pages;
  useEffect(() => {
    if (lastPage !== undefined && page > lastPage) write({ page: String(lastPage) });
  }, [lastPage, page]);

  return {
    rows: data ? rowsOf(data) : undefined,
    meta,
    loading,
    error,
    reload,
    page,
    setPage: (next) => write({ page: String(Math.max(1, Math.floor(next))) }),
    searchText,
    setSearchText,
    search,
    perPage: data?.per_page ?? 20,
    filter: (name) => params.get(name) ?? '',
    setFilter: (name, value) => write({ [name]: value, page: '1' }),
  };
}
