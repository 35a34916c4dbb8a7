// The features tab lists spec §3's feature flags. Join for rewards and link for rewards are not among
// them: each keeps its own switch on its plugin's configuration screen, and this note says where, so
// an administrator looking for them here is not left guessing.
import { ADMIN_PATHS, ADMIN_PERMISSIONS, Link, theme, useHasPermission, useTranslation } from '@orepanel/sdk';

export const OWN_SWITCHES = [
  { plugin: 'earn-j4r', label: 'ownSwitches.j4r' },
  { plugin: 'earn-links', label: 'ownSwitches.links' },
] as const;

export function OwnSwitchesNote() {
  const { t } = useTranslation('admin-settings');
  const mayConfigure = useHasPermission(ADMIN_PERMISSIONS.pluginsEdit);
  return (
    <p data-own-switches="" css={{ margin: '12px 0 0', color: theme.colors.muted, fontSize: 14, lineHeight: 1.5 }}>
      {t('ownSwitches.text')}{' '}
      {OWN_SWITCHES.map((entry, index) => (
        <span key={entry.plugin}>
          {index > 0 && ', '}
          {mayConfigure ? (
            <Link to={ADMIN_PATHS.pluginConfig(entry.plugin)} css={{ color: theme.colors.primaryHover }}>
              {t(entry.label)}
            </Link>
          ) : (
            t(entry.label)
          )}
        </span>
      ))}
      .
    </p>
  );
}
