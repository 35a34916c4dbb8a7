// Errors (spec §8: console errors, 'Unhandled Promise Rejection: …', 'Global Error: …') and Console
// (console output): newest first, filtered by text (and by level in the console), cleared on demand.
import { theme, useTranslation, type LogEntry, type LogLevel } from '@orepanel/sdk';
import { useMemo, useState } from 'react';
import { clockTime, EmptyNote, FilterField, monoText, Toolbar, ToolButton } from './parts';
import { diagnostics } from './recorded';

const c = theme.colors;

const LEVEL_COLOR: Record<LogLevel, string> = { error: c.danger, warn: c.warning, info: c.info, log: c.text, debug: c.muted };
const LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'log', 'debug'];

/** Does the line match the filter (every word, any case) and the level (null: any)? */
export function matchesLogFilter(entry: Pick<LogEntry, 'text' | 'level'>, filter: string, level: LogLevel | null): boolean {
  if (level !== null && entry.level !== level) return false;
  const text = entry.text.toLowerCase();
  return filter
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

export function LogTab({ list, entries, dropped }: { list: 'errors' | 'console'; entries: readonly LogEntry[]; dropped: number }) {
  const { t } = useTranslation('debug-panel');
  const [filter, setFilter] = useState('');
  const [level, setLevel] = useState<LogLevel | null>(null);
  const shown = useMemo(() => entries.filter((e) => matchesLogFilter(e, filter, level)).reverse(), [entries, filter, level]);

  return (
    <div>
      <Toolbar>
        <FilterField value={filter} onChange={setFilter} label={t(`${list}.filter`)} />
        {list === 'console' ? (
          <select
            aria-label={t('console.level')}
            value={level ?? ''}
            onChange={(event) => setLevel((event.target.value || null) as LogLevel | null)}
            css={{
              height: 32,
              borderRadius: theme.radii.sm,
              border: `1px solid ${c.borderStrong}`,
              background: c.background,
              color: c.text,
              font: 'inherit',
              fontSize: theme.font.size.sm,
              padding: '0 6px',
            }}
          >
            <option value="">{t('console.allLevels')}</option>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {t(`console.levels.${l}`)}
              </option>
            ))}
          </select>
        ) : null}
        <ToolButton onClick={() => diagnostics()?.clear(list)}>{t('clear')}</ToolButton>
        <span css={{ color: c.muted, fontSize: theme.font.size.xs }}>
          {t('shownOf', { shown: shown.length, total: entries.length })}
          {dropped > 0 ? ` · ${t('dropped', { count: dropped })}` : ''}
        </span>
      </Toolbar>
      {shown.length === 0 ? (
        <EmptyNote>{entries.length === 0 ? t(`${list}.empty`) : t('noMatch')}</EmptyNote>
      ) : (
        <ol aria-label={t(`tabs.${list}`)} css={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {shown.map((e) => (
            <li
              key={e.id}
              data-log-entry={e.source}
              css={{ ...monoText, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', gap: 8, padding: '6px 12px', borderBottom: `1px solid ${c.border}` }}
            >
              <span css={{ color: c.muted }}>
                {clockTime(e.at)}
                <br />
                <span css={{ color: LEVEL_COLOR[e.level] }}>{list === 'errors' ? t(`errors.sources.${e.source}`) : t(`console.levels.${e.level}`)}</span>
              </span>
              <span css={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', color: e.level === 'error' ? c.danger : c.text }}>{e.text}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
