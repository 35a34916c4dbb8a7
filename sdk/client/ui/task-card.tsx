// A long piece of work the page follows (a backup, a restore, an upload): its title, a bar while it
// runs, then how it ended; closable once it is over. The plugin words every line of it.
import type { ReactNode } from 'react';
import type { TaskState } from '../task-follower';
import { Button } from './Button';
import { ProgressBar } from './progress-bar';
import { theme } from './theme';

const c = theme.colors;

export interface TaskCardProps {
  title: string;
  state: TaskState;
  done: number;
  /** 0 while not known: the bar moves instead of filling */
  total: number;
  /** what the bar measures, for assistive technology; the title when left out */
  barLabel?: string;
  /** under the bar while the task runs */
  progress?: ReactNode;
  /** the dismiss button's text, shown once the task is over */
  dismissLabel: string;
  onDismiss(): void;
  /** below: how it ended, warnings */
  children?: ReactNode;
}

export function TaskCard({ title, state, done, total, barLabel, progress, dismissLabel, onDismiss, children }: TaskCardProps) {
  return (
    <section
      aria-label={title}
      aria-live="polite"
      css={{
        display: 'grid',
        gap: 10,
        padding: 16,
        background: c.surface,
        border: `1px solid ${state === 'failed' ? `${c.danger}66` : c.border}`,
        borderRadius: theme.radii.lg,
        minWidth: 0,
      }}
    >
      <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', justifyContent: 'space-between', gap: 8 }}>
        <strong css={{ overflowWrap: 'anywhere' }}>{title}</strong>
        {state !== 'running' && (
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            {dismissLabel}
          </Button>
        )}
      </div>
      {state === 'running' && (
        <>
          <ProgressBar done={done} total={total} label={barLabel ?? title} />
          {progress}
        </>
      )}
      {children}
    </section>
  );
}

/** A line of small, muted text in a {@link TaskCard}. */
export function TaskNote({ children }: { children: ReactNode }) {
  return <span css={{ color: c.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>{children}</span>;
}
