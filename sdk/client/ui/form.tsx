// The one form pattern: <Form onSubmit> runs an async submit, shows the server's error at the top and
// puts an ApiError with a `field` on the matching input. Fields: TextField, PasswordField, Checkbox, Select.
import { css } from '@emotion/react';
import {
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { useTranslation } from 'react-i18next';
import { usePluginId } from '../boundary';
import { ApiError } from '../http';
import { useSdkText } from '../i18n';
import { Alert } from './feedback';
import { FormContext, PrerenderedFormContext, SCRIPT_REQUIRED, useFormStatus, type FormStatus, type PrerenderedFormState } from './form-context';
import { Icon } from './icons';
import { theme } from './theme';

const c = theme.colors;

/** The values of a submitted form, by field name (from FormData; files are left out). */
export type FormValues = Record<string, string>;

/**
 * Turns an error into the text to show, in the current language: the plugin's own translation of
 * the code (`errors.<CODE>.<field>` or `errors.<CODE>` in its namespace), else the sdk's text for
 * network and server failures, else the server's message.
 */
export function useErrorText(): (error: unknown) => string {
  const pluginId = usePluginId();
  const sdk = useSdkText();
  const { i18n: active } = useTranslation();
  return useCallback(
    (error: unknown) => {
      if (!(error instanceof ApiError)) return sdk('somethingWentWrong');
      if (pluginId) {
        for (const key of [error.field ? `errors.${error.code}.${error.field}` : null, `errors.${error.code}`]) {
          if (key && active.exists(key, { ns: pluginId })) return active.t(key, { ns: pluginId });
        }
      }
      if (error.code === 'NETWORK_ERROR') return sdk('networkError');
      if (error.code === 'SERVER_UNAVAILABLE') return sdk('serverUnavailable');
      if (error.code === 'SERVER_ERROR') return sdk('serverError');
      return error.message || sdk('somethingWentWrong');
    },
    [pluginId, sdk, active],
  );
}

/**
 * The text of a refused form sent without JavaScript (issue 15): the plugin's `noscript.<CODE>` when
 * it has one (what to do when the error can only be fixed with a script, e.g. a captcha), else the
 * same text as the error would have had from JavaScript.
 */
function prerenderedErrorText(
  state: PrerenderedFormState,
  pluginId: string | null,
  describe: (error: unknown) => string,
  sdk: (key: 'scriptRequired') => string,
  active: { exists(key: string, options: { ns: string }): boolean; t(key: string, options: { ns: string }): string },
): string {
  const { status, code, message, field } = state.error;
  if (code === SCRIPT_REQUIRED) return sdk('scriptRequired');
  const key = `noscript.${code}`;
  if (pluginId && active.exists(key, { ns: pluginId })) return active.t(key, { ns: pluginId });
  return describe(new ApiError(status, code, message, field));
}

export interface FormProps {
  /**
   * Runs on submit with the form's values. Throw (or reject with) an ApiError to show it: with a
   * `field` that names an input of this form, next to that input; otherwise at the top.
   */
  onSubmit(values: FormValues, event: FormEvent<HTMLFormElement>): unknown;
  children: ReactNode;
  /** custom error texts; default {@link useErrorText} */
  errorText?: (error: unknown) => string;
  /** accessible name of the form */
  'aria-label'?: string;
  className?: string;
  /** turns off the browser's own validation bubbles */
  noValidate?: boolean;
}

function readValues(form: HTMLFormElement): FormValues {
  const values: FormValues = {};
  for (const [key, value] of new FormData(form)) if (typeof value === 'string') values[key] = value;
  return values;
}

/** A form whose submit is async: the submit Button spins, and server errors land where they belong. */
export function Form({ onSubmit, children, errorText, className, noValidate, ...rest }: FormProps) {
  const defaultErrorText = useErrorText();
  const describe = errorText ?? defaultErrorText;
  const prerendered = useContext(PrerenderedFormContext);
  const pluginId = usePluginId();
  const { i18n: active } = useTranslation();
  const sdk = useSdkText();
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(() => (prerendered ? prerenderedErrorText(prerendered, pluginId, describe, sdk, active) : null));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const fields = useRef(new Map<string, number>());
  const formRef = useRef<HTMLFormElement>(null);
  const mounted = useRef(true);
  const running = useRef(false);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const registerField = useCallback((name: string) => {
    fields.current.set(name, (fields.current.get(name) ?? 0) + 1);
    return () => {
      const n = (fields.current.get(name) ?? 1) - 1;
      if (n <= 0) fields.current.delete(name);
      else fields.current.set(name, n);
    };
  }, []);

  const clearFieldError = useCallback((name: string) => {
    setFieldErrors((errors) => {
      if (!(name in errors)) return errors;
      const next = { ...errors };
      delete next[name];
      return next;
    });
  }, []);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (running.current) return; // a double click must not send twice
    running.current = true;
    setSubmitting(true);
    setFormError(null);
    setFieldErrors({});
    try {
      await onSubmit(readValues(event.currentTarget), event);
    } catch (error) {
      if (!mounted.current) return;
      const text = describe(error);
      if (error instanceof ApiError && error.field && fields.current.has(error.field)) {
        setFieldErrors({ [error.field]: text });
        const input = formRef.current?.elements.namedItem(error.field);
        if (input instanceof HTMLElement) input.focus();
      } else {
        setFormError(text);
        if (!(error instanceof ApiError)) console.error('Form submit failed', error);
      }
    } finally {
      running.current = false;
      if (mounted.current) setSubmitting(false);
    }
  };

  const status = useMemo<FormStatus>(() => ({ submitting, fieldErrors, registerField, clearFieldError }), [submitting, fieldErrors, registerField, clearFieldError]);

  return (
    <FormContext.Provider value={status}>
      {/* method="post": a form sent before the script runs never puts its fields (a password) in the URL */}
      <form
        ref={formRef}
        method="post"
        onSubmit={handleSubmit}
        noValidate={noValidate}
        className={className}
        aria-busy={submitting || undefined}
        css={{ display: 'grid', gap: 16 }}
        {...rest}
      >
        {formError && (
          <Alert tone="error" onClose={() => setFormError(null)}>
            {formError}
          </Alert>
        )}
        {children}
      </form>
    </FormContext.Provider>
  );
}

