// The way to a server on the host's game panel (Pterodactyl): an external link, opened in a new tab
// with no referrer, looking like a small primary button.
import { Icon, theme, useTranslation } from '@orepanel/sdk';

const c = theme.colors;

export function PanelLink({ url, name }: { url: string; name: string }) {
  const { t } = useTranslation('servers');
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={t('widget.openPanelFor', { name })}
      css={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 6,
        minHeight: 32,
        padding: '6px 12px',
        borderRadius: theme.radii.md,
        background: c.primary,
        color: c.primaryText,
        fontSize: theme.font.size.sm,
        fontWeight: theme.font.weight.semibold,
        textDecoration: 'none',
        whiteSpace: 'nowrap',
        '&:hover': { background: c.primaryHover },
        '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
      }}
    >
      <Icon name="external" size={16} />
      {t('widget.openPanel')}
    </a>
  );
}
