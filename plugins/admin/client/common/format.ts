// Dates shown in the admin screens, formatted by the sdk's i18next formatter in the interface language.
import { useTranslation } from '@orepanel/sdk';
import { useCallback } from 'react';

/** (iso) → "12 Mar 2025, 14:05" in the current language; the raw text when it is not a date. */
export function useDateTime(): (iso: string) => string {
  const { t } = useTranslation('admin');
  return useCallback(
    (iso: string) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : t('common.dateTime', { value: date });
    },
    [t],
  );
}
