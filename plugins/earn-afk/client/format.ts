// Times as the AFK page shows them.
import { i18n } from '@orepanel/sdk';

const pad = (n: number) => String(n).padStart(2, '0');

/** 83 → "1:23" (a countdown). */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** 3723 → "1:02:03", 83 → "0:01:23" (time spent earning). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** An epoch-ms moment as a time of day in UTC, the clock the daily cap follows ("00:00 UTC"). */
export function formatUtcTime(ms: number, language: string = i18n.language): string {
  try {
    return new Intl.DateTimeFormat(language === 'md' ? 'ro-MD' : language, { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' }).format(new Date(ms)) + ' UTC';
  } catch {
    return new Date(ms).toISOString().slice(11, 16) + ' UTC';
  }
}
