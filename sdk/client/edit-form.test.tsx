// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { beforeAll, expect, it } from 'vitest';
import { changedFields } from './changed-fields';
import { useEditForm, type EditForm, type FieldProblems } from './edit-form';

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

interface Values {
  name: string;
  coins: string;
}

const BEFORE: Values = { name: 'alpha', coins: '5' };

function check(values: Values): FieldProblems<Values> {
  const problems: FieldProblems<Values> = {};
  if (values.name.trim() === '') problems.name = 'required';
  if (!/^\d+$/.test(values.coins)) problems.coins = 'number';
  return problems;
}

function mount(onInvalid?: (problems: FieldProblems<Values>) => void, send?: (changes: Partial<Values>) => unknown) {
  const sent: Partial<Values>[] = [];
  const seen: Values[] = [];
  let form: EditForm<Values, Partial<Values>> | null = null;
  function Probe() {
    form = useEditForm({
      initial: BEFORE,
      check,
      changes: (values) => changedFields(BEFORE, values),
      submit: (changes) => {
        sent.push(changes);
        return send?.(changes);
      },
      problemText: (problem, field) => `${String(field)}: ${problem}`,
      onInvalid,
      onValuesChange: (values) => seen.push(values),
    });
    return null;
  }
  const root = createRoot(document.createElement('div'));
  act(() => root.render(<Probe />));
  return { sent, seen, form: () => form!, unmount: () => act(() => root.unmount()) };
}

it('sends only the changed fields, and says so when nothing changed', async () => {
  const { sent, seen, form, unmount } = mount();
  expect(form().pending).toBe(0);
  await act(() => form().submit());
  expect(sent).toEqual([]);
  expect(form().unchanged).toBe(true);
  // the next edit takes the note away
  act(() => form().set('coins')('7'));
  expect(form().unchanged).toBe(false);
  expect(form().pending).toBe(1);
  expect(form().changes).toEqual({ coins: '7' });
  expect(seen).toEqual([{ name: 'alpha', coins: '7' }]); // a live preview follows each edit
  await act(() => form().submit());
  expect(sent).toEqual([{ coins: '7' }]);
  unmount();
});

it("refuses to send what its checks refuse, and clears a field's problem as it is edited", async () => {
  const invalid: FieldProblems<Values>[] = [];
  const { sent, form, unmount } = mount((problems) => invalid.push(problems));
  act(() => form().set('name')(' '));
  act(() => form().set('coins')('x'));
  await act(() => form().submit());
  expect(sent).toEqual([]);
  expect(invalid).toEqual([{ name: 'required', coins: 'number' }]);
  expect(form().problem('name')).toBe('name: required');
  expect(form().problem('coins')).toBe('coins: number');
  // an input's binding carries the same value, problem and onChange
  expect(form().field('coins')).toMatchObject({ name: 'coins', value: 'x', error: 'coins: number' });
  act(() => form().field('name').onChange('beta'));
  expect(form().field('name')).toMatchObject({ value: 'beta', error: undefined });
  expect(form().problem('name')).toBeUndefined();
  expect(form().problem('coins')).toBe('coins: number'); // the others stay
  act(() => form().reset());
  expect(form().values).toEqual(BEFORE);
  expect(form().problem('coins')).toBeUndefined();
  act(() => form().reset({ name: 'gamma', coins: '1' }));
  expect(form().values).toEqual({ name: 'gamma', coins: '1' });
  unmount();
});

it("lets a failed send's error reach the <Form> that shows it", async () => {
  const { form, unmount } = mount(undefined, () => Promise.reject(new Error('refused')));
  act(() => form().set('name')('beta'));
  await expect(act(() => form().submit())).rejects.toThrow('refused');
  unmount();
});
