// Every user's referral code: made at registration (event user.registered) or, for accounts older
// than this plugin, the first time they are asked for — whichever comes first; a race between the
// two leaves one code, because the user id is the table's key.
import { randomInt } from 'node:crypto';
import { insertUnlessTaken, type DatabaseDialect } from '@orepanel/sdk/server';
import { normalizeReferralCode, REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH } from '../shared/referral-code';
import type { ReferralDb } from './tables';

/** 31^8 ≈ 8.5e11 codes: a clash is rare, and a new draw settles it */
const MAX_DRAWS = 8;

function drawCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++) code += REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)];
  return code;
}

export class ReferralCodes {
  constructor(
    private readonly db: ReferralDb,
    private readonly dialect: DatabaseDialect,
    private readonly now: () => number,
  ) {}

  /** The user's code, made now if they have none yet. */
  async codeOf(userId: number): Promise<string> {
    const read = () => this.db.selectFrom('referral_codes').select('code').where('user_id', '=', userId).executeTakeFirst();
    const existing = await read();
    if (existing) return existing.code;
    for (let draw = 0; draw < MAX_DRAWS; draw++) {
      // skipped when the user got a code meanwhile (their key) or the drawn code is taken (the
      // code's key): reading back tells which
      await insertUnlessTaken(
        this.dialect,
        this.db.insertInto('referral_codes').values({ user_id: userId, code: drawCode(), created_at: new Date(this.now()).toISOString() }),
      ).execute();
      const made = await read();
      if (made) return made.code;
    }
    throw new Error(`could not make a referral code for user ${userId}`);
  }

  /** The owner of the code `typed` (any case, spaces around it), or null when there is none. */
  async ownerOf(typed: string): Promise<number | null> {
    const code = normalizeReferralCode(typed);
    if (code === null) return null;
    const row = await this.db.selectFrom('referral_codes').select('user_id').where('code', '=', code).executeTakeFirst();
    return row ? Number(row.user_id) : null;
  }
}
