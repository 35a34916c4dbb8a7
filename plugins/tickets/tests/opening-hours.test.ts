// The opening-hours rules the API checks with and the pages show with: zones known to Intl, from
// before to, "open now" and the next opening in the department's own zone (across DST and midnight),
// and the short summary of runs of days.
import { describe, expect, it } from 'vitest';
import { hoursProblem, hoursRanges, isTimeZone, officeHours, openingState, wallClock, type OpeningHours } from '../shared/opening-hours';

const week = (zone: string, days: Partial<OpeningHours['days']>): OpeningHours => ({
  time_zone: zone,
  days: { mon: null, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null, ...days },
});

describe('opening hours', () => {
  it('knows IANA zones and refuses anything else', () => {
    for (const zone of ['Europe/Bucharest', 'UTC', 'America/Argentina/Buenos_Aires', 'Etc/GMT+3', 'Europe/Chisinau']) expect(isTimeZone(zone), zone).toBe(true);
    for (const bad of ['Mars/Olympus', '', '+01:00', 'Europe/', '../etc', 'x'.repeat(65), 'Europe/Bucharest\u0000']) expect(isTimeZone(bad), bad).toBe(false);
  });

  it('names the field of the first problem: an unknown zone, a malformed time, from not before to', () => {
    expect(hoursProblem(officeHours('Europe/Paris'))).toBeNull();
    expect(hoursProblem(week('Nowhere/Land', {}))).toEqual({ field: 'hours.time_zone', code: 'UNKNOWN_TIME_ZONE' });
    expect(hoursProblem(week('UTC', { wed: { from: '17:00', to: '09:00' } }))).toEqual({ field: 'hours.days.wed', code: 'BAD_HOURS' });
    expect(hoursProblem(week('UTC', { fri: { from: '09:00', to: '09:00' } }))).toEqual({ field: 'hours.days.fri', code: 'BAD_HOURS' });
    expect(hoursProblem(week('UTC', { mon: { from: '24:00', to: '24:00' } }))?.field).toBe('hours.days.mon');
    expect(hoursProblem(week('UTC', { mon: { from: '9:00', to: '17:00' } }))?.field).toBe('hours.days.mon');
    expect(hoursProblem(week('UTC', { sun: { from: '00:00', to: '24:00' } }))).toBeNull();
  });

  it('reads the wall clock in the department’s zone, summer time included', () => {
    // 2030-07-01 is a Monday; Bucharest is UTC+3 in summer, New York UTC-4
    expect(wallClock('Europe/Bucharest', Date.parse('2030-07-01T06:30:00Z'))).toEqual({ day: 'mon', minutes: 9 * 60 + 30 });
    expect(wallClock('America/New_York', Date.parse('2030-07-01T02:00:00Z'))).toEqual({ day: 'sun', minutes: 22 * 60 });
    // in winter Bucharest is UTC+2
    expect(wallClock('Europe/Bucharest', Date.parse('2030-01-07T06:30:00Z'))).toEqual({ day: 'mon', minutes: 8 * 60 + 30 });
  });

  it('says whether it is open now and, if not, when it opens next', () => {
    const office = officeHours('Europe/Bucharest');
    const at = (iso: string) => openingState(office, Date.parse(iso));
    // Monday 09:30 local
    expect(at('2030-07-01T06:30:00Z')).toEqual({ open: true, closes: '17:00' });
    // Monday 08:30 local: opens today
    expect(at('2030-07-01T05:30:00Z')).toEqual({ open: false, opens: { day: 'mon', time: '09:00', in_days: 0 } });
    // Monday 17:00 local: the end is not included; opens tomorrow
    expect(at('2030-07-01T14:00:00Z')).toEqual({ open: false, opens: { day: 'tue', time: '09:00', in_days: 1 } });
    // Friday evening: opens on Monday, three days on
    expect(at('2030-07-05T18:00:00Z')).toEqual({ open: false, opens: { day: 'mon', time: '09:00', in_days: 3 } });
    // only Mondays, and Monday's hours are over: the same weekday next week
    const mondays = week('UTC', { mon: { from: '10:00', to: '12:00' } });
    expect(openingState(mondays, Date.parse('2030-07-01T13:00:00Z'))).toEqual({ open: false, opens: { day: 'mon', time: '10:00', in_days: 7 } });
    // never open
    expect(openingState(week('UTC', {}), Date.parse('2030-07-01T13:00:00Z'))).toEqual({ open: false, opens: null });
  });

  it('runs an evening on into the next day’s 00:00 opening when saying when it closes', () => {
    const late = week('UTC', { fri: { from: '20:00', to: '24:00' }, sat: { from: '00:00', to: '02:00' } });
    expect(openingState(late, Date.parse('2030-07-05T23:00:00Z'))).toEqual({ open: true, closes: '02:00' });
    expect(openingState(late, Date.parse('2030-07-06T01:00:00Z'))).toEqual({ open: true, closes: '02:00' });
    const allDay = week('UTC', { mon: { from: '00:00', to: '24:00' } });
    expect(openingState(allDay, Date.parse('2030-07-01T12:00:00Z'))).toEqual({ open: true, closes: '00:00' });
  });

  it('groups runs of days with the same hours for the short summary', () => {
    const hours = week('UTC', {
      mon: { from: '09:00', to: '17:00' },
      tue: { from: '09:00', to: '17:00' },
      wed: { from: '09:00', to: '17:00' },
      thu: { from: '09:00', to: '13:00' },
      sat: { from: '09:00', to: '13:00' },
    });
    expect(hoursRanges(hours)).toEqual([
      { first: 'mon', last: 'wed', from: '09:00', to: '17:00' },
      { first: 'thu', last: 'thu', from: '09:00', to: '13:00' },
      { first: 'sat', last: 'sat', from: '09:00', to: '13:00' },
    ]);
    expect(hoursRanges(week('UTC', {}))).toEqual([]);
  });
});
