// Why no server can be created right now (the create options' blockers), each in the user's words
// with the way to fix it: link Discord or GitHub on the account page, buy resources or a slot in the
// store, wait for the server being built, or ask an administrator.
import { Alert, Button, isSettingEnabled, theme, useSetting, useTranslation } from '@orepanel/sdk';
import type { CreateBlocker } from '../../shared/api';
import { paths } from '../paths';

interface Fix {
  to: string;
  text: string;
}

function useFix(): (blocker: CreateBlocker) => Fix | null {
  const { t } = useTranslation('servers');
  const storeOn = isSettingEnabled(useSetting('store_enabled'));
  return (blocker) => {
    switch (blocker) {
      case 'FORCE_DISCORD_LINK':
        return { to: paths.account, text: t('blockers.fix.discord') };
      case 'FORCE_GITHUB_LINK':
        return { to: paths.account, text: t('blockers.fix.github') };
      case 'NO_FREE_SLOT':
        return storeOn ? { to: paths.store, text: t('blockers.fix.buySlot') } : { to: paths.dashboard, text: t('blockers.fix.dashboard') };
      case 'NOT_ENOUGH_RESOURCES':
        return storeOn ? { to: paths.store, text: t('blockers.fix.buyResources') } : null;
      case 'PENDING_ENTRY':
        return { to: paths.dashboard, text: t('blockers.fix.dashboard') };
      default:
        return null;
    }
  };
}

const KNOWN: readonly string[] = ['SERVERS_DISABLED', 'PENDING_ENTRY', 'FORCE_DISCORD_LINK', 'FORCE_GITHUB_LINK', 'NO_FREE_SLOT', 'NOT_ENOUGH_RESOURCES', 'PANEL_NOT_CONFIGURED'];

export function BlockerNotice({ blockers }: { blockers: CreateBlocker[] }) {
  const { t } = useTranslation('servers');
  const fixOf = useFix();
  return (
    <Alert tone="warning" title={t('blockers.title')}>
      <ul css={{ display: 'grid', gap: 12, margin: '8px 0 0', padding: 0, listStyle: 'none' }}>
        {blockers.map((blocker) => {
          const fix = fixOf(blocker);
          return (
            <li key={blocker} css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 8 }}>
              <span css={{ flex: '1 1 260px', color: theme.colors.text }}>
                {KNOWN.includes(blocker) ? t(`blockers.text.${blocker}`) : t('blockers.unknown', { code: blocker })}
              </span>
              {fix && (
                <Button size="sm" variant="secondary" to={fix.to}>
                  {fix.text}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </Alert>
  );
}
