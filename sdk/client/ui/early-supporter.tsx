// spec §3 early_supporters_enabled: the badge of one of the panel's first accounts, wherever a person
// is shown (a profile, the leaderboard). The server says who is one (sdk/server earlySupporters()).
import { useSdkText } from '../i18n';
import { Badge } from './feedback';
import { Icon } from './icons';

export function EarlySupporterBadge() {
  const t = useSdkText();
  return (
    <span title={t('earlySupporterHint')} data-early-supporter="" css={{ display: 'inline-flex' }}>
      <Badge tone="warning">
        <Icon name="trophy" size={12} />
        {t('earlySupporter')}
      </Badge>
    </span>
  );
}
