// The pieces the three catalog forms share: the form state with its checks (useCatalogForm), the
// fields every kind has (name, description, image with a preview, VIP only, enabled), and the picker
// of a panel object — a list read from the panel, or, when the panel cannot be asked, the panel's id
// typed by hand with the reason shown.
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Form,
  IMAGE_LIBRARY_SLOT,
  Select,
  Slot,
  Spinner,
  TextArea,
  TextField,
  UnchangedNote,
  useEditForm,
  useErrorText,
  useTranslation,
  type ApiError,
  type SelectOption,
} from '@orepanel/sdk';
import type { ReactNode } from 'react';
import { CATALOG_LIMITS } from '../shared/catalog-rules';
import { Thumbnail } from './CatalogMarkers';
import type { CommonFormValues, Problems } from './catalog-form';

export interface CatalogFormState<V> {
  values: V;
  set<K extends keyof V>(field: K): (value: V[K]) => void;
  /** the translated problem of a field, if any */
  problem(field: keyof V): string | undefined;
}

export function useCatalogForm<V extends CommonFormValues>(
  initial: V | null,
  empty: V,
  check: (values: V) => Problems<V>,
  toBody: (before: V | null, values: V) => Record<string, unknown>,
  onSubmit: (body: Record<string, unknown>) => Promise<void>,
) {
  const { t } = useTranslation('server-catalog');
  const form = useEditForm({
    initial: initial ?? empty,
    check,
    changes: (values: V) => toBody(initial, values),
    submit: onSubmit,
    problemText: (problem) => t(problem),
  });
  const state: CatalogFormState<V> = form;
  return { state, submit: form.submit, unchanged: form.unchanged, dismissUnchanged: form.dismissUnchanged, setValues: form.setValues };
}

export interface CatalogFormShellProps {
  submitText: string;
  onSubmit(): Promise<void>;
  unchanged: boolean;
  onDismissUnchanged(): void;
  children: ReactNode;
}

export function CatalogFormShell({ submitText, onSubmit, unchanged, onDismissUnchanged, children }: CatalogFormShellProps) {
  const { t } = useTranslation('server-catalog');
  return (
    <Card>
      <Form onSubmit={onSubmit} aria-label={submitText} noValidate>
        <UnchangedNote form={{ unchanged, dismissUnchanged: onDismissUnchanged }}>{t('form.nothingChanged')}</UnchangedNote>
        {children}
        <div>
          <Button type="submit">{submitText}</Button>
        </div>
      </Form>
    </Card>
  );
}

/** name and description first (what customers read) */
export function NameFields<V extends CommonFormValues>({ form }: { form: CatalogFormState<V> }) {
  const { t } = useTranslation('server-catalog');
  return (
    <>
      <TextField
        label={t('form.name')}
        name="name"
        value={form.values.name}
        onChange={form.set('name') as (v: string) => void}
        error={form.problem('name')}
        maxLength={CATALOG_LIMITS.nameMaxLength}
        autoComplete="off"
      />
      <TextArea
        label={t('form.description')}
        name="description"
        value={form.values.description}
        onChange={form.set('description') as (v: string) => void}
        error={form.problem('description')}
        hint={t('form.descriptionHint')}
        maxLength={CATALOG_LIMITS.descriptionMaxLength}
        rows={3}
      />
    </>
  );
}

/** image, VIP only and enabled last (how it is shown and to whom) */
export function DisplayFields<V extends CommonFormValues>({ form, icon }: { form: CatalogFormState<V>; icon: 'database' | 'archive' | 'cpu' }) {
  const { t } = useTranslation('server-catalog');
  return (
    <>
      <div css={{ display: 'flex', gap: 12, alignItems: 'flex-start' }}>
        <div css={{ flex: 1, minWidth: 0, display: 'grid', gap: 8 }}>
          <TextField
            label={t('form.image')}
            name="image"
            type="url"
            inputMode="url"
            value={form.values.image}
            onChange={form.set('image') as (v: string) => void}
            error={form.problem('image')}
            hint={t('form.imageHint')}
            maxLength={CATALOG_LIMITS.imageMaxLength}
            autoComplete="off"
          />
          {/* the panel's image library, when a plugin offers one there (the images plugin): picking fills the address */}
          <Slot name={IMAGE_LIBRARY_SLOT} props={{ value: form.values.image, onPick: form.set('image') }} loading={false} />
        </div>
        <div css={{ paddingTop: 28 }}>
          <Thumbnail key={form.values.image} src={form.values.image.trim() || null} size={44} icon={icon} />
        </div>
      </div>
      <Checkbox label={t('form.vipOnly')} name="vip_only" checked={form.values.vip_only} onChange={form.set('vip_only') as (v: boolean) => void} hint={t('form.vipOnlyHint')} />
      <Checkbox label={t('form.enabled')} name="enabled" checked={form.values.enabled} onChange={form.set('enabled') as (v: boolean) => void} hint={t('form.enabledHint')} />
    </>
  );
}

export interface PanelPickerProps {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  /** the panel's objects; undefined while loading or when they could not be read */
  options: SelectOption[] | undefined;
  loading: boolean;
  loadError: ApiError | null;
  error?: string;
  hint?: string;
  /** what to say when there is nothing to pick (e.g. no category chosen yet) */
  emptyText?: string;
}

/** Picks a panel object from the panel's list; types its id when the list cannot be read. */
export function PanelPicker({ label, name, value, onChange, options, loading, loadError, error, hint, emptyText }: PanelPickerProps) {
  const { t } = useTranslation('server-catalog');
  const errorText = useErrorText();
  if (loading && !options) {
    return (
      <div css={{ display: 'flex', gap: 8, alignItems: 'center' }} aria-live="polite">
        <Spinner size={16} />
        <span>{t('picker.loading')}</span>
      </div>
    );
  }
  if (!options) {
    return (
      <div css={{ display: 'grid', gap: 8 }}>
        {loadError && (
          <Alert tone="warning" title={t('picker.unavailable')}>
            <p css={{ margin: 0 }}>{errorText(loadError)}</p>
          </Alert>
        )}
        <TextField label={label} name={name} type="number" inputMode="numeric" min={1} step={1} value={value} onChange={onChange} error={error} hint={t('picker.typeId')} />
      </div>
    );
  }
  // the current value stays choosable even if the panel no longer lists it
  const shown = value !== '' && !options.some((o) => o.value === value) ? [{ value, label: t('picker.notOnPanel', { id: value }) }, ...options] : options;
  return (
    <Select
      label={label}
      name={name}
      value={value}
      onChange={onChange}
      options={shown}
      placeholder={shown.length === 0 ? (emptyText ?? t('picker.none')) : t('picker.choose')}
      error={error}
      hint={hint}
    />
  );
}
