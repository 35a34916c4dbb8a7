// The create and edit form of a location: its name and description, the panel location it deploys
// to (picked from the panel), how many servers it holds, its status, image, VIP only and enabled.
import { Grid, Select, TextField, useApi, useTranslation } from '@orepanel/sdk';
import { useMemo } from 'react';
import { CATALOG_LIMITS, LOCATION_STATUSES, type LocationStatusName } from '../../shared/catalog-rules';
import { apiUrl, type PanelObjects } from '../api';
import { checkLocation, EMPTY_LOCATION, locationBody, type LocationFormValues } from '../catalog-form';
import { CatalogFormShell, DisplayFields, NameFields, PanelPicker, useCatalogForm } from '../catalog-form-kit';

export interface LocationFormProps {
  /** the location being edited (its id and values); null for a new one */
  editing: { id: number; values: LocationFormValues } | null;
  onSubmit(body: Record<string, unknown>): Promise<void>;
  submitText: string;
}

export function LocationForm({ editing, onSubmit, submitText }: LocationFormProps) {
  const { t } = useTranslation('server-catalog');
  const { state: form, submit, unchanged, dismissUnchanged, setValues } = useCatalogForm(editing?.values ?? null, EMPTY_LOCATION, checkLocation, locationBody, onSubmit);
  const panel = useApi<PanelObjects>(apiUrl.panelObjects('locations'));
  const options = useMemo(
    () =>
      panel.data?.locations?.map((l) => ({
        value: String(l.id),
        label: `${l.long ? `${l.long} (${l.short})` : l.short} · #${l.id}${l.linked_id !== null && l.linked_id !== editing?.id ? ` — ${t('picker.linked')}` : ''}`,
        disabled: l.linked_id !== null && l.linked_id !== editing?.id,
      })),
    [panel.data, editing?.id, t],
  );
  const pick = (value: string) => {
    form.set('panel_location_id')(value);
    // a new location takes the panel's name until the administrator writes one
    const chosen = panel.data?.locations?.find((l) => String(l.id) === value);
    if (chosen && !editing) setValues((v) => (v.name.trim() === '' ? { ...v, name: chosen.long?.trim() || chosen.short } : v));
  };
  return (
    <CatalogFormShell submitText={submitText} onSubmit={submit} unchanged={unchanged} onDismissUnchanged={dismissUnchanged}>
      <PanelPicker
        label={t('locations.form.panelLocation')}
        name="panel_location_id"
        value={form.values.panel_location_id}
        onChange={pick}
        options={options}
        loading={panel.loading}
        loadError={panel.error}
        error={form.problem('panel_location_id')}
        hint={t('locations.form.panelLocationHint')}
      />
      <NameFields form={form} />
      <Grid min={200} gap={16} css={{ alignItems: 'start' }}>
        <TextField
          label={t('locations.form.slots')}
          name="slots"
          type="number"
          inputMode="numeric"
          min={0}
          max={CATALOG_LIMITS.maxSlots}
          step={1}
          value={form.values.slots}
          onChange={form.set('slots')}
          error={form.problem('slots')}
          hint={t('locations.form.slotsHint')}
        />
        <Select
          label={t('locations.form.status')}
          name="status"
          value={form.values.status}
          onChange={(value) => form.set('status')(value as LocationStatusName)}
          options={LOCATION_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          hint={t('locations.form.statusHint')}
        />
      </Grid>
      <DisplayFields form={form} icon="database" />
    </CatalogFormShell>
  );
}
