// The save button of a long admin form, with its status: it stays at the bottom of the window while
// the administrator scrolls through the sections (the settings and a role's permissions), clear of
// the gear button in the corner.
import { theme } from '../ui/theme';
import type { ReactNode } from 'react';

export function SaveBar({ children }: { children: ReactNode }) {
  return (
    <div
      css={{
        position: 'sticky',
        bottom: 0,
        zIndex: 1,
        padding: '12px 64px 12px 0',
        background: `linear-gradient(transparent, ${theme.colors.background} 30%)`,
        display: 'flex',
        gap: 12,
        alignItems: 'center',
        flexWrap: 'wrap',
      }}
    >
      {children}
    </div>
  );
}
