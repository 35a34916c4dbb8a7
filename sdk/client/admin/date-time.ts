// Dates shown in the admin screens, formatted by the sdk's i18next formatter in the interface language.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { SDK_NAMESPACE } from '../sdk-texts';

/** (iso) → "12 Mar 2025, 14:05" in the current language; the raw text when it is not a date. */
export function useDateTime(): (iso: string) => string {
  const { t } = useTranslation(SDK_NAMESPACE);
  return useCallback(
    (iso: string) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : t('dateTime', { value: date });
    },
    [t],
  );
}
