// What the dashboard's stat cards show, computed from the session's billing and stats. Numbers are
// formatted by i18next's number formatter in the current language (the units live in the catalogue).
import type { IconName, SessionBilling, SessionStats } from '@orepanel/sdk';
import type { TFunction } from 'i18next';

export interface DashboardStat {
  id: string;
  label: string;
  value: string;
  icon: IconName;
  hint?: string;
}

const MIB_PER_GIB = 1024;
const MINUTES_PER_HOUR = 60;

/** Memory and disk arrive in MiB: 1 GiB and more reads better in GiB, with the exact MiB as a hint. */
export function sizeStat(t: TFunction, mib: number): { value: string; hint?: string } {
  if (mib < MIB_PER_GIB) return { value: t('units.mib', { value: mib }) };
  return { value: t('units.gib', { value: mib / MIB_PER_GIB }), hint: t('units.mib', { value: mib }) };
}

/** AFK time arrives in minutes: an hour and more reads as "3 h 20 min". */
export function durationText(t: TFunction, minutes: number): string {
  const whole = Math.max(0, Math.floor(minutes));
  if (whole < MINUTES_PER_HOUR) return t('units.minutes', { value: whole });
  return t('units.hours', { hours: Math.floor(whole / MINUTES_PER_HOUR), minutes: whole % MINUTES_PER_HOUR });
}

/** Coins first, then what the customer did: servers, AFK time, referrals. */
export function activityStats(t: TFunction, billing: SessionBilling | null, stats: SessionStats | null): DashboardStat[] {
  const out: DashboardStat[] = [];
  if (billing) out.push({ id: 'coins', label: t('stats.coins'), value: t('units.count', { value: billing.coins }), icon: 'coins', hint: t('stats.coinsHint') });
  if (stats) {
    out.push(
      { id: 'servers', label: t('stats.servers'), value: t('units.count', { value: stats.servers }), icon: 'server' },
      { id: 'minutes_afk', label: t('stats.minutesAfk'), value: durationText(t, stats.minutes_afk), icon: 'clock' },
      { id: 'referrals', label: t('stats.referrals'), value: t('units.count', { value: stats.referrals }), icon: 'users' },
    );
  }
  return out;
}

/** The resource limits the customer owns and can give to servers. */
export function resourceStats(t: TFunction, billing: SessionBilling): DashboardStat[] {
  return [
    { id: 'ram', label: t('stats.ram'), icon: 'ram', ...sizeStat(t, billing.ram) },
    { id: 'disk', label: t('stats.disk'), icon: 'disk', ...sizeStat(t, billing.disk) },
    { id: 'cpu', label: t('stats.cpu'), icon: 'cpu', value: t('units.percent', { value: billing.cpu }) },
    { id: 'ports', label: t('stats.ports'), icon: 'plug', value: t('units.count', { value: billing.ports }) },
    { id: 'databases', label: t('stats.databases'), icon: 'database', value: t('units.count', { value: billing.databases }) },
    { id: 'backups', label: t('stats.backups'), icon: 'archive', value: t('units.count', { value: billing.backups }) },
    { id: 'server_slots', label: t('stats.serverSlots'), icon: 'server', value: t('units.count', { value: billing.server_slots }) },
  ];
}
