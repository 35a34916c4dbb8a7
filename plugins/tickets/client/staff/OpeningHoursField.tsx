// The opening hours of a department as a weekly grid: per weekday open or closed and from–to
// (HH:MM, 24:00 for "until midnight"), in one time zone. Each input is named like the API's fields
// (hours.time_zone, hours.days.mon, hours.days.mon.from…) so a refusal from the server lands on it.
import { Checkbox, Select, TextField, theme, useTranslation } from '@orepanel/sdk';
import { useMemo } from 'react';
import { FROM_PATTERN, minutesOf, officeHours, TO_PATTERN, WEEKDAYS, type DayHours, type OpeningHours, type Weekday } from '../../shared/opening-hours';

const FROM = new RegExp(FROM_PATTERN);
const TO = new RegExp(TO_PATTERN);

/** The problem of one open day (an i18n key), or null. */
export function dayProblem(span: DayHours): string | null {
  if (!FROM.test(span.from) || !TO.test(span.to)) return 'hours.form.badTime';
  return minutesOf(span.from) < minutesOf(span.to) ? null : 'hours.form.fromAfterTo';
}

/** The browser's own zone: where new hours start. */
function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every zone the browser knows (a native select: fine on phones), with the chosen one kept in. */
function zoneOptions(current: string): { value: string; label: string }[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = [...new Set([current, 'UTC', ...zones])].sort((a, b) => a.localeCompare(b));
  return all.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') }));
}

export interface OpeningHoursFieldProps {
  value: OpeningHours | null;
  onChange(value: OpeningHours | null): void;
}

export function OpeningHoursField({ value, onChange }: OpeningHoursFieldProps) {
  const { t } = useTranslation('tickets');
  const zones = useMemo(() => zoneOptions(value?.time_zone ?? 'UTC'), [value?.time_zone]);
  const setDay = (day: Weekday, span: DayHours | null) => value && onChange({ ...value, days: { ...value.days, [day]: span } });

  return (
    <fieldset css={{ border: 0, margin: 0, padding: 0, display: 'grid', gap: 10, minWidth: 0 }}>
      <legend css={{ fontWeight: 600, marginBottom: 4 }}>{t('hours.form.legend')}</legend>
      <Checkbox
        label={t('hours.form.state')}
        name="hours"
        checked={value !== null}
        hint={t('hours.form.stateHint')}
        onChange={(checked) => onChange(checked ? officeHours(browserZone()) : null)}
      />
      {value && (
        <>
          <Select
            label={t('hours.form.timeZone')}
            name="hours.time_zone"
            value={value.time_zone}
            options={zones}
            hint={t('hours.form.timeZoneHint')}
            onChange={(zone) => onChange({ ...value, time_zone: zone })}
          />
          <div role="group" aria-label={t('hours.form.week')} css={{ display: 'grid', gap: 8 }}>
            {WEEKDAYS.map((day) => {
              const span = value.days[day];
              const problem = span ? dayProblem(span) : null;
              const dayName = t(`hours.days.${day}`);
              return (
                <div
                  key={day}
                  data-day={day}
                  css={{
                    display: 'grid',
                    gap: 8,
                    alignItems: 'end',
                    padding: 8,
                    borderRadius: theme.radii.md,
                    border: `1px solid ${theme.colors.border}`,
                    // phones: the day and its switch on one line, the two times below
                    gridTemplateColumns: '1fr 1fr',
                    [theme.breakpoints.md]: { gridTemplateColumns: '140px 120px minmax(0, 1fr) minmax(0, 1fr)' },
                  }}
                >
                  <strong css={{ alignSelf: 'center' }}>{dayName}</strong>
                  <Checkbox
                    label={t('hours.form.open')}
                    name={`hours.days.${day}`}
                    aria-label={t('hours.form.openOn', { day: dayName })}
                    checked={span !== null}
                    onChange={(checked) => setDay(day, checked ? { from: '09:00', to: '17:00' } : null)}
                  />
                  {span ? (
                    <>
                      <TextField
                        label={t('hours.form.from')}
                        aria-label={t('hours.form.fromOn', { day: dayName })}
                        name={`hours.days.${day}.from`}
                        value={span.from}
                        onChange={(from) => setDay(day, { ...span, from: from.trim() })}
                        inputMode="numeric"
                        placeholder="09:00"
                        maxLength={5}
                        autoComplete="off"
                      />
                      <TextField
                        label={t('hours.form.to')}
                        aria-label={t('hours.form.toOn', { day: dayName })}
                        name={`hours.days.${day}.to`}
                        value={span.to}
                        onChange={(to) => setDay(day, { ...span, to: to.trim() })}
                        inputMode="numeric"
                        placeholder="17:00"
                        maxLength={5}
                        autoComplete="off"
                        error={problem ? t(problem) : undefined}
                      />
                    </>
                  ) : (
                    <span css={{ color: theme.colors.muted, gridColumn: 'span 2', alignSelf: 'center' }}>{t('hours.form.closed')}</span>
                  )}
                </div>
              );
            })}
          </div>
          <p css={{ margin: 0, opacity: 0.8, fontSize: theme.font.size.sm }}>{t('hours.form.timesHint')}</p>
        </>
      )}
    </fieldset>
  );
}
