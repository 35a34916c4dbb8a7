// The staff pages' texts for the tickets API's error codes (catalogue key staff.errors.<CODE>),
// falling back to the sdk's own (network, server unavailable…) and then to the server's message.
import { ApiError, useErrorText, useTranslation } from '@orepanel/sdk';
import { useCallback } from 'react';

export function useStaffErrorText(): (error: unknown) => string {
  const { t, i18n } = useTranslation('tickets');
  const fallback = useErrorText();
  return useCallback(
    (error: unknown) => {
      const key = error instanceof ApiError ? `staff.errors.${error.code}` : null;
      return key && i18n.exists(key, { ns: 'tickets' }) ? t(key) : fallback(error);
    },
    [t, i18n, fallback],
  );
}
