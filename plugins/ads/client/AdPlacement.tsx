// One placement: the slot id an administrator set for it (an empty one places nothing) in the sdk's
// ad component, which shows nothing without the panel's ad client, on admin pages or to holders of
// user.permission.adblocker. The label says what it is, for screen readers and everyone else.
import { Ad, theme, useAdClient, useSetting, useTranslation } from '@orepanel/sdk';

export function AdPlacement({ setting }: { setting: string }) {
  const { t } = useTranslation('ads');
  const slot = useSetting(setting, '');
  const client = useAdClient();
  const id = typeof slot === 'string' ? slot.trim() : '';
  if (!client || id === '') return null;
  return (
    <aside
      aria-label={t('label')}
      // an ad the provider could not fill leaves no empty labelled box behind
      css={{ display: 'grid', gap: 6, minWidth: 0, margin: '8px 0', '&:has(ins[data-ad-status="unfilled"])': { display: 'none' } }}
    >
      <span css={{ fontSize: 11, letterSpacing: 0.6, textTransform: 'uppercase', color: theme.colors.muted }}>{t('label')}</span>
      <Ad slot={id} />
    </aside>
  );
}
