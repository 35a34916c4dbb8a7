// A department's opening hours in the reader's language: the short week ("Mon–Fri 09:00–17:00,
// Sat 10:00–14:00") and whether it is open now ("Open now — until 17:00", "Closed — opens Monday
// 09:00"), always in the department's own time zone, which is named beside them.
import { Badge, theme, useTranslation } from '@orepanel/sdk';
import { useEffect, useState } from 'react';
import { hoursRanges, openingState, type OpeningHours, type OpeningState } from '../shared/opening-hours';

/** The short week, e.g. "Mon–Fri 09:00–17:00, Sat 10:00–14:00"; "" when closed every day. */
export function useHoursSummary(): (hours: OpeningHours) => string {
  const { t } = useTranslation('tickets');
  return (hours) =>
    hoursRanges(hours)
      .map(({ first, last, from, to }) => {
        const days = first === last ? t(`hours.short.${first}`) : t('hours.dayRange', { first: t(`hours.short.${first}`), last: t(`hours.short.${last}`) });
        return t('hours.span', { days, from, to: to === '24:00' ? '00:00' : to });
      })
      .join(', ');
}

/** "Open now — until 17:00", "Closed — opens tomorrow at 09:00", … */
export function useOpeningStateText(): (state: OpeningState) => string {
  const { t } = useTranslation('tickets');
  return (state) => {
    if (state.open) return t('hours.openUntil', { time: state.closes });
    if (!state.opens) return t('hours.closed');
    const { day, time, in_days } = state.opens;
    if (in_days === 0) return t('hours.opensToday', { time });
    if (in_days === 1) return t('hours.opensTomorrow', { time });
    return t('hours.opensOn', { day: t(`hours.days.${day}`), time });
  };
}

/** The time now, moved on every minute while shown, so "open now" changes when the hour comes. */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The hours of one department as the customer sees them beside the form: state, week, zone, note. */
export function DepartmentHours({ hours, note }: { hours: OpeningHours | null; note: string }) {
  const { t } = useTranslation('tickets');
  const summary = useHoursSummary();
  const stateText = useOpeningStateText();
  const now = useMinuteClock();
  if (!hours && !note) return null;
  const state = hours ? openingState(hours, now) : null;
  const week = hours ? summary(hours) : '';
  return (
    <section
      aria-label={t('hours.title')}
      css={{
        display: 'grid',
        gap: 6,
        padding: 12,
        borderRadius: theme.radii.md,
        border: `1px solid ${theme.colors.border}`,
        background: theme.colors.surface,
        minWidth: 0,
      }}
    >
      {state && (
        <div>
          <Badge tone={state.open ? 'success' : 'warning'}>{stateText(state)}</Badge>
        </div>
      )}
      {hours && (
        <p css={{ margin: 0, color: theme.colors.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>
          {week || t('hours.closedEveryDay')} · {t('hours.zone', { zone: hours.time_zone })}
        </p>
      )}
      {note && <p css={{ margin: 0, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>{note}</p>}
      {state && !state.open && <p css={{ margin: 0, fontSize: theme.font.size.sm, color: theme.colors.muted }}>{t('hours.outsideHours')}</p>}
    </section>
  );
}
