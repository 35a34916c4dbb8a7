// The sidebar's building blocks, shared by the kernel's navigation and by a plugin that adds a section
// to it through the `nav.sections` slot (the redirect links, for one): one look, read from the
// interface settings (compact mode, section dividers), and the kernel's own texts, so a contributed
// section cannot be told from the kernel's.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { uiStore } from '../stores/ui';
import { VisuallyHidden } from './feedback';
import { Icon, type IconName } from './icons';
import { theme } from './theme';

const c = theme.colors;

/** The props the sidebar gives every component of the `nav.sections` slot. */
export interface SidebarSectionSlotProps {
  /** true when nothing comes before the section (no divider above it) */
  first: boolean;
}

/** One sidebar entry, a page of the panel or an external address; `.active` marks the current page. */
export function sidebarItemStyle(compact: boolean) {
  return {
    display: 'flex',
    alignItems: 'center',
    gap: 10,
    minHeight: compact ? 34 : 40,
    padding: compact ? '4px 10px' : '8px 12px',
    borderRadius: theme.radii.md,
    color: c.muted,
    textDecoration: 'none',
    fontSize: compact ? theme.font.size.sm : theme.font.size.md,
    fontWeight: theme.font.weight.medium,
    '&:hover': { background: c.surfaceHover, color: c.text },
    '&.active': {
      background: c.primarySoft,
      color: c.text,
      boxShadow: `inset 3px 0 0 ${c.primary}`,
    },
  } as const;
}

/** An entry's label: one line, cut with an ellipsis. */
export const sidebarLabelStyle = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

export interface SidebarSectionProps {
  /** the section's name: its title is the kernel's text nav.sections.<section>, unless `title` is given */
  section: string;
  /** the title of a section a plugin declares, already translated */
  title?: string;
  first: boolean;
  children: ReactNode;
}

/** A titled group of sidebar entries, divided from the one before it when the interface settings say so. */
export function SidebarSection({ section, title, first, children }: SidebarSectionProps) {
  const { t } = useTranslation('kernel');
  const look = uiStore((s) => s.settings.sidebar);
  const label = title ?? t(`nav.sections.${section}`);
  return (
    <section
      aria-label={label}
      css={{
        display: 'grid',
        gap: 2,
        paddingTop: first ? 0 : look.compactMode ? 6 : 10,
        borderTop: !first && look.showSectionDividers ? `1px solid ${c.border}` : undefined,
      }}
    >
      <h2
        css={{
          margin: '4px 10px',
          fontSize: theme.font.size.xs,
          fontWeight: theme.font.weight.semibold,
          letterSpacing: '.06em',
          textTransform: 'uppercase',
          color: c.subtle,
        }}
      >
        {label}
      </h2>
      {children}
    </section>
  );
}

export interface SidebarLinkProps {
  /** an http(s) address: check it before (the entry opens whatever it is given) */
  href: string;
  icon: IconName;
  label: string;
  /** data attributes for tests and custom CSS, e.g. { 'data-redirect-link': 3 } */
  data?: Readonly<Record<`data-${string}`, string | number>>;
}

/** A sidebar entry that opens an address outside the panel: a new tab, and no window.opener for the other site. */
export function SidebarLink({ href, icon, label, data }: SidebarLinkProps) {
  const { t } = useTranslation('kernel');
  const compact = uiStore((s) => s.settings.sidebar.compactMode);
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" {...data} css={sidebarItemStyle(compact)}>
      <Icon name={icon} size={compact ? 16 : 18} />
      <span css={sidebarLabelStyle}>{label}</span>
      <VisuallyHidden>{` (${t('shell.opensInNewTab')})`}</VisuallyHidden>
      <Icon name="external" size={14} style={{ marginLeft: 'auto', flex: 'none', opacity: 0.7 }} />
    </a>
  );
}
