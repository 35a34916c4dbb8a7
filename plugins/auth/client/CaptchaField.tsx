// <CaptchaField action="login" />: Cloudflare Turnstile inside an sdk <Form>, shown only while the
// captcha_enabled setting is on — otherwise it renders nothing and Cloudflare's script is never
// fetched. The widget's token goes into the form as captcha_token (captchaToken(values) adds it to
// the request body); the server checks it with siteverify and answers CAPTCHA_* errors with
// field captcha_token, which show under the widget. A token is good for one check only, so after a
// submit that sent it the widget is reset for the next try.
import { Alert, isSettingEnabled, theme, useFormStatus, useSetting, useTranslation, type FormValues } from '@orepanel/sdk';
import { useEffect, useRef, useState } from 'react';

/** Cloudflare's script, loaded for explicit rendering (https://developers.cloudflare.com/turnstile/) */
export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
export const CAPTCHA_FIELD = 'captcha_token';

/** The form a token is solved on; the server refuses a token solved on another one. */
export type CaptchaAction = 'login' | 'register' | 'forgot';

interface TurnstileRenderOptions {
  sitekey: string;
  action: string;
  theme: 'light' | 'dark' | 'auto';
  language: string;
  'response-field': boolean;
  callback(token: string): void;
  'expired-callback'(): void;
  'error-callback'(code: string): boolean | void;
}

/** The part of window.turnstile this component uses. */
export interface TurnstileApi {
  render(container: HTMLElement, options: TurnstileRenderOptions): string | null | undefined;
  reset(widgetId: string): void;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let loading: Promise<TurnstileApi> | null = null;

/** Loads Cloudflare's script once per page; a failed load may be retried by the next widget. */
function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  if (loading) return loading;
  loading = new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT_URL;
    script.async = true;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('Turnstile did not start')));
    script.onerror = () => {
      script.remove();
      reject(new Error('Turnstile could not be loaded'));
    };
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** tokens already sent to the server (each is good for one check) */
const spentTokens = new Set<string>();

/** The captcha token of a submitted form, for the request body ({} when there is none). */
export function captchaToken(values: FormValues): { captcha_token?: string } {
  const token = values[CAPTCHA_FIELD]?.trim();
  if (!token) return {};
  spentTokens.add(token);
  return { captcha_token: token };
}

/** Turnstile's language for ours (it has no Moldovan: Romanian is the same language). */
function widgetLanguage(language: string): string {
  const base = language.split('-')[0];
  return base === 'md' ? 'ro' : base || 'auto';
}

function TurnstileWidget({ siteKey, action }: { siteKey: string; action: CaptchaAction }) {
  const { t, i18n } = useTranslation('auth');
  const form = useFormStatus();
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: TurnstileApi; id: string } | null>(null);
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<'load' | 'widget' | null>(null);
  const language = widgetLanguage(i18n.language);

  useEffect(() => {
    let cancelled = false;
    loadTurnstile()
      .then((api) => {
        if (cancelled || !container.current) return;
        const id = api.render(container.current, {
          sitekey: siteKey,
          action,
          theme: 'dark',
          language,
          // the token reaches the form through our own field (below), not Cloudflare's
          'response-field': false,
          callback: (value) => {
            setProblem(null);
            setToken(value);
          },
          'expired-callback': () => setToken(''),
          'error-callback': () => {
            setToken('');
            setProblem('widget');
            return true; // handled: Turnstile then does not throw
          },
        });
        if (id) widget.current = { api, id };
      })
      .catch(() => {
        if (!cancelled) setProblem('load');
      });
    return () => {
      cancelled = true;
      if (widget.current) widget.current.api.remove(widget.current.id);
      widget.current = null;
    };
  }, [siteKey, action, language]);

  // after a submit that sent the token: the server has used it up, so ask for a new one
  const submitting = form?.submitting ?? false;
  const wasSubmitting = useRef(false);
  useEffect(() => {
    if (wasSubmitting.current && !submitting && token && spentTokens.has(token)) {
      setToken('');
      if (widget.current) widget.current.api.reset(widget.current.id);
    }
    wasSubmitting.current = submitting;
  }, [submitting, token]);

  // server errors about the token (CAPTCHA_REQUIRED, CAPTCHA_FAILED) show here, not at the top
  const register = form?.registerField;
  useEffect(() => (register ? register(CAPTCHA_FIELD) : undefined), [register]);
  const serverError = form?.fieldErrors[CAPTCHA_FIELD];

  return (
    <div role="group" aria-label={t('captcha.label')} css={{ display: 'grid', gap: 6, minWidth: 0 }}>
      <input type="hidden" name={CAPTCHA_FIELD} value={token} />
      <div ref={container} data-captcha-action={action} css={{ minHeight: 65 }} />
      {problem && <Alert tone="error">{t(problem === 'load' ? 'captcha.loadFailed' : 'captcha.widgetFailed')}</Alert>}
      {serverError && (
        <p role="alert" css={{ margin: 0, fontSize: theme.font.size.sm, color: theme.colors.danger, lineHeight: 1.4 }}>
          {serverError}
        </p>
      )}
    </div>
  );
}

export function CaptchaField({ action }: { action: CaptchaAction }) {
  const { t } = useTranslation('auth');
  const enabled = isSettingEnabled(useSetting('captcha_enabled', false));
  const siteKey = String(useSetting('turnstile_site_key', '') ?? '').trim();
  if (!enabled) return null;
  // switched on without a site key: the server refuses every try, so say why instead of a blank box
  if (!siteKey) return <Alert tone="warning">{t('captcha.notConfigured')}</Alert>;
  return <TurnstileWidget siteKey={siteKey} action={action} />;
}
