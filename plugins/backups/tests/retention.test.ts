// The retention rule on made-up folders: the newest scheduled archive of each recent day and ISO
// week, before-restore ones for 30 days (the newest always), manual and imported ones never; and the
// daily slot of the schedule.
import { describe, expect, it } from 'vitest';
import type { BackupKind, LocalBackup } from '@orepanel/sdk/server';
import { BEFORE_RESTORE_KEEP_DAYS, expiredArchives, isoWeek, utcDay } from '../server/retention';
import { lastSlot, wholeSetting } from '../server/schedule';

const DAY = 86_400_000;
const archive = (iso: string, kind: BackupKind = 'scheduled'): LocalBackup => ({
  name: `orepanel-${iso.replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-${kind}.opbk`,
  size: 1,
  createdAt: iso,
  kind,
  panelVersion: '1.0.0',
});

describe('ISO weeks and days', () => {
  it('names the ISO week, including the weeks that straddle a new year', () => {
    expect(isoWeek(Date.parse('2026-01-01T12:00:00Z'))).toBe('2026-W01'); // a Thursday
    expect(isoWeek(Date.parse('2027-01-01T12:00:00Z'))).toBe('2026-W53'); // a Friday: the last week of 2026
    expect(isoWeek(Date.parse('2024-12-30T00:00:00Z'))).toBe('2025-W01'); // a Monday: week 1 of 2025
    expect(isoWeek(Date.parse('2026-11-22T23:59:59Z'))).toBe('2026-W47'); // a Sunday ends its week
    expect(isoWeek(Date.parse('2026-11-23T00:00:00Z'))).toBe('2026-W48');
    expect(utcDay(Date.parse('2026-11-23T23:59:59Z'))).toBe('2026-11-23');
  });
});

describe('expiredArchives', () => {
  const now = Date.parse('2026-11-30T04:00:00Z');

  it('keeps the newest scheduled archive of each of the last N days, and removes the rest oldest first', () => {
    const days = Array.from({ length: 10 }, (_, i) => archive(new Date(now - i * DAY).toISOString()));
    // a second one on the newest day: the older of the two goes
    const sameDay = archive(new Date(now - 60_000).toISOString());
    const expired = expiredArchives([...days, sameDay], { keepDaily: 7, keepWeekly: 0, now });
    expect(expired).toEqual([days[9].name, days[8].name, days[7].name, sameDay.name]);
  });

  it('keeps one a week for N weeks besides the daily ones, counting only weeks that hold an archive', () => {
    // one a day for 8 weeks
    const all = Array.from({ length: 56 }, (_, i) => archive(new Date(now - i * DAY).toISOString()));
    const kept = new Set(all.map((a) => a.name));
    for (const name of expiredArchives(all, { keepDaily: 3, keepWeekly: 4, now })) kept.delete(name);
    const keptDays = all.filter((a) => kept.has(a.name)).map((a) => a.createdAt.slice(0, 10));
    // the 3 newest days, and the newest of each of the 4 newest weeks (2026-11-30 is a Monday: its week is the newest)
    expect(keptDays).toEqual(['2026-11-30', '2026-11-29', '2026-11-28', '2026-11-22', '2026-11-15']);
    expect(new Set(all.filter((a) => kept.has(a.name)).map((a) => isoWeek(Date.parse(a.createdAt)))).size).toBe(4);
  });

  it('keeps the last archives of a panel that stopped making them, however old', () => {
    const old = [archive('2025-01-01T03:00:00Z'), archive('2025-01-02T03:00:00Z')];
    expect(expiredArchives(old, { keepDaily: 7, keepWeekly: 4, now })).toEqual([]);
  });

  it('never removes manual or imported archives, nor one whose time cannot be read', () => {
    const kept = [archive('2020-01-01T00:00:00Z', 'manual'), archive('2020-01-02T00:00:00Z', 'imported'), { ...archive('2020-01-03T00:00:00Z'), createdAt: 'not a date' }];
    expect(expiredArchives(kept, { keepDaily: 1, keepWeekly: 0, now })).toEqual([]);
  });

  it(`keeps before-restore archives ${BEFORE_RESTORE_KEEP_DAYS} days, and the newest one always`, () => {
    const recent = archive(new Date(now - 5 * DAY).toISOString(), 'before-restore');
    const old = archive(new Date(now - (BEFORE_RESTORE_KEEP_DAYS + 1) * DAY).toISOString(), 'before-restore');
    const older = archive(new Date(now - 90 * DAY).toISOString(), 'before-restore');
    expect(expiredArchives([recent, old, older], { keepDaily: 7, keepWeekly: 4, now })).toEqual([older.name, old.name]);
    // alone and old, it stays: it is the way back from the last restore
    expect(expiredArchives([old, older], { keepDaily: 7, keepWeekly: 4, now })).toEqual([older.name]);
  });

  it('keeps at least the newest scheduled archive even with a setting below one', () => {
    const two = [archive(new Date(now - DAY).toISOString()), archive(new Date(now).toISOString())];
    expect(expiredArchives(two, { keepDaily: 0, keepWeekly: 0, now })).toEqual([two[0].name]);
  });
});

describe('the daily slot', () => {
  it('is the latest hour:00 UTC at or before now', () => {
    expect(new Date(lastSlot(Date.parse('2026-11-30T04:00:00Z'), 3)).toISOString()).toBe('2026-11-30T03:00:00.000Z');
    expect(new Date(lastSlot(Date.parse('2026-11-30T03:00:00Z'), 3)).toISOString()).toBe('2026-11-30T03:00:00.000Z');
    expect(new Date(lastSlot(Date.parse('2026-11-30T02:59:59Z'), 3)).toISOString()).toBe('2026-11-29T03:00:00.000Z');
    expect(new Date(lastSlot(Date.parse('2026-03-01T00:30:00Z'), 23)).toISOString()).toBe('2026-02-28T23:00:00.000Z');
  });

  it('reads settings as bounded whole numbers, with the default for nonsense', () => {
    expect(wholeSetting(7, 1, 366, 7)).toBe(7);
    expect(wholeSetting('12', 1, 366, 7)).toBe(12);
    expect(wholeSetting(2.9, 1, 366, 7)).toBe(2);
    expect(wholeSetting(-5, 1, 366, 7)).toBe(1);
    expect(wholeSetting(10_000, 0, 23, 3)).toBe(23);
    expect(wholeSetting('x', 0, 23, 3)).toBe(3);
    expect(wholeSetting(null, 0, 23, 3)).toBe(3);
    expect(wholeSetting('', 0, 23, 3)).toBe(3);
  });
});
