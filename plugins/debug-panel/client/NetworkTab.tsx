// Network: every fetch the page made since start-up (spec §7), newest first, filtered by method, URL
// or status; one opens to its headers and bodies (as recorded: credentials already redacted), with
// "copy as cURL".
import { CopyButton, theme, useTranslation, type NetworkEntry } from '@orepanel/sdk';
import { useMemo, useState } from 'react';
import { curlCommand } from './curl';
import { clockTime, EmptyNote, FilterField, Mono, monoText, readable, SectionTitle, statusColor, Toolbar, ToolButton } from './parts';
import { diagnostics } from './recorded';

const c = theme.colors;

/** Does the entry match the filter (method, URL or status, any case)? */
export function matchesNetworkFilter(entry: Pick<NetworkEntry, 'method' | 'url' | 'status'>, filter: string): boolean {
  const words = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const hay = `${entry.method} ${entry.url} ${entry.status ?? ''}`.toLowerCase();
  return words.every((word) => hay.includes(word));
}

/** The path and query of a same-origin URL (the origin is noise in a list). */
function shortUrl(url: string): string {
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.origin === window.location.origin ? `${parsed.pathname}${parsed.search}` : url;
  } catch {
    return url;
  }
}

function Headers({ headers, empty }: { headers: Readonly<Record<string, string>>; empty: string }) {
  const rows = Object.entries(headers);
  if (rows.length === 0) return <p css={{ margin: 0, color: c.muted, fontSize: theme.font.size.sm }}>{empty}</p>;
  return (
    <dl css={{ ...monoText, margin: 0, display: 'grid', gridTemplateColumns: 'minmax(90px, max-content) 1fr', gap: '2px 12px' }}>
      {rows.map(([name, value]) => (
        <div key={name} css={{ display: 'contents' }}>
          <dt css={{ color: c.muted }}>{name}</dt>
          <dd css={{ margin: 0, overflowWrap: 'anywhere' }}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function EntryDetail({ entry, onBack }: { entry: NetworkEntry; onBack(): void }) {
  const { t } = useTranslation('debug-panel');
  const status = entry.status === null ? t('network.pending') : entry.status === 0 ? t('network.failed') : String(entry.status);
  return (
    <div>
      <Toolbar>
        <ToolButton onClick={onBack}>← {t('network.back')}</ToolButton>
        <CopyButton text={curlCommand(entry, window.location.origin)} label={t('network.copyCurl')} />
        {entry.responseBody ? <CopyButton text={entry.responseBody} label={t('network.copyResponse')} /> : null}
      </Toolbar>
      <div css={{ padding: '4px 12px 16px' }}>
        <SectionTitle>{t('network.general')}</SectionTitle>
        <dl css={{ ...monoText, margin: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '2px 12px' }}>
          <dt css={{ color: c.muted }}>{t('network.url')}</dt>
          <dd css={{ margin: 0, overflowWrap: 'anywhere' }}>{entry.url}</dd>
          <dt css={{ color: c.muted }}>{t('network.method')}</dt>
          <dd css={{ margin: 0 }}>{entry.method}</dd>
          <dt css={{ color: c.muted }}>{t('network.status')}</dt>
          <dd css={{ margin: 0, color: statusColor(entry.status) }}>{status}</dd>
          <dt css={{ color: c.muted }}>{t('network.time')}</dt>
          <dd css={{ margin: 0 }}>
            {clockTime(entry.startedAt)}
            {entry.durationMs !== null ? ` · ${t('network.duration', { ms: entry.durationMs })}` : ''}
          </dd>
          {entry.error ? (
            <>
              <dt css={{ color: c.muted }}>{t('network.error')}</dt>
              <dd css={{ margin: 0, color: c.danger }}>{entry.error}</dd>
            </>
          ) : null}
        </dl>
        <SectionTitle>{t('network.requestHeaders')}</SectionTitle>
        <Headers headers={entry.requestHeaders} empty={t('network.none')} />
        <SectionTitle>{t('network.requestBody')}</SectionTitle>
        {entry.requestBody ? <Mono>{readable(entry.requestBody)}</Mono> : <p css={{ margin: 0, color: c.muted, fontSize: theme.font.size.sm }}>{t('network.none')}</p>}
        <SectionTitle>{t('network.responseHeaders')}</SectionTitle>
        <Headers headers={entry.responseHeaders} empty={entry.status === null ? t('network.pending') : t('network.none')} />
        <SectionTitle>{t('network.responseBody')}</SectionTitle>
        {entry.responseBody ? (
          <Mono>{readable(entry.responseBody)}</Mono>
        ) : (
          <p css={{ margin: 0, color: c.muted, fontSize: theme.font.size.sm }}>{entry.responseBody === '' ? t('network.emptyBody') : t('network.pending')}</p>
        )}
        <p css={{ margin: '12px 0 0', color: c.muted, fontSize: theme.font.size.xs }}>{t('network.redactedNote')}</p>
      </div>
    </div>
  );
}

export function NetworkTab({ entries, dropped }: { entries: readonly NetworkEntry[]; dropped: number }) {
  const { t } = useTranslation('debug-panel');
  const [filter, setFilter] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const shown = useMemo(() => entries.filter((e) => matchesNetworkFilter(e, filter)).reverse(), [entries, filter]);
  const open = openId === null ? null : (entries.find((e) => e.id === openId) ?? null);

  if (open) return <EntryDetail entry={open} onBack={() => setOpenId(null)} />;
  return (
    <div>
      <Toolbar>
        <FilterField value={filter} onChange={setFilter} label={t('network.filter')} />
        <ToolButton onClick={() => diagnostics()?.clear('network')}>{t('clear')}</ToolButton>
        <span css={{ color: c.muted, fontSize: theme.font.size.xs }}>
          {t('shownOf', { shown: shown.length, total: entries.length })}
          {dropped > 0 ? ` · ${t('dropped', { count: dropped })}` : ''}
        </span>
      </Toolbar>
      {shown.length === 0 ? (
        <EmptyNote>{entries.length === 0 ? t('network.empty') : t('noMatch')}</EmptyNote>
      ) : (
        <ul aria-label={t('tabs.network')} css={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {shown.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                onClick={() => setOpenId(e.id)}
                data-network-entry={e.id}
                css={{
                  ...monoText,
                  display: 'grid',
                  gridTemplateColumns: '52px 40px minmax(0, 1fr) auto',
                  gap: 8,
                  alignItems: 'baseline',
                  width: '100%',
                  padding: '6px 12px',
                  border: 0,
                  borderBottom: `1px solid ${c.border}`,
                  background: 'transparent',
                  color: c.text,
                  textAlign: 'left',
                  cursor: 'pointer',
                  '&:hover': { background: c.surfaceHover },
                  '&:focus-visible': { outline: 'none', boxShadow: `inset 0 0 0 2px ${c.focus}` },
                }}
              >
                <span css={{ fontWeight: theme.font.weight.semibold }}>{e.method}</span>
                <span css={{ color: statusColor(e.status) }}>{e.status === null ? '…' : e.status === 0 ? '✕' : e.status}</span>
                <span css={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={e.url}>
                  {shortUrl(e.url)}
                </span>
                <span css={{ color: c.muted }}>{e.durationMs === null ? '' : t('network.duration', { ms: e.durationMs })}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
