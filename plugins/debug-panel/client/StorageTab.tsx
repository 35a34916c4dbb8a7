// Storage: the cookies script can read and the local storage entries, read when the tab opens (and on
// Refresh). Credentials are shown as redacted: the session cookie and any stored token or key would
// otherwise be one keystroke away for anyone looking over a shoulder or at a screenshot.
import { redactCookies, redactStoredValue, theme, useTranslation } from '@orepanel/sdk';
import { useCallback, useEffect, useState } from 'react';
import { EmptyNote, monoText, SectionTitle, Toolbar, ToolButton } from './parts';

const c = theme.colors;
const VALUE_SHOWN = 2000;

export interface StorageView {
  cookies: { name: string; value: string }[];
  local: { key: string; value: string }[];
}

/** What the Storage tab shows: cookies readable by script and local storage, redacted, keys sorted. */
export function readStorage(doc: Pick<Document, 'cookie'> = document, storage: Pick<Storage, 'length' | 'key' | 'getItem'> | null = safeLocalStorage()): StorageView {
  const local: { key: string; value: string }[] = [];
  if (storage) {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key === null) continue;
      local.push({ key, value: redactStoredValue(key, storage.getItem(key) ?? '') });
    }
  }
  local.sort((a, b) => a.key.localeCompare(b.key));
  return { cookies: redactCookies(doc.cookie), local };
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** How many entries the tab lists (its count). */
export function storageCount(view: StorageView): number {
  return view.cookies.length + view.local.length;
}

function Pairs({ rows, label }: { rows: { name: string; value: string }[]; label: string }) {
  return (
    <table aria-label={label} css={{ ...monoText, width: '100%', borderCollapse: 'collapse', tableLayout: 'fixed' }}>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name} css={{ borderBottom: `1px solid ${c.border}`, verticalAlign: 'top' }}>
            <th scope="row" css={{ width: '32%', padding: '4px 8px 4px 0', textAlign: 'left', fontWeight: theme.font.weight.semibold, color: c.muted, overflowWrap: 'anywhere' }}>
              {row.name}
            </th>
            <td css={{ padding: '4px 0', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {row.value.length > VALUE_SHOWN ? `${row.value.slice(0, VALUE_SHOWN)}…` : row.value}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function StorageTab({ onRead }: { onRead?(view: StorageView): void }) {
  const { t } = useTranslation('debug-panel');
  const [view, setView] = useState(() => readStorage());
  useEffect(() => onRead?.(view), [view, onRead]);
  const refresh = useCallback(() => setView(readStorage()), []);
  return (
    <div>
      <Toolbar>
        <ToolButton onClick={refresh}>{t('storage.refresh')}</ToolButton>
        <span css={{ color: c.muted, fontSize: theme.font.size.xs }}>{t('storage.note')}</span>
      </Toolbar>
      <div css={{ padding: '0 12px 16px' }}>
        <SectionTitle>{t('storage.cookies', { count: view.cookies.length })}</SectionTitle>
        {view.cookies.length === 0 ? <EmptyNote>{t('storage.noCookies')}</EmptyNote> : <Pairs rows={view.cookies} label={t('storage.cookiesTable')} />}
        <SectionTitle>{t('storage.local', { count: view.local.length })}</SectionTitle>
        {view.local.length === 0 ? (
          <EmptyNote>{t('storage.noLocal')}</EmptyNote>
        ) : (
          <Pairs rows={view.local.map((e) => ({ name: e.key, value: e.value }))} label={t('storage.localTable')} />
        )}
      </div>
    </div>
  );
}
