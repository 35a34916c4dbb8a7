// @vitest-environment jsdom
// useTaskFollower: asks every TASK_POLL_MS while the task runs, hands over each answer, calls onEnded
// once when it ends, keeps a failed ask as pollError and asks again; endedOnFollow decides whether a
// task handed over already ended counts as ending.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { ApiError } from './http';
import { TASK_POLL_MS, useTaskFollower, type TaskFollower, type TaskFollowerOptions } from './task-follower';

interface Job {
  id: number;
  state: 'running' | 'done' | 'failed';
  done: number;
}

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
});

function mount(options: TaskFollowerOptions<Job>): { current: () => TaskFollower<Job> } {
  let seen: TaskFollower<Job> | null = null;
  function Probe() {
    seen = useTaskFollower(options);
    return null;
  }
  root = createRoot(document.createElement('div'));
  act(() => root!.render(<Probe />));
  return { current: () => seen! };
}

const tick = () => act(async () => vi.advanceTimersByTimeAsync(TASK_POLL_MS));

it('asks while the task runs, hands over each answer and ends once', async () => {
  const answers: Job[] = [
    { id: 1, state: 'running', done: 5 },
    { id: 1, state: 'done', done: 10 },
  ];
  const read = vi.fn(async () => answers.shift()!);
  const onEnded = vi.fn();
  const follower = mount({ read, onEnded });
  act(() => follower.current().follow({ id: 1, state: 'running', done: 0 }));
  expect(read).not.toHaveBeenCalled();
  await tick();
  expect(follower.current().task).toEqual({ id: 1, state: 'running', done: 5 });
  await tick();
  expect(follower.current().task?.state).toBe('done');
  expect(onEnded).toHaveBeenCalledExactlyOnceWith({ id: 1, state: 'done', done: 10 });
  // an ended task is not asked about again
  await tick();
  await tick();
  expect(read).toHaveBeenCalledTimes(2);
});

it('keeps a failed ask as pollError and asks again; the next answer clears it', async () => {
  const read = vi
    .fn<(job: Job) => Promise<Job>>()
    .mockRejectedValueOnce(new ApiError(401, 'UNAUTHENTICATED', 'Sign in'))
    .mockRejectedValueOnce(new TypeError('Failed to fetch'))
    .mockResolvedValueOnce({ id: 2, state: 'failed', done: 1 });
  const onEnded = vi.fn();
  const follower = mount({ read, onEnded });
  act(() => follower.current().follow({ id: 2, state: 'running', done: 0 }));
  await tick();
  expect(follower.current().pollError?.status).toBe(401);
  await tick();
  // anything else than an ApiError counts as the network
  expect(follower.current().pollError?.code).toBe('NETWORK_ERROR');
  await tick();
  expect(follower.current().pollError).toBeNull();
  expect(onEnded).toHaveBeenCalledExactlyOnceWith({ id: 2, state: 'failed', done: 1 });
  expect(read).toHaveBeenCalledTimes(3);
});

it('a task handed over already ended ends at once only with endedOnFollow', () => {
  const ended: Job = { id: 3, state: 'done', done: 3 };
  const plain = vi.fn();
  const follower = mount({ read: vi.fn(), onEnded: plain });
  act(() => follower.current().follow(ended));
  expect(follower.current().task).toEqual(ended);
  expect(plain).not.toHaveBeenCalled();
  act(() => root?.unmount());

  const eager = vi.fn();
  const second = mount({ read: vi.fn(), onEnded: eager, endedOnFollow: true });
  act(() => second.current().follow(ended));
  expect(eager).toHaveBeenCalledExactlyOnceWith(ended);
  act(() => second.current().follow(null));
  expect(second.current().task).toBeNull();
  expect(eager).toHaveBeenCalledTimes(1);
});

it('stops asking when the page goes away', async () => {
  const read = vi.fn(async (job: Job) => job);
  const follower = mount({ read, onEnded: vi.fn() });
  act(() => follower.current().follow({ id: 4, state: 'running', done: 0 }));
  act(() => root?.unmount());
  root = null;
  await act(async () => vi.advanceTimersByTimeAsync(TASK_POLL_MS * 3));
  expect(read).not.toHaveBeenCalled();
});
