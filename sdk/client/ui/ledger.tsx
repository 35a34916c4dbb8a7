// A user's coin ledger as one paged table: the amount (green in, red out), what moved it, why, the
// balance after it and when. The customer's dashboard and the admin's user page show the same thing,
// from different addresses.
import { useCallback, useMemo } from 'react';
import type { LedgerEntry } from '../../types';
import { useTranslation } from 'react-i18next';
import { intlLocale, useSdkText } from '../i18n';
import { SDK_NAMESPACE } from '../sdk-texts';
import { PagedList, usePagedList, type DataColumn } from './list';
import { theme } from './theme';

export interface LedgerListProps {
  /** a paged endpoint answering LedgerEntry rows, e.g. /api/user/wallet/transactions */
  url: string;
  perPage?: number;
  /** the table's caption (default: the translated "Transactions") */
  caption?: string;
}

function useNumberAndDate(): { count(value: number): string; when(iso: string): string } {
  const { i18n } = useTranslation(SDK_NAMESPACE);
  const locale = intlLocale(i18n.language);
  return useMemo(() => {
    const numbers = new Intl.NumberFormat(locale);
    const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    return {
      count: (value: number) => numbers.format(value),
      when: (iso: string) => {
        const date = new Date(iso);
        return Number.isNaN(date.getTime()) ? iso : dates.format(date);
      },
    };
  }, [locale]);
}

export function LedgerList({ url, perPage = 10, caption }: LedgerListProps) {
  const text = useSdkText();
  const list = usePagedList<LedgerEntry>(url, { perPage, searchable: false, inAddress: false });
  const { count, when } = useNumberAndDate();
  const signed = useCallback((delta: number) => `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${count(Math.abs(delta))}`, [count]);
  const columns = useMemo<DataColumn<LedgerEntry>[]>(
    () => [
      {
        id: 'delta',
        header: text('ledgerAmount'),
        primary: true,
        cell: (e) => (
          <span css={{ fontVariantNumeric: 'tabular-nums', fontWeight: theme.font.weight.semibold, color: e.delta < 0 ? theme.colors.danger : theme.colors.success }}>
            {signed(e.delta)}
          </span>
        ),
      },
      { id: 'kind', header: text('ledgerKind'), cell: (e) => <code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.sm }}>{e.kind}</code> },
      {
        id: 'why',
        header: text('ledgerWhy'),
        cell: (e) => <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>{e.reason ?? e.reference ?? '—'}</span>,
      },
      { id: 'after', header: text('ledgerBalance'), align: 'end', cell: (e) => <span css={{ fontVariantNumeric: 'tabular-nums' }}>{count(e.balance_after)}</span> },
      { id: 'when', header: text('ledgerWhen'), align: 'end', cell: (e) => when(e.created_at) },
    ],
    [text, signed, count, when],
  );
  return (
    <PagedList list={list} caption={caption ?? text('ledgerTitle')} columns={columns} rowKey={(e) => e.id} empty={{ icon: 'coins', title: text('ledgerEmpty') }} skeletonRows={3} />
  );
}
