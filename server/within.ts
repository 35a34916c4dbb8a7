// Waiting for something, but not for ever: a probe that must answer in time, a hold that must begin.

/** `work`'s value, or `fallback` when it has not settled after `timeoutMs` (the work itself goes on). */
export function within<T>(work: Promise<T>, timeoutMs: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), timeoutMs);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
