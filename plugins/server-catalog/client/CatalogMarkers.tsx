// How a catalog row shows in lists and on its pages: its image as a thumbnail, its status (locations)
// and its VIP and enabled markers.
import { Badge, Icon, LazyImage, theme, useTranslation, type BadgeTone } from '@orepanel/sdk';
import { useState, type ReactNode } from 'react';
import type { LocationStatusName } from '../shared/catalog-rules';

const STATUS_TONE: Record<LocationStatusName, BadgeTone> = { online: 'success', offline: 'danger', maintenance: 'warning' };

export function StatusBadge({ status }: { status: LocationStatusName }) {
  const { t } = useTranslation('server-catalog');
  return <Badge tone={STATUS_TONE[status]}>{t(`status.${status}`)}</Badge>;
}

/**
 * VIP only and disabled, when they apply (enabled and open to all is the usual case, so it is quiet),
 * and the stored values that cannot be read, when the row holds any.
 */
export function RowMarkers({ vipOnly, enabled, brokenFields = [] }: { vipOnly: boolean; enabled: boolean; brokenFields?: readonly string[] }) {
  const { t } = useTranslation('server-catalog');
  return (
    <>
      {vipOnly && <Badge tone="primary">{t('markers.vip')}</Badge>}
      {!enabled && <Badge tone="neutral">{t('markers.disabled')}</Badge>}
      {brokenFields.length > 0 && (
        <span role="note" css={{ flexBasis: '100%', color: theme.colors.warning, fontSize: theme.font.size.xs, fontWeight: 400 }}>
          {t('markers.broken', { fields: brokenFields.join(', ') })}
        </span>
      )}
    </>
  );
}

/** A small square image; a placeholder icon when there is none or it does not load. */
export function Thumbnail({ src, size = 36, icon = 'server' }: { src: string | null; size?: number; icon?: 'server' | 'archive' | 'cpu' | 'database' }) {
  const [broken, setBroken] = useState(false);
  const box = {
    width: size,
    height: size,
    flex: 'none',
    borderRadius: theme.radii.md,
    background: theme.colors.surfaceRaised,
    border: `1px solid ${theme.colors.border}`,
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    overflow: 'hidden',
    color: theme.colors.subtle,
  } as const;
  if (!src || broken) {
    return (
      <span css={box} aria-hidden>
        <Icon name={icon} size={Math.round(size / 2)} />
      </span>
    );
  }
  return (
    <span css={box}>
      <LazyImage src={src} alt="" width={size} height={size} onError={() => setBroken(true)} css={{ width: '100%', height: '100%', objectFit: 'cover' }} />
    </span>
  );
}

/** A row's name with its thumbnail and markers: the first cell of every catalog list. */
export function NameCell({
  name,
  image,
  vipOnly,
  enabled,
  brokenFields,
  icon,
  extra,
}: {
  name: string;
  image: string | null;
  vipOnly: boolean;
  enabled: boolean;
  brokenFields?: readonly string[];
  icon?: 'server' | 'archive' | 'cpu' | 'database';
  extra?: ReactNode;
}) {
  return (
    <span css={{ display: 'inline-flex', alignItems: 'center', gap: 10, minWidth: 0, flexWrap: 'wrap' }}>
      <Thumbnail src={image} icon={icon} />
      <span css={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{name}</span>
      {extra}
      <RowMarkers vipOnly={vipOnly} enabled={enabled} brokenFields={brokenFields} />
    </span>
  );
}
