// A department's opening hours: one interval per weekday (or closed that day), as wall-clock times
// in one IANA time zone. The shape, in the API and in the database (JSON):
//   { "time_zone": "Europe/Bucharest",
//     "days": { "mon": { "from": "09:00", "to": "17:00" }, …, "sat": null, "sun": null } }
// `from` is 00:00–23:59, `to` 00:01–24:00 (24:00: until midnight) and later than `from`; a day
// open past midnight is written as two days (…–24:00, then 00:00–…). No hours at all (null) means
// the department states none. Browser-safe: the API checks with it and the pages show with it.

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface DayHours {
  from: string;
  to: string;
}

export interface OpeningHours {
  time_zone: string;
  days: Record<Weekday, DayHours | null>;
}

export const HOURS_LIMITS = { timeZoneMaxLength: 64, noteMaxLength: 255 } as const;
/** a start time, HH:MM */
export const FROM_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
/** an end time, HH:MM or 24:00 */
export const TO_PATTERN = '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$';
/** an IANA zone name ("Europe/Bucharest", "UTC", "Etc/GMT+3"); Intl decides whether it exists */
export const TIME_ZONE_PATTERN = '^[A-Za-z][A-Za-z0-9_+\\-]*(/[A-Za-z0-9_+\\-]+)*$';

const FROM = new RegExp(FROM_PATTERN);
const TO = new RegExp(TO_PATTERN);
const ZONE = new RegExp(TIME_ZONE_PATTERN);

/** Minutes after midnight of an HH:MM text (24:00 is 1440). */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** Whether `name` is a zone Intl knows (stored as written: engines disagree on canonical names). */
export function isTimeZone(name: string): boolean {
  if (name.length > HOURS_LIMITS.timeZoneMaxLength || !ZONE.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export interface HoursProblem {
  /** the field it concerns: hours.time_zone or hours.days.<weekday> */
  field: string;
  code: 'UNKNOWN_TIME_ZONE' | 'BAD_HOURS';
}

/** The first thing wrong with `hours` (an unknown zone, a malformed time, `from` not before `to`), or null. */
export function hoursProblem(hours: OpeningHours): HoursProblem | null {
  if (!isTimeZone(hours.time_zone)) return { field: 'hours.time_zone', code: 'UNKNOWN_TIME_ZONE' };
  for (const day of WEEKDAYS) {
    const span = hours.days[day];
    if (span === null) continue;
    if (!FROM.test(span.from) || !TO.test(span.to) || minutesOf(span.from) >= minutesOf(span.to)) return { field: `hours.days.${day}`, code: 'BAD_HOURS' };
  }
  return null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The weekday and minute of the day it is at `now` in `timeZone`. */
export function wallClock(timeZone: string, now: number): { day: Weekday; minutes: number } {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
  const day = WEEKDAYS.find((d) => d === String(parts.weekday).slice(0, 3).toLowerCase()) ?? 'mon';
  return { day, minutes: (Number(parts.hour) % 24) * 60 + Number(parts.minute) };
}

export type OpeningState =
  | { open: true /** HH:MM, in the department's zone */; closes: string }
  /** opens: the next opening (in_days: 0 today, 1 tomorrow … 7 the same weekday next week), null: never */
  | { open: false; opens: { day: Weekday; time: string; in_days: number } | null };

/** Whether the department is open at `now`, and if not, when it opens next. */
export function openingState(hours: OpeningHours, now: number): OpeningState {
  const { day, minutes } = wallClock(hours.time_zone, now);
  const today = WEEKDAYS.indexOf(day);
  const span = hours.days[day];
  if (span && minutesOf(span.from) <= minutes && minutes < minutesOf(span.to)) {
    // open until midnight, and the next day opens at 00:00: say when it really closes
    let closes = span.to;
    for (let k = 1; k < 7 && closes === '24:00'; k++) {
      const next = hours.days[WEEKDAYS[(today + k) % 7]];
      if (!next || next.from !== '00:00') break;
      closes = next.to;
    }
    return { open: true, closes: closes === '24:00' ? '00:00' : closes };
  }
  for (let k = 0; k <= 7; k++) {
    const name = WEEKDAYS[(today + k) % 7];
    const next = hours.days[name];
    if (next && (k > 0 || minutes < minutesOf(next.from))) return { open: false, opens: { day: name, time: next.from, in_days: k } };
  }
  return { open: false, opens: null };
}

export interface HoursRange {
  first: Weekday;
  last: Weekday;
  from: string;
  to: string;
}

/** The open days grouped into runs with the same hours (Mon–Fri 09:00–17:00, Sat 10:00–14:00), for a short summary. */
export function hoursRanges(hours: OpeningHours): HoursRange[] {
  const out: HoursRange[] = [];
  for (const day of WEEKDAYS) {
    const span = hours.days[day];
    if (!span) continue;
    const last = out[out.length - 1];
    if (last && last.from === span.from && last.to === span.to && WEEKDAYS.indexOf(last.last) === WEEKDAYS.indexOf(day) - 1) last.last = day;
    else out.push({ first: day, last: day, from: span.from, to: span.to });
  }
  return out;
}

/** A week open every weekday 09:00–17:00 in `timeZone`: where the form starts when hours are first added. */
export function officeHours(timeZone: string): OpeningHours {
  const weekday = () => ({ from: '09:00', to: '17:00' });
  return { time_zone: timeZone, days: { mon: weekday(), tue: weekday(), wed: weekday(), thu: weekday(), fri: weekday(), sat: null, sun: null } };
}