/** Registers a field with the enclosing Form and returns its server error, if any. */
function useFormField(name: string | undefined): { serverError: string | undefined; clear(): void } {
  const form = useFormStatus();
  const register = form?.registerField;
  useEffect(() => (name && register ? register(name) : undefined), [name, register]);
  return {
    serverError: name ? form?.fieldErrors[name] : undefined,
    clear: () => {
      if (name && form) form.clearFieldError(name);
    },
  };
}

/** The attributes that tie a control to its label, hint and error. */
interface ControlWiring {
  id: string;
  name: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldWiring {
  id: string;
  /** the error to show: the caller's own, else the Form's server error for this field */
  shown: string | undefined;
  control: ControlWiring;
  /** call on every change: the user is correcting the field, so its server error goes */
  clearServerError(): void;
}

/**
 * One field's wiring, the same for every input kind: a stable id (the caller's or a generated one),
 * registration with the enclosing Form, which error shows, and the aria attributes that point at it.
 */
function useFieldWiring(name: string, givenId: string | undefined, hint: ReactNode, error: string | null | undefined): FieldWiring {
  const autoId = useId();
  const id = givenId ?? `f${autoId.replace(/:/g, '')}`;
  const field = useFormField(name);
  const shown = error || field.serverError || undefined;
  return {
    id,
    shown,
    control: { id, name, 'aria-invalid': shown ? true : undefined, 'aria-describedby': describedBy(id, hint, shown) },
    clearServerError: field.clear,
  };
}

const labelStyle = css({ fontSize: theme.font.size.sm, fontWeight: theme.font.weight.medium, color: c.text });
const hintStyle = css({ margin: 0, fontSize: theme.font.size.sm, color: c.muted, lineHeight: 1.4 });
const errorStyle = css({ margin: 0, fontSize: theme.font.size.sm, color: c.danger, lineHeight: 1.4, display: 'flex', gap: 6, alignItems: 'flex-start' });

export const controlStyle = css({
  width: '100%',
  minHeight: 42,
  padding: '10px 12px',
  fontFamily: 'inherit',
  fontSize: theme.font.size.lg, // 16px: phones do not zoom into the field
  color: c.text,
  background: c.background,
  border: `1px solid ${c.border}`,
  borderRadius: theme.radii.md,
  transition: 'border-color .15s, box-shadow .15s',
  '&::placeholder': { color: c.subtle },
  '&:hover:not(:disabled)': { borderColor: c.borderStrong },
  '&:focus-visible': { outline: 'none', borderColor: c.primary, boxShadow: `0 0 0 3px ${c.primarySoft}` },
  '&[aria-invalid="true"]': { borderColor: c.danger },
  '&:disabled': { opacity: 0.6, cursor: 'not-allowed' },
  [theme.breakpoints.sm]: { fontSize: theme.font.size.md },
});

interface FieldShellProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}

