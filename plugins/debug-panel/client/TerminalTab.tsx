// App: the script terminal (spec §2). The first time it is opened in a browser tab it shows a
// self-XSS warning in the user's language — people are talked into pasting code that takes over
// their account — and the input exists only once the warning was acknowledged. Enter runs, the arrow
// keys walk the history.
import { Button, theme, useTranslation } from '@orepanel/sdk';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { monoText } from './parts';
import { runScript } from './terminal';

const c = theme.colors;
/** Remembered for this browser tab only: a new tab (a new victim's tab) warns again. */
export const WARNING_ACKNOWLEDGED_KEY = 'debug-panel.terminal-warning-acknowledged';
const MAX_LINES = 200;

interface Line {
  id: number;
  kind: 'input' | 'result' | 'error';
  text: string;
}

function acknowledgedBefore(): boolean {
  try {
    return sessionStorage.getItem(WARNING_ACKNOWLEDGED_KEY) === '1';
  } catch {
    return false;
  }
}

function SelfXssWarning({ onAcknowledge }: { onAcknowledge(): void }) {
  const { t } = useTranslation('debug-panel');
  return (
    <div role="alert" css={{ margin: 12, padding: 16, borderRadius: theme.radii.md, border: `1px solid ${c.danger}`, background: c.dangerSoft, display: 'grid', gap: 10 }}>
      <strong css={{ color: c.danger, fontSize: theme.font.size.xl }}>{t('terminal.warningTitle')}</strong>
      <p css={{ margin: 0, color: c.text }}>{t('terminal.warningText')}</p>
      <p css={{ margin: 0, color: c.text }}>{t('terminal.warningScam')}</p>
      <div>
        <Button variant="danger" onClick={onAcknowledge}>
          {t('terminal.acknowledge')}
        </Button>
      </div>
    </div>
  );
}

export function TerminalTab() {
  const { t } = useTranslation('debug-panel');
  const [acknowledged, setAcknowledged] = useState(acknowledgedBefore);
  const [lines, setLines] = useState<Line[]>([]);
  const [code, setCode] = useState('');
  const [running, setRunning] = useState(false);
  const history = useRef<string[]>([]);
  const position = useRef(0);
  const nextId = useRef(1);
  const input = useRef<HTMLInputElement>(null);
  const output = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (acknowledged) input.current?.focus();
  }, [acknowledged]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the output box scrolls to the newest line whenever one is added
  useEffect(() => {
    const box = output.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [lines]);

  const acknowledge = () => {
    try {
      sessionStorage.setItem(WARNING_ACKNOWLEDGED_KEY, '1');
    } catch {
      // storage blocked: the warning shows again next time
    }
    setAcknowledged(true);
  };

  const add = (kind: Line['kind'], text: string) => setLines((before) => [...before, { id: nextId.current++, kind, text }].slice(-MAX_LINES));

  const run = async () => {
    const typed = code.trim();
    if (!typed || running) return;
    history.current = [...history.current.filter((h) => h !== typed), typed].slice(-50);
    position.current = history.current.length;
    setCode('');
    add('input', typed);
    setRunning(true);
    const outcome = await runScript(typed);
    setRunning(false);
    add(outcome.ok ? 'result' : 'error', outcome.text);
  };

  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void run();
    } else if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      const past = history.current;
      if (past.length === 0) return;
      event.preventDefault();
      position.current = Math.min(past.length, Math.max(0, position.current + (event.key === 'ArrowUp' ? -1 : 1)));
      setCode(past[position.current] ?? '');
    }
  };

  if (!acknowledged) return <SelfXssWarning onAcknowledge={acknowledge} />;
  return (
    <div css={{ display: 'grid', gap: 8, padding: 12 }}>
      <p css={{ margin: 0, color: c.muted, fontSize: theme.font.size.xs }}>{t('terminal.hint')}</p>
      <ol
        ref={output}
        aria-label={t('terminal.output')}
        aria-live="polite"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the output scrolls; keyboard users must be able to scroll it
        tabIndex={0}
        css={{
          ...monoText,
          listStyle: 'none',
          margin: 0,
          padding: 10,
          minHeight: 120,
          maxHeight: 300,
          overflow: 'auto',
          background: c.background,
          border: `1px solid ${c.border}`,
          borderRadius: theme.radii.sm,
        }}
      >
        {lines.length === 0 ? <li css={{ color: c.muted }}>{t('terminal.empty')}</li> : null}
        {lines.map((line) => (
          <li
            key={line.id}
            data-terminal-line={line.kind}
            css={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', color: line.kind === 'error' ? c.danger : line.kind === 'input' ? c.muted : c.text, padding: '2px 0' }}
          >
            {line.kind === 'input' ? `› ${line.text}` : line.text}
          </li>
        ))}
      </ol>
      <div css={{ display: 'flex', gap: 8 }}>
        <input
          ref={input}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          onKeyDown={onKey}
          aria-label={t('terminal.input')}
          placeholder={t('terminal.placeholder')}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          css={{
            ...monoText,
            flex: 1,
            minWidth: 0,
            height: 36,
            padding: '0 10px',
            borderRadius: theme.radii.sm,
            border: `1px solid ${c.borderStrong}`,
            background: c.background,
            color: c.text,
            '&::placeholder': { color: c.muted },
            '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
          }}
        />
        <Button size="sm" onClick={() => void run()} loading={running}>
          {t('terminal.run')}
        </Button>
        <Button size="sm" variant="secondary" onClick={() => setLines([])}>
          {t('clear')}
        </Button>
      </div>
    </div>
  );
}
