// @vitest-environment jsdom
// TaskCard: the bar and the progress line only while the task runs; the dismiss button only once it
// is over; the card is a labelled live region, and says when it failed.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { TaskState } from '../task-follower';
import { TaskCard, TaskNote } from './task-card';

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

function show(state: TaskState, onDismiss = vi.fn()) {
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() =>
    root!.render(
      <TaskCard title="Backing up" state={state} done={3} total={4} barLabel="Copying files" progress={<TaskNote>3 of 4</TaskNote>} dismissLabel="Dismiss" onDismiss={onDismiss}>
        {state === 'done' && <TaskNote>Finished</TaskNote>}
      </TaskCard>,
    ),
  );
  return host;
}

it('while running: a bar with its share and the progress line, no dismiss', () => {
  const host = show('running');
  const card = host.querySelector('section')!;
  expect(card.getAttribute('aria-label')).toBe('Backing up');
  expect(card.getAttribute('aria-live')).toBe('polite');
  const bar = host.querySelector('[role="progressbar"]')!;
  expect(bar.getAttribute('aria-label')).toBe('Copying files');
  expect(bar.getAttribute('aria-valuenow')).toBe('75');
  expect(host.textContent).toContain('3 of 4');
  expect(host.querySelector('button')).toBeNull();
});

it('once over: no bar, the ending, and a dismiss button that dismisses', () => {
  const onDismiss = vi.fn();
  const host = show('done', onDismiss);
  expect(host.querySelector('[role="progressbar"]')).toBeNull();
  expect(host.textContent).not.toContain('3 of 4');
  expect(host.textContent).toContain('Finished');
  const button = host.querySelector('button')!;
  expect(button.textContent).toBe('Dismiss');
  act(() => button.click());
  expect(onDismiss).toHaveBeenCalledOnce();
});

it('a failed task is drawn with the danger border', () => {
  const borderOf = (state: TaskState) => getComputedStyle(show(state).querySelector('section')!).borderColor;
  const failed = borderOf('failed');
  act(() => root?.unmount());
  const done = borderOf('done');
  expect(failed).toMatch(/^rgba\(248, 113, 113/);
  expect(done).not.toBe(failed);
});
