// The customer's storage: used of the quota, as a bar and in words.
import { formatFileSize, theme, useTranslation } from '@orepanel/sdk';
import type { Usage } from './api';

const c = theme.colors;

export function QuotaBar({ usage }: { usage: Usage }) {
  const { t, i18n } = useTranslation('image-hosting');
  const share = usage.quota_bytes > 0 ? Math.min(1, usage.used_bytes / usage.quota_bytes) : 1;
  const percent = Math.round(share * 100);
  const left = Math.max(0, usage.quota_bytes - usage.used_bytes);
  const label = t('quota.used', { used: formatFileSize(usage.used_bytes, i18n.language), quota: formatFileSize(usage.quota_bytes, i18n.language) });
  return (
    <div css={{ display: 'grid', gap: 6 }}>
      <div css={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 8, fontSize: theme.font.size.sm }}>
        <span>{label}</span>
        <span css={{ color: c.muted }}>{t('quota.left', { left: formatFileSize(left, i18n.language) })}</span>
      </div>
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={label}
        css={{ height: 8, borderRadius: theme.radii.full, background: c.surfaceRaised, overflow: 'hidden' }}
      >
        <div css={{ width: `${percent}%`, height: '100%', background: share >= 0.9 ? c.danger : c.primary }} />
      </div>
    </div>
  );
}
