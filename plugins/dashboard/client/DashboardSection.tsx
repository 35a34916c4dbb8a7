// A titled group of the dashboard (activity, resources, announcements, widgets).
import { theme } from '@orepanel/sdk';
import { useId, type ReactNode } from 'react';

export function DashboardSection({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} css={{ display: 'grid', gap: 12, minWidth: 0 }}>
      <header css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '4px 12px' }}>
        <h2 id={headingId} css={{ margin: 0, fontSize: theme.font.size.lg, fontWeight: theme.font.weight.semibold, color: theme.colors.text }}>
          {title}
        </h2>
        {hint && <p css={{ margin: 0, fontSize: theme.font.size.sm, color: theme.colors.muted }}>{hint}</p>}
      </header>
      {children}
    </section>
  );
}
