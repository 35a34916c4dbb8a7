// Which archives the schedule removes. Only what the panel made on its own goes by itself:
// - scheduled archives: the newest of each of the last `keepDaily` days that have one, and the newest
//   of each of the last `keepWeekly` ISO weeks that have one (an archive may count for both), as
//   restic's --keep-daily / --keep-weekly count them. Periods are counted among the days and weeks that
//   hold an archive, not on the calendar, so a panel that was off for a month (or whose schedule was
//   switched off) keeps its last archives instead of losing them all to the calendar.
// - before-restore archives: kept BEFORE_RESTORE_KEEP_DAYS days, and the newest one always (it is the
//   way back from the last restore, however long ago that was).
// - manual and imported archives are never removed by the schedule: an administrator made or fetched
//   them on purpose, and removes them on purpose.
// An archive whose time cannot be read is kept: nothing is removed on a guess.
import type { LocalBackup } from '@orepanel/sdk/server';

export const BEFORE_RESTORE_KEEP_DAYS = 30;

const DAY_MS = 86_400_000;

export interface RetentionRule {
  keepDaily: number;
  keepWeekly: number;
  /** milliseconds since the epoch (the panel's clock) */
  now: number;
}

/** `YYYY-MM-DD` of a UTC time */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `YYYY-Www` of the ISO 8601 week a UTC time falls in (weeks start on Monday; week 1 holds the year's first Thursday) */
export function isoWeek(ms: number): string {
  const date = new Date(ms);
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  // the Thursday of this week decides the ISO year
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / DAY_MS + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** the newest archive of each of the first `count` periods (newest first) that hold one */
function newestPerPeriod(archives: readonly { name: string; at: number }[], count: number, period: (ms: number) => string): Set<string> {
  const kept = new Set<string>();
  const seen = new Set<string>();
  for (const archive of archives) {
    if (seen.size >= count) break;
    const key = period(archive.at);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.add(archive.name);
  }
  return kept;
}

/** The names of the archives the rule removes, oldest first. */
export function expiredArchives(archives: readonly LocalBackup[], rule: RetentionRule): string[] {
  const timed = archives
    .map((archive) => ({ name: archive.name, kind: archive.kind, at: Date.parse(archive.createdAt) }))
    .filter((archive) => Number.isFinite(archive.at))
    .sort((a, b) => b.at - a.at || (a.name < b.name ? 1 : -1));

  const scheduled = timed.filter((archive) => archive.kind === 'scheduled');
  const keep = new Set([...newestPerPeriod(scheduled, Math.max(1, rule.keepDaily), utcDay), ...newestPerPeriod(scheduled, Math.max(0, rule.keepWeekly), isoWeek)]);
  const expired = scheduled.filter((archive) => !keep.has(archive.name));

  const beforeRestore = timed.filter((archive) => archive.kind === 'before-restore');
  const oldest = rule.now - BEFORE_RESTORE_KEEP_DAYS * DAY_MS;
  expired.push(...beforeRestore.slice(1).filter((archive) => archive.at < oldest));

  return expired.sort((a, b) => a.at - b.at).map((archive) => archive.name);
}
