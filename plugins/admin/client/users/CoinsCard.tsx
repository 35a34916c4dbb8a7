// The balance, read-only: coins change only through the wallet ledger, with a reason (issue 4), never
// by editing the account (the server answers COINS_NOT_EDITABLE).
import { Card, Icon, theme, useTranslation } from '@orepanel/sdk';

export function CoinsCard({ coins }: { coins: number }) {
  const { t } = useTranslation('admin');
  return (
    <Card title={t('userEdit.coins.title')}>
      <div css={{ display: 'flex', alignItems: 'center', gap: 12 }}>
        <span css={{ display: 'inline-flex', padding: 10, borderRadius: theme.radii.md, background: theme.colors.primarySoft, color: theme.colors.primaryHover }}>
          <Icon name="coins" size={22} />
        </span>
        <div>
          <div css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('userEdit.coins.balance')}</div>
          <div css={{ fontSize: theme.font.size.xl, fontWeight: theme.font.weight.bold, fontVariantNumeric: 'tabular-nums' }}>{t('common.count', { value: coins })}</div>
        </div>
      </div>
      <p css={{ margin: '12px 0 0', color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('userEdit.coins.note')}</p>
    </Card>
  );
}
