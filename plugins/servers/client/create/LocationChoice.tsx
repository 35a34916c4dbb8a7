// Step 1 of /server/create: where the server runs. Each location shows its picture, state, how full it
// is and whether it is for VIP members; a location that cannot take a server says why.
import { Badge, theme, useTranslation, type BadgeTone } from '@orepanel/sdk';
import type { CreateLocationOption } from '../../shared/api';
import { ChoiceCard, ChoiceGroup } from './ChoiceCard';

const STATUS_TONE: Record<CreateLocationOption['status'], BadgeTone> = { online: 'success', offline: 'danger', maintenance: 'warning' };

function SlotsBar({ used, slots }: { used: number; slots: number }) {
  const { t } = useTranslation('servers');
  const share = slots > 0 ? Math.min(1, used / slots) : 1;
  const colour = share >= 1 ? theme.colors.danger : share >= 0.8 ? theme.colors.warning : theme.colors.success;
  return (
    <span css={{ display: 'grid', gap: 4 }}>
      <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('create.location.slots', { used, slots })}</span>
      <span aria-hidden css={{ display: 'block', height: 6, borderRadius: theme.radii.full, background: theme.colors.surfaceRaised, overflow: 'hidden' }}>
        <span css={{ display: 'block', height: '100%', width: `${Math.round(share * 100)}%`, background: colour }} />
      </span>
    </span>
  );
}

export function LocationChoice({ locations, chosen, onChoose }: { locations: CreateLocationOption[]; chosen: number | null; onChoose(id: number): void }) {
  const { t } = useTranslation('servers');
  return (
    <ChoiceGroup label={t('create.location.title')}>
      {locations.map((location) => (
        <ChoiceCard
          key={location.id}
          name={location.name}
          image={location.image}
          icon="server"
          selected={chosen === location.id}
          unavailable={location.available ? null : t(`create.location.reason.${location.reason ?? 'LOCATION_UNAVAILABLE'}`)}
          onSelect={() => onChoose(location.id)}
          badges={
            <>
              <Badge tone={STATUS_TONE[location.status]}>{t(`create.location.status.${location.status}`)}</Badge>
              {location.vipOnly && <Badge tone="warning">{t('common.vip')}</Badge>}
            </>
          }
        >
          {location.description && <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{location.description}</span>}
          <SlotsBar used={location.used} slots={location.slots} />
        </ChoiceCard>
      ))}
    </ChoiceGroup>
  );
}
