// The one list pattern of the panel: a server-paged, searchable list (`usePagedList`) shown by
// `PagedList` = `SearchField` + `DataTable` + `Pagination`. Every admin list uses it, so paging,
// searching, loading, empty and error states look and behave the same everywhere. The server answers
// `{ data, meta: { page, per_page, total, total_pages } }`; page and search live in the address
// (?page=&search=) so reload, back and shared links keep the position.
import { css } from '@emotion/react';
import { useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useApi, type ApiError } from '../http';
import { useSdkText } from '../i18n';
import { Button } from './Button';
import { Alert, EmptyState, Skeleton, type EmptyStateProps } from './feedback';
import { controlStyle } from './form';
import { Icon } from './icons';
import { theme } from './theme';

const c = theme.colors;

/** The paging block of a server list answer. */
export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

/** A server list answer: one page of rows and where it sits. */
export interface PagedResponse<T> {
  data: T[];
  meta: PageMeta;
}

export interface PagedListOptions {
  /** rows per page (default 20; the admin API allows 1–100) */
  perPage?: number;
  /** send `search` to the server (default true when the list shows a search field) */
  searchable?: boolean;
  /** keep page and search in the address (default true); false for a second list on the same page */
  inAddress?: boolean;
  /** ms to wait after the last keystroke before searching (default 300) */
  debounceMs?: number;
}

export interface PagedListState<T> {
  rows: T[] | undefined;
  meta: PageMeta | undefined;
  loading: boolean;
  error: ApiError | null;
  reload(): void;
  page: number;
  setPage(page: number): void;
  /** what the search field shows (sent to the server after the debounce) */
  searchText: string;
  setSearchText(text: string): void;
  /** the search the shown rows answer */
  search: string;
  perPage: number;
}

const SEARCH_PARAM = 'search';
const PAGE_PARAM = 'page';

function positiveInt(text: string | null, fallback: number): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** Page and search held either in the address or in component state. */
function usePagingState(inAddress: boolean): [{ page: number; search: string }, (next: { page: number; search: string }) => void] {
  const [params, setParams] = useSearchParams();
  const [local, setLocal] = useState({ page: 1, search: '' });
  const fromAddress = useMemo(() => ({ page: positiveInt(params.get(PAGE_PARAM), 1), search: params.get(SEARCH_PARAM) ?? '' }), [params]);
  const write = useCallback(
    (next: { page: number; search: string }) => {
      if (!inAddress) {
        setLocal(next);
        return;
      }
      setParams(
        (current) => {
          const out = new URLSearchParams(current);
          if (next.page > 1) out.set(PAGE_PARAM, String(next.page));
          else out.delete(PAGE_PARAM);
          if (next.search) out.set(SEARCH_PARAM, next.search);
          else out.delete(SEARCH_PARAM);
          return out;
        },
        { replace: true },
      );
    },
    [inAddress, setParams],
  );
  return [inAddress ? fromAddress : local, write];
}

/**
 * Fetches one page of `url` (`?page=&per_page=&search=`) and keeps paging and search state. Pass null
 * as `url` to wait.
 * @example const users = usePagedList<AdminUser>('/api/admin/users'); <PagedList list={users} … />
 */
export function usePagedList<T>(url: string | null, options: PagedListOptions = {}): PagedListState<T> {
  const { perPage = 20, searchable = true, inAddress = true, debounceMs = 300 } = options;
  const [state, setState] = usePagingState(inAddress);
  const [searchText, setSearchTextState] = useState(state.search);

  // the address may change under us (back button): the field follows it
  useEffect(() => setSearchTextState(state.search), [state.search]);

  // search after the user stops typing; a new search starts at page 1
  useEffect(() => {
    const wanted = searchText.trim();
    if (wanted === state.search) return;
    const timer = setTimeout(() => setState({ page: 1, search: wanted }), debounceMs);
    return () => clearTimeout(timer);
  }, [searchText, state.search, debounceMs, setState]);

  const target = useMemo(() => {
    if (url === null) return null;
    const query = new URLSearchParams({ page: String(state.page), per_page: String(perPage) });
    if (searchable && state.search) query.set('search', state.search);
    return `${url}${url.includes('?') ? '&' : '?'}${query.toString()}`;
  }, [url, state.page, state.search, perPage, searchable]);

  const { data, loading, error, reload } = useApi<PagedResponse<T>>(target);

  // a page past the end (rows deleted, a stale link): go to the last page that exists
  const lastPage = data?.meta.total_pages;
  useEffect(() => {
    if (lastPage !== undefined && lastPage >= 1 && state.page > lastPage) setState({ page: lastPage, search: state.search });
  }, [lastPage, state.page, state.search, setState]);

  return {
    rows: data?.data,
    meta: data?.meta,
    loading,
    error,
    reload,
    page: state.page,
    setPage: (page: number) => setState({ page: Math.max(1, Math.floor(page)), search: state.search }),
    searchText,
    setSearchText: setSearchTextState,
    search: state.search,
    perPage,
  };
}

export interface SearchFieldProps {
  value: string;
  onChange(value: string): void;
  /** the field's accessible name and placeholder (default: the translated "Search") */
  label?: string;
  placeholder?: string;
}

