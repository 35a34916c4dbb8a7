// The redeem code form's values, checks and what it sends. The server's schema stays the authority;
// these checks only spare a round trip and put the message next to the field.
import { changedFields } from '@orepanel/sdk';
import { CODE_PATTERN, REDEEM_CODE_LIMITS } from '../../shared/code-rules';
import type { RedeemCode } from '../api';

export interface CodeFormValues {
  code: string;
  coins: string;
  uses: string;
  enabled: boolean;
  /** a datetime-local value (the administrator's own clock), '' for never */
  expires: string;
}

export type CodeFormProblems = Partial<Record<keyof CodeFormValues, string>>;

export interface CodeBody {
  code?: string;
  coins?: number;
  uses?: number;
  enabled?: boolean;
  expires_at?: string | null;
}

// reference: a code allows one use unless told otherwise
export const EMPTY_CODE_FORM: CodeFormValues = { code: '', coins: '', uses: '1', enabled: true, expires: '' };

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as a datetime-local value in this browser's time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (read as local time, as the browser shows it) as an ISO instant; null for ''. */
export function fromLocalInput(text: string): string | null {
  if (text.trim() === '') return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function formValuesOf(code: RedeemCode): CodeFormValues {
  return { code: code.code, coins: String(code.coins), uses: String(code.uses), enabled: code.enabled, expires: toLocalInput(code.expires_at) };
}

function wholeNumber(text: string, max: number): 'validation.required' | 'validation.range' | null {
  if (text.trim() === '') return 'validation.required';
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= max ? null : 'validation.range';
}

/** i18n keys (earn-redeem namespace) of the problems, per field. `now` decides whether an expiry is past. */
export function checkCodeForm(values: CodeFormValues, now: Date, initialExpires: string | null = null): CodeFormProblems {
  const problems: CodeFormProblems = {};
  const code = values.code.trim();
  if (code === '') problems.code = 'validation.required';
  else if (!CODE_PATTERN.test(code)) problems.code = 'validation.codeFormat';
  const coins = wholeNumber(values.coins, REDEEM_CODE_LIMITS.maxCoins);
  if (coins) problems.coins = coins;
  const uses = wholeNumber(values.uses, REDEEM_CODE_LIMITS.maxUses);
  if (uses) problems.uses = uses;
  // an unchanged expiry may lie in the past (editing the coins of an expired code is fine)
  if (values.expires !== '' && values.expires !== initialExpires) {
    const iso = fromLocalInput(values.expires);
    if (iso === null) problems.expires = 'validation.date';
    else if (Date.parse(iso) <= now.getTime()) problems.expires = 'validation.future';
  }
  return problems;
}

/** What to send: every field for a new code, only the changed ones for an existing one. */
export function codeBody(before: CodeFormValues | null, values: CodeFormValues): CodeBody {
  const sent = (v: CodeFormValues): Required<CodeBody> => ({
    code: v.code.trim(),
    coins: Number(v.coins),
    uses: Number(v.uses),
    enabled: v.enabled,
    expires_at: fromLocalInput(v.expires),
  });
  return changedFields(before && sent(before), sent(values));
}
