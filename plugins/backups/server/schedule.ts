// The daily backup: the job backups.schedule (on the health page) wakes every few minutes and makes a
// scheduled archive when the day's slot — backup_schedule_hour:00 UTC — has passed without one (so a
// panel that was down at that hour catches up when it starts), then removes what the retention no
// longer keeps. Time is the panel's clock, so tests move days by hand. Several instances never make
// two: the archive job holds a lease shared by every instance, and the slot is checked again once it
// is held.
import type { PanelBackup, ServerPluginContext, SettingValue } from '@orepanel/sdk/server';
import { expiredArchives, utcDay } from './retention';

export const SCHEDULE_JOB = 'schedule';
/** how often the schedule looks whether the day's archive is due */
export const SCHEDULE_EVERY_MS = 5 * 60_000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** a whole number within [min, max], or the fallback for anything else */
export function wholeSetting(value: SettingValue, min: number, max: number, fallback: number): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? Math.min(max, Math.max(min, Math.floor(number))) : fallback;
}

/** the latest `hour`:00 UTC at or before `now` */
export function lastSlot(now: number, hour: number): number {
  const date = new Date(now);
  const today = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), hour);
  return today <= now ? today : today - DAY_MS;
}

export interface ScheduleSettings {
  enabled: boolean;
  hour: number;
  keepDaily: number;
  keepWeekly: number;
}

export async function scheduleSettings(ctx: ServerPluginContext): Promise<ScheduleSettings> {
  const values = await ctx.settings.getMany(['backup_schedule_enabled', 'backup_schedule_hour', 'backup_keep_daily', 'backup_keep_weekly']);
  return {
    enabled: values.backup_schedule_enabled === true || values.backup_schedule_enabled === 'true',
    hour: wholeSetting(values.backup_schedule_hour, 0, 23, 3),
    keepDaily: wholeSetting(values.backup_keep_daily, 1, 366, 7),
    keepWeekly: wholeSetting(values.backup_keep_weekly, 0, 260, 4),
  };
}

/** true when no scheduled archive was made since the slot before `now` */
export async function scheduledArchiveDue(archives: PanelBackup, now: number, hour: number): Promise<boolean> {
  const slot = lastSlot(now, hour);
  return !(await archives.list()).some((archive) => archive.kind === 'scheduled' && Date.parse(archive.createdAt) >= slot);
}

/** Removes the scheduled and before-restore archives the retention no longer keeps; returns their names. */
export async function applyRetention(ctx: ServerPluginContext, archives: PanelBackup, settings: ScheduleSettings): Promise<string[]> {
  const expired = expiredArchives(await archives.list(), { keepDaily: settings.keepDaily, keepWeekly: settings.keepWeekly, now: ctx.clock.now() });
  const removed: string[] = [];
  for (const name of expired) {
    try {
      if (await archives.remove(name)) removed.push(name);
    } catch (error) {
      ctx.log.warn({ err: error, archive: name }, 'backups: the retention could not remove an archive');
    }
  }
  return removed;
}

/** for the health page: when the next slot comes */
export function nextSlotText(now: number, hour: number): string {
  const next = lastSlot(now, hour) + DAY_MS;
  return `${utcDay(next)} ${String(hour).padStart(2, '0')}:00 UTC`;
}
