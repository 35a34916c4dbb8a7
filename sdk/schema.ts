// JSON-schema pieces for route input. The host refuses to register a route whose body, query or
// params schema holds an integer or number without both bounds (server/http/input-policy.ts), so the
// bounded number is the only kind there is; these helpers make it the short way to write one.

/** The largest id a table's integer key reaches in every dialect (a signed 32-bit column). */
export const MAX_ROW_ID = 2_147_483_647;
/** The largest coin amount or resource total a request may name (far below 2^53: sums stay exact). */
export const MAX_AMOUNT = 1_000_000_000_000;

export interface BoundedInteger {
  readonly type: 'integer';
  readonly minimum: number;
  readonly maximum: number;
}

export interface BoundedNumber {
  readonly type: 'number';
  readonly minimum: number;
  readonly maximum: number;
}

/** `{ type: 'integer', minimum, maximum }`, plus any other keywords (default, description…). */
export function boundedInteger<E extends Record<string, unknown> = Record<never, never>>(minimum: number, maximum: number, extra?: E): BoundedInteger & E {
  if (!Number.isSafeInteger(minimum) || !Number.isSafeInteger(maximum) || minimum > maximum) {
    throw new Error(`boundedInteger(${minimum}, ${maximum}): bounds must be safe integers, minimum ≤ maximum`);
  }
  return { type: 'integer', minimum, maximum, ...(extra ?? ({} as E)) };
}

/** A finite number between the bounds (fractions allowed). */
export function boundedNumber<E extends Record<string, unknown> = Record<never, never>>(minimum: number, maximum: number, extra?: E): BoundedNumber & E {
  if (!Number.isFinite(minimum) || !Number.isFinite(maximum) || minimum > maximum) {
    throw new Error(`boundedNumber(${minimum}, ${maximum}): bounds must be finite, minimum ≤ maximum`);
  }
  return { type: 'number', minimum, maximum, ...(extra ?? ({} as E)) };
}

/** A row id in a path or body: 1 … MAX_ROW_ID. */
export const rowId = (): BoundedInteger => boundedInteger(1, MAX_ROW_ID);