/** A search input with a magnifier and a clear button. */
export function SearchField({ value, onChange, label, placeholder }: SearchFieldProps) {
  const text = useSdkText();
  const name = label ?? text('search');
  return (
    <div role="search" css={{ position: 'relative', display: 'flex', alignItems: 'center', minWidth: 0, flex: '1 1 240px', maxWidth: 420 }}>
      <Icon name="search" size={18} style={{ position: 'absolute', left: 12, color: c.subtle, pointerEvents: 'none' }} />
      <input
        type="search"
        value={value}
        aria-label={name}
        placeholder={placeholder ?? name}
        onChange={(event) => onChange(event.target.value)}
        css={[controlStyle, css({ paddingLeft: 38, paddingRight: 40, '&::-webkit-search-cancel-button': { display: 'none' } })]}
      />
      {value && (
        <button
          type="button"
          onClick={() => onChange('')}
          aria-label={text('clearSearch')}
          css={{
            position: 'absolute',
            right: 4,
            display: 'inline-flex',
            padding: 8,
            border: 0,
            borderRadius: theme.radii.sm,
            background: 'transparent',
            color: c.muted,
            cursor: 'pointer',
            '&:hover': { color: c.text },
          }}
        >
          <Icon name="close" size={16} />
        </button>
      )}
    </div>
  );
}

/** One column of a DataTable. */
export interface DataColumn<T> {
  id: string;
  /** the column heading; on phones, the label in front of each value */
  header: string;
  cell(row: T): ReactNode;
  /** numbers and actions read better at the end */
  align?: 'start' | 'end';
  /** the row's title on phones (shown first, without a label) */
  primary?: boolean;
}

export interface DataTableProps<T> {
  /** the table's accessible name */
  caption: string;
  columns: readonly DataColumn<T>[];
  /** undefined while the first load runs */
  rows: readonly T[] | undefined;
  rowKey(row: T): string | number;
  loading?: boolean;
  error?: ApiError | null;
  /** shows a retry button with the error */
  onRetry?: () => void;
  /** what an empty list shows */
  empty?: EmptyStateProps;
  /** how many placeholder rows the first load shows (default 5) */
  skeletonRows?: number;
}

const PHONE = '@media (max-width: 599.98px)';

const tableStyle = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: theme.font.size.md,
  'th, td': { padding: '12px 16px', textAlign: 'left', verticalAlign: 'middle', borderBottom: `1px solid ${c.border}` },
  th: { color: c.muted, fontSize: theme.font.size.sm, fontWeight: theme.font.weight.semibold, whiteSpace: 'nowrap', background: c.surfaceRaised },
  'td[data-align="end"], th[data-align="end"]': { textAlign: 'right' },
  'tbody tr:last-of-type td': { borderBottom: 0 },
  'tbody tr:hover td': { background: c.surfaceHover },
  // phones: each row becomes a small card, each value with its column's label in front
  [PHONE]: {
    thead: { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' },
    'tbody, tr, td': { display: 'block', width: '100%' },
    tr: { padding: '12px 14px', borderBottom: `1px solid ${c.border}` },
    'tbody tr:last-of-type': { borderBottom: 0 },
    'tbody tr:hover td': { background: 'transparent' },
    td: { display: 'flex', gap: 12, justifyContent: 'space-between', alignItems: 'center', padding: '4px 0', border: 0, textAlign: 'right', minWidth: 0, overflowWrap: 'anywhere' },
    'td[data-align="end"]': { textAlign: 'right' },
    'td::before': { content: 'attr(data-label)', color: c.muted, fontSize: theme.font.size.sm, textAlign: 'left', flex: 'none', maxWidth: '45%' },
    'td[data-primary="true"]': { display: 'block', textAlign: 'left', paddingBottom: 8 },
    'td[data-primary="true"]::before': { content: 'none' },
  },
});

/** A table of rows with loading, error and empty states; a stack of cards on phones. */
export function DataTable<T>({ caption, columns, rows, rowKey, loading = false, error = null, onRetry, empty, skeletonRows = 5 }: DataTableProps<T>) {
  const text = useSdkText();
  if (error && !rows) {
    return (
      <div css={{ padding: 16 }}>
        <Alert tone="error" title={text('listFailed')}>
          <div css={{ display: 'grid', gap: 10, justifyItems: 'start' }}>
            <span>{error.message}</span>
            {onRetry && (
              <Button size="sm" variant="secondary" onClick={onRetry}>
                {text('retry')}
              </Button>
            )}
          </div>
        </Alert>
      </div>
    );
  }
  if (!rows) {
    return (
      <div aria-busy="true" css={{ display: 'grid', gap: 10, padding: 16 }}>
        {Array.from({ length: skeletonRows }, (_, i) => (
          <Skeleton key={i} height={36} radius={theme.radii.md} />
        ))}
      </div>
    );
  }
  if (rows.length === 0) {
    return <EmptyState {...empty} />;
  }
  return (
    <div css={{ overflowX: 'auto', minWidth: 0 }} aria-busy={loading || undefined}>
      {error && (
        <div css={{ padding: '12px 16px 0' }}>
          <Alert tone="error">{error.message}</Alert>
        </div>
      )}
      <table css={[tableStyle, css({ opacity: loading ? 0.6 : 1, transition: 'opacity .15s' })]} aria-label={caption}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.id} scope="col" data-align={column.align ?? 'start'}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.id} data-label={column.header} data-align={column.align ?? 'start'} data-primary={column.primary || undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface PaginationProps {
  page: number;
  totalPages: number;
  onPageChange(page: number): void;
  /** with these, a "21–40 of 53" line shows */
  total?: number;
  perPage?: number;
  disabled?: boolean;
}

/** The page numbers that fit: first, last, and the current one with its neighbours; null is a gap. */
export function visiblePages(page: number, totalPages: number): (number | null)[] {
  const wanted = new Set([1, totalPages, page - 1, page, page + 1].filter((p) => p >= 1 && p <= totalPages));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1] > 1) out.push(null);
    out.push(p);
  });
  return out;
}

