// The note an edit form shows when a save had nothing to send (see useEditForm): the administrator
// learns that nothing was saved, rather than wondering whether the click did anything.
import type { ReactNode } from 'react';
import { Alert } from './feedback';

export interface UnchangedNoteProps {
  /** the form's state, as useEditForm returns it */
  form: { unchanged: boolean; dismissUnchanged(): void };
  /** the text, in the plugin's words */
  children: ReactNode;
}

/** Shown while `form.unchanged`, closable; the next edit takes it away. */
export function UnchangedNote({ form, children }: UnchangedNoteProps) {
  if (!form.unchanged) return null;
  return (
    <Alert tone="info" onClose={form.dismissUnchanged}>
      {children}
    </Alert>
  );
}