function FieldShell({ id, label, hint, error, children }: FieldShellProps) {
  return (
    <div css={{ display: 'grid', gap: 6, minWidth: 0 }}>
      <label htmlFor={id} css={labelStyle}>
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} css={hintStyle}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} css={errorStyle}>
          <Icon name="alert" size={14} style={{ marginTop: 2 }} />
          <span>{error}</span>
        </p>
      )}
    </div>
  );
}

function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  return error ? `${id}-error` : hint ? `${id}-hint` : undefined;
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'size' | 'children' | 'name'> {
  label: ReactNode;
  name: string;
  /** text, email, url, number, tel, search … (password: use PasswordField) */
  type?: string;
  value?: string;
  onChange?: (value: string, event: ChangeEvent<HTMLInputElement>) => void;
  /** an error of your own; a server error for this `name` from the Form shows when this is empty */
  error?: string | null;
  hint?: ReactNode;
  /** something inside the end of the field (PasswordField's show button) */
  endAdornment?: ReactNode;
}

/** A labelled text input with hint and error. */
export function TextField({ label, name, type = 'text', value, onChange, error, hint, endAdornment, id: givenId, ...rest }: TextFieldProps) {
  const field = useFieldWiring(name, givenId, hint, error);
  // a pre-rendered form that came back refused keeps what was typed (issue 15); never a password
  const kept = useContext(PrerenderedFormContext)?.values[name];
  return (
    <FieldShell id={field.id} label={label} hint={hint} error={field.shown}>
      <div css={{ position: 'relative', display: 'flex' }}>
        <input
          {...field.control}
          type={type}
          value={value}
          defaultValue={value === undefined && type !== 'password' ? kept : undefined}
          css={[controlStyle, endAdornment ? css({ paddingRight: 44 }) : undefined]}
          onChange={(event) => {
            field.clearServerError();
            onChange?.(event.target.value, event);
          }}
          {...rest}
        />
        {endAdornment && <div css={{ position: 'absolute', right: 4, top: 0, bottom: 0, display: 'flex', alignItems: 'center' }}>{endAdornment}</div>}
      </div>
    </FieldShell>
  );
}

export interface TextAreaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value' | 'children' | 'name'> {
  label: ReactNode;
  name: string;
  value?: string;
  onChange?: (value: string, event: ChangeEvent<HTMLTextAreaElement>) => void;
  /** an error of your own; a server error for this `name` from the Form shows when this is empty */
  error?: string | null;
  hint?: ReactNode;
  /** monospace text (code: CSS, JavaScript) */
  code?: boolean;
}