/** Previous / page numbers / next. On phones the numbers give way to "Page 2 of 5". */
export function Pagination({ page, totalPages, onPageChange, total, perPage, disabled }: PaginationProps) {
  const text = useSdkText();
  const labelId = useId();
  if (totalPages <= 1 && total === undefined) return null;
  const pages = Math.max(1, totalPages);
  const range =
    total !== undefined && perPage !== undefined && total > 0
      ? text('showingRange', { from: String((page - 1) * perPage + 1), to: String(Math.min(total, page * perPage)), total: String(total) })
      : null;
  return (
    <nav
      aria-labelledby={labelId}
      css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 10, padding: '12px 16px', borderTop: `1px solid ${c.border}` }}
    >
      <span id={labelId} css={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
        {text('pagination')}
      </span>
      <span css={{ color: c.muted, fontSize: theme.font.size.sm, fontVariantNumeric: 'tabular-nums' }}>{range}</span>
      {pages > 1 && (
        <div css={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          <Button size="sm" variant="secondary" disabled={disabled || page <= 1} onClick={() => onPageChange(page - 1)}>
            {text('previousPage')}
          </Button>
          <span css={{ display: 'none', [PHONE]: { display: 'inline' }, color: c.muted, fontSize: theme.font.size.sm, whiteSpace: 'nowrap' }}>
            {text('pageOf', { page: String(page), pages: String(pages) })}
          </span>
          <ul css={{ display: 'flex', gap: 4, margin: 0, padding: 0, listStyle: 'none', [PHONE]: { display: 'none' } }}>
            {visiblePages(page, pages).map((p, i) =>
              p === null ? (
                <li key={`gap-${i}`} aria-hidden css={{ color: c.subtle, padding: '0 4px', alignSelf: 'center' }}>
                  …
                </li>
              ) : (
                <li key={p}>
                  <Button
                    size="sm"
                    variant={p === page ? 'primary' : 'ghost'}
                    disabled={disabled}
                    aria-label={text('goToPage', { page: String(p) })}
                    aria-current={p === page ? 'page' : undefined}
                    onClick={() => p !== page && onPageChange(p)}
                  >
                    {p}
                  </Button>
                </li>
              ),
            )}
          </ul>
          <Button size="sm" variant="secondary" disabled={disabled || page >= pages} onClick={() => onPageChange(page + 1)}>
            {text('nextPage')}
          </Button>
        </div>
      )}
    </nav>
  );
}

export interface PagedListProps<T> extends Omit<DataTableProps<T>, 'rows' | 'loading' | 'error' | 'onRetry'> {
  /** what usePagedList returned */
  list: PagedListState<T>;
  /** shows a search field (the list must have been made `searchable`) */
  searchLabel?: string;
  /** more controls next to the search field (filters, a create button) */
  toolbar?: ReactNode;
}

/** A server-paged list: search, table, pagination — in one card. */
export function PagedList<T>({ list, searchLabel, toolbar, empty, ...table }: PagedListProps<T>) {
  const text = useSdkText();
  const searching = list.search !== '';
  return (
    <section
      aria-label={table.caption}
      css={{ background: c.surface, border: `1px solid ${c.border}`, borderRadius: theme.radii.lg, boxShadow: theme.shadows.sm, minWidth: 0, overflow: 'hidden' }}
    >
      {(searchLabel !== undefined || toolbar) && (
        <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 10, padding: 12, borderBottom: `1px solid ${c.border}` }}>
          {searchLabel !== undefined && <SearchField value={list.searchText} onChange={list.setSearchText} label={searchLabel} />}
          {toolbar && <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>{toolbar}</div>}
        </div>
      )}
      <DataTable
        {...table}
        rows={list.rows}
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
        empty={searching ? { icon: 'search', title: text('noResults') } : empty}
      />
      {list.meta && list.meta.total > 0 && (
        <Pagination page={list.page} totalPages={list.meta.total_pages} total={list.meta.total} perPage={list.meta.per_page} onPageChange={list.setPage} disabled={list.loading} />
      )}
    </section>
  );
}
