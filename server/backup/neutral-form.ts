// The dialect-neutral form of a table: its column names (sorted, so a column added by ALTER TABLE on
// one dialect and by a rebuild on another still lines up) and one JSON array per row, rows in the
// byte order of their primary key. The same rows read from SQLite, PostgreSQL or MariaDB give the
// same lines, so a checksum taken on one database proves a restore on another.
//
// Values: null, JSON numbers (integers beyond 2^53 as {"$int":"digits"}, NaN and the infinities as
// {"$num":"NaN"}), text, bytes as {"$bytes":"<base64>"}; booleans become 0/1 (the panel's schema
// stores flags as integers), dates ISO-8601 UTC text (the panel stores its timestamps as text).
import { createHash, type Hash } from 'node:crypto';

export type NeutralCell = null | number | string | { $int: string } | { $num: string } | { $bytes: string };

export function encodeCell(value: unknown): NeutralCell {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : { $num: String(value) };
    case 'bigint':
      return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : { $int: value.toString() };
    case 'boolean':
      return value ? 1 : 0;
    default:
      break;
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  // a json column (none in the panel's own schema) as its text
  return JSON.stringify(value);
}

/**
 * A cell as a value to insert. `bigAs`: how a big integer is handed to the driver (better-sqlite3
 * binds a BigInt exactly; pg and mysql2 take its digits and let the column parse them).
 */
export function decodeCell(cell: unknown, bigAs: 'bigint' | 'text'): unknown {
  if (cell === null || typeof cell !== 'object') return cell;
  const tagged = cell as Record<string, unknown>;
  if (typeof tagged.$int === 'string' && /^-?\d+$/.test(tagged.$int)) return bigAs === 'bigint' ? BigInt(tagged.$int) : tagged.$int;
  if (typeof tagged.$num === 'string') return Number(tagged.$num);
  if (typeof tagged.$bytes === 'string') return Buffer.from(tagged.$bytes, 'base64');
  throw new Error('a cell of the backup has an unknown form');
}

export function rowLine(cells: readonly unknown[]): string {
  return JSON.stringify(cells.map(encodeCell));
}

/** sha256 over a table's neutral form: its name and columns, then each row line. */
export class TableDigest {
  private readonly hash: Hash = createHash('sha256');
  rows = 0;

  constructor(name: string, columns: readonly string[]) {
    this.hash.update(`${JSON.stringify({ table: name, columns })}\n`);
  }

  addLine(line: string): void {
    this.hash.update(line);
    this.hash.update('\n');
    this.rows++;
  }

  hex(): string {
    return this.hash.digest('hex');
  }
}

/** sha256 over the files, in key order: each file's key, description and bytes. */
export class FilesDigest {
  private readonly hash: Hash = createHash('sha256');
  count = 0;
  bytes = 0;

  startFile(key: string, info: { type: string; size: number; name: string }): void {
    this.hash.update(`${JSON.stringify({ key, type: info.type, size: info.size, name: info.name })}\n`);
    this.count++;
  }

  addBytes(chunk: Buffer): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
  }

  hex(): string {
    return this.hash.digest('hex');
  }
}
