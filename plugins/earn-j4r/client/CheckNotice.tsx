// The notice for a browser coming back from a check (?j4r_paid=&j4r_coins= or ?j4r_error=<code>):
// what was paid — and then the session is refreshed so the balance everywhere follows — or why
// nothing was. Closing it takes the parameters out of the address.
import { Alert, useReturnParams, useSession, useTranslation } from '@orepanel/sdk';
import { useEffect, useRef } from 'react';
import { RETURN_PARAMS } from './api';

const count = (text: string | null) => {
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
};

export function CheckNotice() {
  const { t, i18n } = useTranslation('earn-j4r');
  const { refresh } = useSession();
  const [params, dismiss] = useReturnParams(RETURN_PARAMS);
  const paidText = params.get('j4r_paid');
  const code = params.get('j4r_error');
  const paid = count(paidText);
  const coins = count(params.get('j4r_coins'));

  // once per return (refresh changes with the session it refreshes: depending on it would loop)
  const refreshed = useRef<string | null>(null);
  useEffect(() => {
    if (paid === 0 || refreshed.current === params.toString()) return;
    refreshed.current = params.toString();
    void refresh();
  }, [paid, params, refresh]);

  if (code) {
    const key = /^[A-Z0-9_]{1,64}$/.test(code) && i18n.exists(`errors.${code}`, { ns: 'earn-j4r' }) ? `errors.${code}` : 'errors.generic';
    return (
      <Alert tone="error" title={t('notice.failedTitle')} onClose={dismiss}>
        {t(key)}
      </Alert>
    );
  }
  if (paidText === null) return null;
  return paid > 0 ? (
    <Alert tone="success" title={t('notice.paidTitle')} onClose={dismiss}>
      {t('notice.paid', { count: paid, coins })}
    </Alert>
  ) : (
    <Alert tone="info" title={t('notice.nothingTitle')} onClose={dismiss}>
      {t('notice.nothing')}
    </Alert>
  );
}
