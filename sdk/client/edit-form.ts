// The state every create/edit form of the panel keeps between <Form>'s submit and its inputs: the
// values as typed, the problems the form's own checks found (cleared field by field as the
// administrator types), and "nothing changed" when a save would send an empty PATCH. The <Form>
// itself owns the rest (the spinning submit, the server's error on the field it names).
import { useCallback, useRef, useState } from 'react';

/** What is wrong with each field, as a text or an i18n key; a field without a problem is absent or undefined. */
export type FieldProblems<V> = Partial<Record<keyof V, string>>;

export interface EditFormOptions<V extends object, B extends object> {
  /** the values the inputs start with (an existing row's, or the empty form's) */
  initial: V;
  /** the form's own checks, run before anything is sent */
  check(values: V): FieldProblems<V>;
  /** what a save sends for these values; an empty object means nothing changed, so nothing is sent */
  changes(values: V): B;
  /** sends the changes; throw an ApiError with a `field` and the surrounding <Form> puts it on that input */
  submit(changes: B): unknown;
  /** the text shown for a problem (e.g. its translation); the problem itself when left out */
  problemText?(problem: string, field: keyof V): string;
  /** told about each edit made through set() or field(), with the values it makes (e.g. for a live preview) */
  onValuesChange?(values: V): void;
  /** told about the problems when the checks refuse a save (e.g. to show the tab of the first one) */
  onInvalid?(problems: FieldProblems<V>): void;
}

/** What an input needs from the form: its name, value, onChange and the shown problem. */
export interface FieldBinding<K extends string, T> {
  name: K;
  value: T;
  onChange(value: T): void;
  error: string | undefined;
}

export interface EditForm<V extends object, B extends object> {
  values: V;
  /** an input's onChange: sets the field, clears its problem and the "nothing changed" note */
  set<K extends keyof V>(field: K): (value: V[K]) => void;
  /** replaces all values (a picker that fills several fields) without touching the problems */
  setValues(update: V | ((values: V) => V)): void;
  problems: FieldProblems<V>;
  /** the shown text of a field's problem, if it has one */
  problem(field: keyof V): string | undefined;
  /** an input's binding, to spread on a TextField or Select: `<TextField label={…} {...form.field('name')} />` */
  field<K extends keyof V & string>(name: K): FieldBinding<K, V[K]>;
  /** what a save would send now */
  changes: B;
  /** how many fields a save would send */
  pending: number;
  /** true after a save that had nothing to send, until the next edit */
  unchanged: boolean;
  dismissUnchanged(): void;
  /** for <Form onSubmit>: check, then send the changes, or say that nothing changed */
  submit(): Promise<void>;
  /** back to `values` (after a save: the row as the server now has it), or to the initial values */
  reset(values?: V): void;
}

/** The edit-form state machine of {@link EditFormOptions}; pair it with <Form onSubmit={form.submit}>. */
export function useEditForm<V extends object, B extends object>(options: EditFormOptions<V, B>): EditForm<V, B> {
  const [values, setValues] = useState<V>(options.initial);
  const [problems, setProblems] = useState<FieldProblems<V>>({});
  const [unchanged, setUnchanged] = useState(false);
  // the latest options, so a stable set() never calls a stale check or submit
  const latest = useRef(options);
  latest.current = options;
  const shown = useRef(values);
  shown.current = values;

  const set = useCallback(
    <K extends keyof V>(field: K) =>
      (value: V[K]) => {
        setValues((v) => ({ ...v, [field]: value }));
        latest.current.onValuesChange?.({ ...shown.current, [field]: value });
        setProblems((p) => (p[field] === undefined ? p : { ...p, [field]: undefined }));
        setUnchanged(false);
      },
    [],
  );

  const changes = options.changes(values);
  const submit = async () => {
    const { check, submit: send, onInvalid } = latest.current;
    const found = check(values);
    setProblems(found);
    if (Object.values(found).some((problem) => problem !== undefined)) {
      onInvalid?.(found);
      return;
    }
    if (Object.keys(changes).length === 0) {
      setUnchanged(true);
      return;
    }
    await send(changes);
  };

  const problem = (field: keyof V): string | undefined => {
    const found = problems[field];
    if (found === undefined) return undefined;
    return options.problemText ? options.problemText(found, field) : found;
  };

  return {
    values,
    set,
    setValues,
    problems,
    problem,
    field: (name) => ({ name, value: values[name], onChange: set(name), error: problem(name) }),
    changes,
    pending: Object.keys(changes).length,
    unchanged,
    dismissUnchanged: () => setUnchanged(false),
    submit,
    reset: (next) => {
      setValues(next ?? latest.current.initial);
      setProblems({});
      setUnchanged(false);
    },
  };
}
