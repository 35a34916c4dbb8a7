// The create and edit form of an egg: its category (which fixes the panel nest), the panel egg of
// that nest (picked from the panel), its name, description, image, VIP only and enabled.
import { Select, useApi, useTranslation } from '@orepanel/sdk';
import { useMemo } from 'react';
import { apiUrl, type CategoryChoice, type PanelObjects } from '../api';
import { checkEgg, EMPTY_EGG, eggBody, type EggFormValues } from '../catalog-form';
import { CatalogFormShell, DisplayFields, NameFields, PanelPicker, useCatalogForm } from '../catalog-form-kit';

export interface EggFormProps {
  /** the egg being edited (its id and values); null for a new one */
  editing: { id: number; values: EggFormValues } | null;
  /** a new egg's category when the list was filtered by one */
  presetCategory?: string;
  onSubmit(body: Record<string, unknown>): Promise<void>;
  submitText: string;
}

export function EggForm({ editing, presetCategory, onSubmit, submitText }: EggFormProps) {
  const { t } = useTranslation('server-catalog');
  const empty = useMemo(() => ({ ...EMPTY_EGG, category_id: presetCategory ?? '' }), [presetCategory]);
  const { state: form, submit, unchanged, dismissUnchanged, setValues } = useCatalogForm(editing?.values ?? null, empty, checkEgg, eggBody, onSubmit);
  const categories = useApi<{ categories: CategoryChoice[] }>(apiUrl.categoryChoices);
  const panel = useApi<PanelObjects>(apiUrl.panelObjects('eggs'));
  const category = categories.data?.categories.find((c) => String(c.id) === form.values.category_id);
  const nest = category ? panel.data?.nests?.find((n) => n.id === category.panel_nest_id) : undefined;
  const eggOptions = useMemo(() => {
    if (!panel.data?.nests) return undefined;
    if (!nest) return [];
    return nest.eggs.map((e) => {
      const taken = e.linked_id !== null && e.linked_id !== editing?.id;
      return { value: String(e.id), label: `${e.name} · #${e.id}${taken ? ` — ${t('picker.linked')}` : ''}`, disabled: taken };
    });
  }, [panel.data, nest, editing?.id, t]);

  const pickCategory = (value: string) => {
    form.set('category_id')(value);
    // another category is another nest: the egg picked before does not belong to it
    if (!editing) setValues((v) => ({ ...v, panel_egg_id: '' }));
  };
  const pickEgg = (value: string) => {
    form.set('panel_egg_id')(value);
    const chosen = nest?.eggs.find((e) => String(e.id) === value);
    if (chosen && !editing) setValues((v) => (v.name.trim() === '' ? { ...v, name: chosen.name, description: v.description || (chosen.description ?? '') } : v));
  };

  return (
    <CatalogFormShell submitText={submitText} onSubmit={submit} unchanged={unchanged} onDismissUnchanged={dismissUnchanged}>
      <Select
        label={t('eggs.form.category')}
        name="category_id"
        value={form.values.category_id}
        onChange={pickCategory}
        options={(categories.data?.categories ?? []).map((c) => ({ value: String(c.id), label: `${c.name} · ${t('eggs.form.nest', { id: c.panel_nest_id })}` }))}
        placeholder={categories.loading ? t('picker.loading') : categories.data?.categories.length === 0 ? t('eggs.form.noCategories') : t('picker.choose')}
        error={form.problem('category_id')}
        hint={t('eggs.form.categoryHint')}
      />
      <PanelPicker
        label={t('eggs.form.panelEgg')}
        name="panel_egg_id"
        value={form.values.panel_egg_id}
        onChange={pickEgg}
        options={eggOptions}
        loading={panel.loading}
        loadError={panel.error}
        error={form.problem('panel_egg_id')}
        hint={t('eggs.form.panelEggHint')}
        emptyText={category ? t('eggs.form.noPanelEggs') : t('eggs.form.categoryFirst')}
      />
      <NameFields form={form} />
      <DisplayFields form={form} icon="cpu" />
    </CatalogFormShell>
  );
}
