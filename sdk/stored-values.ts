// Numbers read back from the database. A column can hold what no request could have written (a hand
// edit, an old bug, SQLite keeping a REAL ±Infinity or text in an INTEGER column), and a count read
// from a row becomes money or resources the moment it is added up or shown. So a stored count is
// taken only when it is a whole number in range; anything else is "unreadable" (null), and the caller
// decides what that means (counts as nothing, may not be spent, the row is flagged) and logs it —
// never NaN or Infinity passed on.
import { MAX_AMOUNT } from './schema';

const WHOLE = /^-?\d{1,16}$/;

/**
 * A whole number in [min, max] from a row (PostgreSQL counts and bigints come as text or bigint),
 * or null when the stored value is not one.
 */
export function storedCount(value: unknown, max: number = MAX_AMOUNT, min = 0): number | null {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'bigint') n = Number(value);
  else if (typeof value === 'string' && WHOLE.test(value)) n = Number(value);
  else return null;
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}
