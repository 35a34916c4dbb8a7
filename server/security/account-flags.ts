// Review flags on accounts. One open flag per account and reason, holding its evidence (linked
// accounts "user:<id>", checked addresses "ip:<address>"); new evidence for an open flag is merged
// into it. Clearing keeps the flag as history, and the evidence an administrator has cleared does
// not raise the flag again — only something new does (a further linked account, another address).
import { isUniqueViolation } from '../db/connect';
import type { AbuseReviewDb, AccountFlagsTable, FlagKind, FlagReason } from './abuse-review-tables';

/** the most evidence keys one flag keeps */
const MAX_EVIDENCE = 50;

export interface FlagInput {
  userId: number;
  kind: FlagKind;
  reason: FlagReason;
  evidence: readonly string[];
  ip: string | null;
  detail: string | null;
}

export interface RaisedFlag {
  id: number;
  /** a new flag (false: the evidence went into an open one) */
  created: boolean;
  /** the open flag gained evidence it did not hold */
  grew: boolean;
}

export type FlagRow = Omit<AccountFlagsTable, 'id' | 'evidence'> & { id: number; evidence: string[] };

export type ClearOutcome = 'cleared' | 'not_found' | 'already_cleared';

export function parseEvidence(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export class AccountFlags {
  constructor(
    private readonly db: AbuseReviewDb,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Raises (or extends) a flag; null when every piece of evidence was already reviewed. */
  async raise(input: FlagInput): Promise<RaisedFlag | null> {
    const reviewedRows = await this.db
      .selectFrom('account_flags')
      .select('evidence')
      .where('user_id', '=', input.userId)
      .where('kind', '=', input.kind)
      .where('reason', '=', input.reason)
      .where('cleared_at', 'is not', null)
      .execute();
    const reviewed = new Set(reviewedRows.flatMap((r) => parseEvidence(r.evidence)));
    const fresh = [...new Set(input.evidence)].filter((key) => !reviewed.has(key));
    if (fresh.length === 0) return null;

    const openKey = `${input.userId}:${input.kind}:${input.reason}`;
    const ip = input.ip ? input.ip.slice(0, 45) : null;
    const detail = input.detail ? input.detail.slice(0, 255) : null;
    // two tries: a concurrent sign-in may insert the open flag between our read and our insert
    for (let attempt = 0; attempt < 2; attempt++) {
      const at = this.now().toISOString();
      const open = await this.db.selectFrom('account_flags').select(['id', 'evidence']).where('open_key', '=', openKey).executeTakeFirst();
      if (open) {
        const held = parseEvidence(open.evidence);
        const merged = [...new Set([...held, ...fresh])].slice(0, MAX_EVIDENCE);
        await this.db
          .updateTable('account_flags')
          .set({ evidence: JSON.stringify(merged), ip, detail, updated_at: at })
          .where('id', '=', open.id)
          .execute();
        return { id: open.id, created: false, grew: merged.length > held.length };
      }
      try {
        await this.db
          .insertInto('account_flags')
          .values({
            user_id: input.userId,
            kind: input.kind,
            reason: input.reason,
            evidence: JSON.stringify(fresh.slice(0, MAX_EVIDENCE)),
            ip,
            detail,
            open_key: openKey,
            created_at: at,
            updated_at: at,
            cleared_at: null,
            cleared_by: null,
            clear_note: null,
          })
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) continue;
        throw error;
      }
      const row = await this.db.selectFrom('account_flags').select('id').where('open_key', '=', openKey).executeTakeFirstOrThrow();
      return { id: row.id, created: true, grew: true };
    }
    throw new Error(`could not raise the ${input.reason} flag of user ${input.userId}`);
  }

  /** The open flags' reasons of each of `userIds` (for the admin user list). */
  async openReasons(userIds: readonly number[]): Promise<Map<number, FlagReason[]>> {
    const out = new Map<number, FlagReason[]>();
    if (userIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('account_flags')
      .select(['user_id', 'reason'])
      .where('user_id', 'in', [...userIds])
      .where('cleared_at', 'is', null)
      .orderBy('id')
      .execute();
    for (const row of rows) out.set(row.user_id, [...(out.get(row.user_id) ?? []), row.reason]);
    return out;
  }

  /** Every flag of a user, open ones first, then newest first. */
  async forUser(userId: number, limit = 100): Promise<FlagRow[]> {
    const rows = await this.db
      .selectFrom('account_flags')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy((eb) => eb.case().when('cleared_at', 'is', null).then(0).else(1).end())
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, evidence: parseEvidence(r.evidence) }));
  }

  async find(userId: number, flagId: number): Promise<FlagRow | null> {
    const row = await this.db.selectFrom('account_flags').selectAll().where('id', '=', flagId).where('user_id', '=', userId).executeTakeFirst();
    return row ? { ...row, evidence: parseEvidence(row.evidence) } : null;
  }

  /** Marks a flag reviewed (one conditional update: two administrators cannot both clear it). */
  async clear(userId: number, flagId: number, clearedBy: number, note: string | null): Promise<ClearOutcome> {
    const result = await this.db
      .updateTable('account_flags')
      .set({ cleared_at: this.now().toISOString(), cleared_by: clearedBy, clear_note: note, open_key: null })
      .where('id', '=', flagId)
      .where('user_id', '=', userId)
      .where('cleared_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return 'cleared';
    return (await this.find(userId, flagId)) ? 'already_cleared' : 'not_found';
  }
}
