// A long piece of work the server runs (a backup, an off-site transfer) followed from a page: asked
// about every second while it runs, each answer handed over; a failed ask (the network, a restore
// that signed everyone out) is kept as `pollError` and asked again — the page decides what it means.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './http';

/** How often a running task is asked about. */
export const TASK_POLL_MS = 1000;

/** Where a long piece of work is: a task that is not running has ended. */
export type TaskState = 'running' | 'done' | 'failed';

export interface FollowedTask {
  state: TaskState;
}

export interface TaskFollowerOptions<T extends FollowedTask> {
  /** the task's current state from the server */
  read(task: T): Promise<T>;
  /** called once with the task that ended while followed */
  onEnded(task: T): void;
  /**
   * also call onEnded when a task handed to follow() has already ended (a job that finished before
   * its start answer came back); off for a page that hands over whatever its status shows
   */
  endedOnFollow?: boolean;
}

export interface TaskFollower<T> {
  task: T | null;
  pollError: ApiError | null;
  /** follows this task from now on (null: none) */
  follow(task: T | null): void;
}

export function useTaskFollower<T extends FollowedTask>({ read, onEnded, endedOnFollow = false }: TaskFollowerOptions<T>): TaskFollower<T> {
  const [task, setTask] = useState<T | null>(null);
  const [pollError, setPollError] = useState<ApiError | null>(null);
  // the latest callbacks, without restarting the poll when a page passes new ones
  const latest = useRef({ read, onEnded });
  latest.current = { read, onEnded };

  useEffect(() => {
    if (task?.state !== 'running') return;
    let stopped = false;
    const timer = window.setTimeout(async () => {
      try {
        const next = await latest.current.read(task);
        if (stopped) return;
        setPollError(null);
        setTask(next);
        if (next.state !== 'running') latest.current.onEnded(next);
      } catch (error) {
        if (stopped) return;
        setPollError(error instanceof ApiError ? error : new ApiError(0, 'NETWORK_ERROR', String(error)));
        // a new object with the same state schedules the next ask
        setTask((current) => (current ? { ...current } : current));
      }
    }, TASK_POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [task]);

  const follow = useCallback(
    (next: T | null) => {
      setPollError(null);
      setTask(next);
      if (endedOnFollow && next && next.state !== 'running') latest.current.onEnded(next);
    },
    [endedOnFollow],
  );

  return { task, pollError, follow };
}
