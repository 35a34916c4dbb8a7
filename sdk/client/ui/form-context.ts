import { createContext, useContext } from 'react';

/** What a {@link Form} shares with its fields and submit button. */
export interface FormStatus {
  /** true while onSubmit's promise runs */
  submitting: boolean;
  /** server errors by field name (from ApiError.field) */
  fieldErrors: Readonly<Record<string, string>>;
  /** A field announces its name, so errors about it go next to it rather than at the top. */
  registerField(name: string): () => void;
  /** Clears a field's server error (the user is correcting it). */
  clearFieldError(name: string): void;
}

export const FormContext = createContext<FormStatus | null>(null);

/** The enclosing Form's status, or null outside a Form. */
export function useFormStatus(): FormStatus | null {
  return useContext(FormContext);
}

/**
 * issue 15: a pre-rendered page's form that was sent without JavaScript and refused. The server renders
 * the page again with it, and the kernel hands it on to the page it mounts over that one: the form
 * opens with the error at its top and the kept fields filled in.
 */
export interface PrerenderedFormState {
  error: { status: number; code: string; message: string; field?: string };
  /** the fields to fill in again (the route's `prerender.form.keep`), never a password */
  values: Readonly<Record<string, string>>;
}

/** The error code of a form sent without its script where the page has no way to take it (issue 15). */
export const SCRIPT_REQUIRED = 'SCRIPT_REQUIRED';

export const PrerenderedFormContext = createContext<PrerenderedFormState | null>(null);
