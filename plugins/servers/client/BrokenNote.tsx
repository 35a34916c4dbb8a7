// A row the API flags as broken (it holds a value no request could have written): one small line
// naming the values that cannot be read — shown as 0 beside it — so the rest of the list reads as
// before and the reader knows an administrator must mend that row.
import { Icon, theme, useTranslation } from '@orepanel/sdk';

const RESOURCES: readonly string[] = ['ram', 'disk', 'cpu', 'ports', 'databases', 'backups'];
const OTHERS: readonly string[] = ['server_slots', 'panel_id', 'attempts', 'server_id'];

/** `fields`: the row's broken_fields (or the create options' broken_resources); nothing when empty. */
export function BrokenNote({ fields, kind = 'row' }: { fields: readonly string[]; kind?: 'row' | 'account' }) {
  const { t } = useTranslation('servers');
  if (fields.length === 0) return null;
  const nameOf = (field: string) => (RESOURCES.includes(field) ? t(`resources.names.${field}`) : OTHERS.includes(field) ? t(`broken.fields.${field}`) : field);
  const names = fields.map(nameOf).join(', ');
  return (
    <p role="note" css={{ display: 'flex', alignItems: 'flex-start', gap: 6, margin: 0, color: theme.colors.warning, fontSize: theme.font.size.xs, overflowWrap: 'anywhere' }}>
      <Icon name="alert" size={14} style={{ flex: 'none', marginTop: 1 }} />
      <span>{t(kind === 'row' ? 'broken.row' : 'broken.account', { fields: names })}</span>
    </p>
  );
}
