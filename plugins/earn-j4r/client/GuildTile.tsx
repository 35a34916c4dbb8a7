// One Discord server on /earn/j4r: its icon (initials when it has none or it fails to load), name,
// reward, whether it paid already, and the invite — a link that opens Discord in a new tab.
import { Avatar, Badge, Icon, initialsOf, theme, useTranslation } from '@orepanel/sdk';
import type { J4rGuild } from './api';

const c = theme.colors;

export function GuildTile({ guild }: { guild: J4rGuild }) {
  const { t } = useTranslation('earn-j4r');
  return (
    <li
      aria-label={guild.name}
      css={{
        display: 'grid',
        gap: 14,
        padding: 16,
        background: c.surface,
        border: `1px solid ${c.border}`,
        borderRadius: theme.radii.lg,
        boxShadow: theme.shadows.sm,
        minWidth: 0,
      }}
    >
      <div css={{ display: 'flex', gap: 12, alignItems: 'center', minWidth: 0 }}>
        <Avatar src={guild.icon_url} initials={initialsOf(null, null, guild.name)} size={48} />
        <div css={{ minWidth: 0, display: 'grid', gap: 4 }}>
          <span css={{ color: c.text, fontWeight: theme.font.weight.semibold, overflowWrap: 'anywhere' }}>{guild.name}</span>
          <span css={{ color: c.muted, fontSize: theme.font.size.sm }}>{t('guild.reward', { value: guild.coins })}</span>
        </div>
      </div>
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: 10, alignItems: 'center', justifyContent: 'space-between' }}>
        {guild.claimed ? <Badge tone="success">{t('guild.paid', { value: guild.claimed_coins ?? guild.coins })}</Badge> : <Badge>{t('guild.notPaid')}</Badge>}
        <a
          href={guild.invite_url}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('guild.joinNamed', { name: guild.name })}
          css={{
            display: 'inline-flex',
            alignItems: 'center',
            gap: 6,
            padding: '6px 12px',
            borderRadius: theme.radii.md,
            border: `1px solid ${c.borderStrong}`,
            color: c.text,
            textDecoration: 'none',
            fontSize: theme.font.size.sm,
            fontWeight: theme.font.weight.semibold,
            '&:hover': { background: c.surfaceHover },
            '&:focus-visible': { outline: `2px solid ${c.focus}`, outlineOffset: 2 },
          }}
        >
          {t('guild.join')}
          <Icon name="external" size={14} />
        </a>
      </div>
    </li>
  );
}
