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
