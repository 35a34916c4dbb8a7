// The create and edit form of an egg category: the panel nest it stands for (picked from the panel),
// its name, description, image, VIP only and enabled. A category holding eggs keeps its nest.
import { useApi, useTranslation } from '@orepanel/sdk';
import { useMemo } from 'react';
import { apiUrl, type PanelObjects } from '../api';
import { categoryBody, checkCategory, EMPTY_CATEGORY, type CategoryFormValues } from '../catalog-form';
import { CatalogFormShell, DisplayFields, NameFields, PanelPicker, useCatalogForm } from '../catalog-form-kit';

export interface CategoryFormProps {
  /** the category being edited (its id, egg count and values); null for a new one */
  editing: { id: number; eggs: number; values: CategoryFormValues } | null;
  onSubmit(body: Record<string, unknown>): Promise<void>;
  submitText: string;
}

export function CategoryForm({ editing, onSubmit, submitText }: CategoryFormProps) {
  const { t } = useTranslation('server-catalog');
  const { state: form, submit, unchanged, dismissUnchanged, setValues } = useCatalogForm(editing?.values ?? null, EMPTY_CATEGORY, checkCategory, categoryBody, onSubmit);
  const panel = useApi<PanelObjects>(apiUrl.panelObjects('nests'));
  const locked = editing !== null && editing.eggs > 0;
  const options = useMemo(
    () =>
      panel.data?.nests?.map((n) => {
        const taken = n.linked_id !== null && n.linked_id !== editing?.id;
        return {
          value: String(n.id),
          label: `${n.name} · #${n.id}${taken ? ` — ${t('picker.linked')}` : ''}`,
          disabled: taken || (locked && String(n.id) !== editing?.values.panel_nest_id),
        };
      }),
    [panel.data, editing, locked, t],
  );
  const pick = (value: string) => {
    form.set('panel_nest_id')(value);
    const chosen = panel.data?.nests?.find((n) => String(n.id) === value);
    if (chosen && !editing) setValues((v) => (v.name.trim() === '' ? { ...v, name: chosen.name, description: v.description || (chosen.description ?? '') } : v));
  };
  return (
    <CatalogFormShell submitText={submitText} onSubmit={submit} unchanged={unchanged} onDismissUnchanged={dismissUnchanged}>
      <PanelPicker
        label={t('categories.form.panelNest')}
        name="panel_nest_id"
        value={form.values.panel_nest_id}
        onChange={pick}
        options={options}
        loading={panel.loading}
        loadError={panel.error}
        error={form.problem('panel_nest_id')}
        hint={locked ? t('categories.form.panelNestLocked', { count: editing.eggs }) : t('categories.form.panelNestHint')}
      />
      <NameFields form={form} />
      <DisplayFields form={form} icon="archive" />
    </CatalogFormShell>
  );
}
