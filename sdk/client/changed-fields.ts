// Edit forms send only what the administrator changed (a PATCH that leaves the rest alone, so two
// people editing different fields of one row do not undo each other).

/**
 * The fields of `next` that differ from `before` (compared with ===, so normalise both sides the
 * same way first); everything in `next` when there is no `before` (a new row).
 */
export function changedFields<T extends object>(before: T | null, next: T): Partial<T> {
  if (!before) return { ...next };
  const out: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) {
    if (next[key] !== before[key]) out[key] = next[key];
  }
  return out;
}
