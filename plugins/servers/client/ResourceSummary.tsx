// A server's resources on one wrapping line of small icon + amount pairs (each named for screen
// readers), for the widget and the admin lists; under them, the note of a row flagged broken.
import { Icon, theme, useTranslation, VisuallyHidden } from '@orepanel/sdk';
import type { ServerResources } from '../shared/api';
import { BrokenNote } from './BrokenNote';
import { RESOURCE_ICONS, resourceText, SERVER_RESOURCE_KEYS } from './resources';

export function ResourceSummary({ resources, broken = [] }: { resources: ServerResources; broken?: readonly string[] }) {
  const { t } = useTranslation('servers');
  const list = (
    <ul css={{ display: 'flex', flexWrap: 'wrap', gap: '4px 14px', margin: 0, padding: 0, listStyle: 'none', color: theme.colors.muted, fontSize: theme.font.size.sm }}>
      {SERVER_RESOURCE_KEYS.map((key) => (
        <li key={key} title={t(`resources.names.${key}`)} css={{ display: 'inline-flex', alignItems: 'center', gap: 5, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
          <Icon name={RESOURCE_ICONS[key]} size={14} />
          <VisuallyHidden>{t(`resources.names.${key}`)}:</VisuallyHidden>
          {resourceText(t, key, resources[key])}
        </li>
      ))}
    </ul>
  );
  if (broken.length === 0) return list;
  return (
    <div css={{ display: 'grid', gap: 4 }}>
      {list}
      <BrokenNote fields={broken} />
    </div>
  );
}