/** A labelled multi-line text input with hint and error. */
export function TextArea({ label, name, value, onChange, error, hint, code, rows = 4, id: givenId, ...rest }: TextAreaProps) {
  const field = useFieldWiring(name, givenId, hint, error);
  return (
    <FieldShell id={field.id} label={label} hint={hint} error={field.shown}>
      <textarea
        {...field.control}
        value={value}
        rows={rows}
        css={[controlStyle, css({ resize: 'vertical', lineHeight: 1.5 }), code ? css({ fontFamily: theme.font.mono, fontSize: theme.font.size.sm }) : undefined]}
        onChange={(event) => {
          field.clearServerError();
          onChange?.(event.target.value, event);
        }}
        {...rest}
      />
    </FieldShell>
  );
}

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'endAdornment'>;

/** A password input with a show/hide button. */
export function PasswordField({ autoComplete = 'current-password', ...props }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const text = useSdkText();
  return (
    <TextField
      {...props}
      autoComplete={autoComplete}
      type={visible ? 'text' : 'password'}
      endAdornment={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? text('hidePassword') : text('showPassword')}
          aria-pressed={visible}
          css={{
            display: 'inline-flex',
            padding: 8,
            border: 0,
            borderRadius: theme.radii.sm,
            background: 'transparent',
            color: c.muted,
            cursor: 'pointer',
            '&:hover': { color: c.text },
            '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
          }}
        >
          <Icon name={visible ? 'eye-off' : 'eye'} size={18} />
        </button>
      }
    />
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'type' | 'children' | 'name'> {
  label: ReactNode;
  name: string;
  checked?: boolean;
  onChange?: (checked: boolean, event: ChangeEvent<HTMLInputElement>) => void;
  hint?: ReactNode;
  error?: string | null;
}

/** A labelled checkbox. */
export function Checkbox({ label, name, checked, onChange, hint, error, id: givenId, ...rest }: CheckboxProps) {
  const { id, shown, control, clearServerError } = useFieldWiring(name, givenId, hint, error);
  return (
    <div css={{ display: 'grid', gap: 4 }}>
      <label htmlFor={id} css={{ display: 'flex', gap: 10, alignItems: 'flex-start', cursor: 'pointer', fontSize: theme.font.size.md, color: c.text, lineHeight: 1.4 }}>
        <input
          {...control}
          type="checkbox"
          checked={checked}
          onChange={(event) => {
            clearServerError();
            onChange?.(event.target.checked, event);
          }}
          css={{
            width: 18,
            height: 18,
            margin: '1px 0 0',
            flex: 'none',
            accentColor: c.primary,
            cursor: 'inherit',
            '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing, borderRadius: 4 },
          }}
          {...rest}
        />
        <span>{label}</span>
      </label>
      {hint && !shown && (
        <p id={`${id}-hint`} css={[hintStyle, css({ paddingLeft: 28 })]}>
          {hint}
        </p>
      )}
      {shown && (
        <p id={`${id}-error`} css={[errorStyle, css({ paddingLeft: 28 })]}>
          {shown}
        </p>
      )}
    </div>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value' | 'children' | 'name'> {
  label: ReactNode;
  name: string;
  options: readonly SelectOption[];
  value?: string;
  onChange?: (value: string, event: ChangeEvent<HTMLSelectElement>) => void;
  /** a first, empty choice */
  placeholder?: string;
  hint?: ReactNode;
  error?: string | null;
}

/** A labelled native select (works well on phones). */
export function Select({ label, name, options, value, onChange, placeholder, hint, error, id: givenId, ...rest }: SelectProps) {
  const field = useFieldWiring(name, givenId, hint, error);
  return (
    <FieldShell id={field.id} label={label} hint={hint} error={field.shown}>
      <select
        {...field.control}
        value={value}
        onChange={(event) => {
          field.clearServerError();
          onChange?.(event.target.value, event);
        }}
        css={[controlStyle, css({ appearance: 'auto', cursor: 'pointer' })]}
        {...rest}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}
