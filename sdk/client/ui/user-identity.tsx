// How a person is shown wherever other people appear (leaderboard, profiles, lookup, lists): their
// avatar — or their initials when they have none or it fails to load — and their role as a badge in
// the role's own colour. Avatars are addresses users typed (http/https, checked by the account API),
// shown as lazily loaded images (LazyImage) with no referrer.
import { useState } from 'react';
import { LazyImage } from './lazy-image';
import { theme } from './theme';

const c = theme.colors;

/** Initials for the avatar placeholder: first and last name, else the start of the username. */
export function initialsOf(firstName: string | null | undefined, lastName: string | null | undefined, username: string | null | undefined): string {
  const fromNames = `${firstName?.trim()[0] ?? ''}${lastName?.trim()[0] ?? ''}`;
  const text = fromNames || username?.trim().slice(0, 2) || '?';
  return text.toUpperCase();
}

export interface AvatarProps {
  src: string | null | undefined;
  /** shown when there is no picture (see initialsOf) */
  initials: string;
  /** px, default 32 */
  size?: number;
  /** the accessible name; omit when the person's name is written next to it */
  label?: string;
}

/** A round avatar; the initials stand in when there is no picture or it cannot be loaded. */
export function Avatar({ src, initials, size = 32, label }: AvatarProps) {
  const [broken, setBroken] = useState<string | null>(null);
  if (src && broken !== src) {
    return (
      <LazyImage
        src={src}
        alt={label ?? ''}
        width={size}
        height={size}
        referrerPolicy="no-referrer"
        onError={() => setBroken(src)}
        css={{ flex: 'none', width: size, height: size, borderRadius: '50%', objectFit: 'cover', background: c.surfaceRaised }}
      />
    );
  }
  return (
    <span
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      css={{
        flex: 'none',
        display: 'inline-grid',
        placeItems: 'center',
        width: size,
        height: size,
        borderRadius: '50%',
        background: c.primarySoft,
        color: c.primaryHover,
        fontSize: size * 0.4,
        fontWeight: theme.font.weight.bold,
      }}
    >
      {initials}
    </span>
  );
}

/** reference: a role's colour defaults to #808080 */
export const DEFAULT_ROLE_COLOR = '#808080';
const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The role's colour when it is a #rgb / #rrggbb colour, else the default (never raw text in CSS). */
export function roleColor(color: string | null | undefined): string {
  return color && HEX_COLOR.test(color) ? color : DEFAULT_ROLE_COLOR;
}

export interface RoleBadgeProps {
  name: string;
  color: string | null | undefined;
}

/** A role name in the role's colour (a dot of the colour, the name in the text colour, for contrast). */
export function RoleBadge({ name, color }: RoleBadgeProps) {
  const dot = roleColor(color);
  if (!name) return null;
  return (
    <span
      css={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 6,
        padding: '2px 8px',
        borderRadius: theme.radii.full,
        border: `1px solid ${dot}66`,
        background: `${dot}1f`,
        color: c.text,
        fontSize: theme.font.size.xs,
        fontWeight: theme.font.weight.semibold,
        lineHeight: 1.6,
        whiteSpace: 'nowrap',
      }}
    >
      <span aria-hidden="true" css={{ width: 8, height: 8, borderRadius: '50%', background: dot }} />
      {name}
    </span>
  );
}
