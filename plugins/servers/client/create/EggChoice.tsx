// Step 2 of /server/create: what the server runs — a category (the panel's nest), then one of its
// eggs. VIP categories and eggs are marked; without VIP membership they cannot be chosen.
import { Badge, theme, useTranslation } from '@orepanel/sdk';
import type { CreateCategoryOption } from '../../shared/api';
import { ChoiceCard, ChoiceGroup } from './ChoiceCard';

export interface EggChoiceProps {
  categories: CreateCategoryOption[];
  vip: boolean;
  categoryId: number | null;
  eggId: number | null;
  onCategory(id: number): void;
  onEgg(id: number): void;
}

export function EggChoice({ categories, vip, categoryId, eggId, onCategory, onEgg }: EggChoiceProps) {
  const { t } = useTranslation('servers');
  const category = categories.find((c) => c.id === categoryId) ?? null;
  const vipBadge = <Badge tone="warning">{t('common.vip')}</Badge>;
  return (
    <div css={{ display: 'grid', gap: 16 }}>
      <ChoiceGroup label={t('create.egg.categories')} min={200}>
        {categories.map((c) => (
          <ChoiceCard
            key={c.id}
            name={c.name}
            image={c.image}
            icon="archive"
            selected={categoryId === c.id}
            unavailable={c.vipOnly && !vip ? t('create.vipOnly') : null}
            onSelect={() => onCategory(c.id)}
            badges={c.vipOnly ? vipBadge : undefined}
          >
            {c.description && <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{c.description}</span>}
            <span css={{ color: theme.colors.subtle, fontSize: theme.font.size.xs }}>{t('create.egg.eggCount', { n: c.eggs.length })}</span>
          </ChoiceCard>
        ))}
      </ChoiceGroup>
      {category && (
        <div css={{ display: 'grid', gap: 10 }}>
          <h3 css={{ margin: 0, fontSize: theme.font.size.md, color: theme.colors.muted, fontWeight: theme.font.weight.semibold }}>
            {t('create.egg.eggsOf', { category: category.name })}
          </h3>
          <ChoiceGroup label={t('create.egg.eggs')} min={200}>
            {category.eggs.map((egg) => (
              <ChoiceCard
                key={egg.id}
                name={egg.name}
                image={egg.image}
                icon="gear"
                selected={eggId === egg.id}
                unavailable={egg.vipOnly && !vip ? t('create.vipOnly') : null}
                onSelect={() => onEgg(egg.id)}
                badges={egg.vipOnly ? vipBadge : undefined}
              >
                {egg.description && <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{egg.description}</span>}
              </ChoiceCard>
            ))}
          </ChoiceGroup>
        </div>
      )}
    </div>
  );
}
