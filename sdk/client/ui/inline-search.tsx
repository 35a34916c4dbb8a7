// One text field and a search button on one row, in a Form (so server errors land on the field): the
// shape of every "find something by what you type" box — the /lookup name and PIN searches, the
// admin dashboard's support PIN lookup.
import type { ReactNode } from 'react';
import { Button } from './Button';
import { Form, TextField, type TextFieldProps } from './form';

export interface InlineSearchFormProps extends Omit<TextFieldProps, 'onChange'> {
  /** the form's accessible name */
  formLabel: string;
  /** the button's text */
  submitLabel: ReactNode;
  onChange(value: string): void;
  onSubmit(): unknown;
  /** the field's narrowest width before the button wraps below it (px) */
  minFieldWidth?: number;
}

export function InlineSearchForm({ formLabel, submitLabel, onSubmit, minFieldWidth = 180, ...field }: InlineSearchFormProps) {
  return (
    <Form onSubmit={onSubmit} aria-label={formLabel} noValidate>
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'flex-end' }}>
        <div css={{ flex: `1 1 ${minFieldWidth}px` }}>
          <TextField {...field} />
        </div>
        <Button type="submit" icon="search">
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
