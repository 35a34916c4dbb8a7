// A line chart of counts per day, drawn as SVG (no chart library: two lines, gridlines and a few
// labels are all it needs). The numbers are also in a table that screen readers read instead.
import { theme, useTranslation, VisuallyHidden } from '@orepanel/sdk';
import { useId } from 'react';
import { polylinePoints, xAt, yAt, yAxis, type PlotArea } from './chart-geometry';

export interface ChartSeries {
  id: string;
  label: string;
  color: string;
  values: readonly number[];
}

export interface DailyChartProps {
  /** what the chart shows, for screen readers */
  title: string;
  /** YYYY-MM-DD, oldest first; one value per date in every series */
  dates: readonly string[];
  series: readonly ChartSeries[];
}

const WIDTH = 640;
const HEIGHT = 220;
const AREA: PlotArea = { left: 40, top: 12, width: WIDTH - 56, height: HEIGHT - 44 };

export function DailyChart({ title, dates, series }: DailyChartProps) {
  const { t } = useTranslation('admin-dashboard');
  const titleId = useId();
  const axis = yAxis(series.flatMap((s) => s.values));
  const dayLabel = (date: string) => t('dashboard.analytics.day', { value: new Date(`${date}T00:00:00Z`) });
  // first, middle and last day: enough to read the time axis on a phone
  const labelled = [...new Set([0, Math.floor((dates.length - 1) / 2), dates.length - 1])].filter((i) => i >= 0);
  return (
    <figure css={{ margin: 0, display: 'grid', gap: 8 }}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} css={{ width: '100%', height: 'auto', display: 'block' }}>
        <title id={titleId}>{title}</title>
        {axis.ticks.map((tick) => {
          const y = yAt(tick, axis.top, AREA);
          return (
            <g key={tick}>
              <line x1={AREA.left} x2={AREA.left + AREA.width} y1={y} y2={y} stroke={theme.colors.border} strokeWidth={1} />
              <text x={AREA.left - 8} y={y + 4} textAnchor="end" fontSize={11} fill={theme.colors.subtle}>
                {tick}
              </text>
            </g>
          );
        })}
        {labelled.map((i) => (
          <text
            key={i}
            x={xAt(i, dates.length, AREA)}
            y={HEIGHT - 8}
            textAnchor={i === 0 ? 'start' : i === dates.length - 1 ? 'end' : 'middle'}
            fontSize={11}
            fill={theme.colors.subtle}
          >
            {dayLabel(dates[i])}
          </text>
        ))}
        {series.map((s) => (
          <g key={s.id} data-series={s.id}>
            <polyline points={polylinePoints(s.values, axis.top, AREA)} fill="none" stroke={s.color} strokeWidth={2.5} strokeLinejoin="round" strokeLinecap="round" />
            {s.values.map((v, i) => (
              <circle key={dates[i]} cx={xAt(i, s.values.length, AREA)} cy={yAt(v, axis.top, AREA)} r={3} fill={s.color}>
                <title>{`${dayLabel(dates[i])}: ${s.label} ${v}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      <figcaption css={{ display: 'flex', flexWrap: 'wrap', gap: 16, fontSize: theme.font.size.sm, color: theme.colors.muted }}>
        {series.map((s) => (
          <span key={s.id} css={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
            <span aria-hidden="true" css={{ width: 12, height: 3, borderRadius: 2, background: s.color }} />
            {s.label}
          </span>
        ))}
      </figcaption>
      <VisuallyHidden>
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{t('dashboard.analytics.date')}</th>
              {series.map((s) => (
                <th key={s.id} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {dates.map((date, i) => (
              <tr key={date}>
                <th scope="row">{dayLabel(date)}</th>
                {series.map((s) => (
                  <td key={s.id}>{s.values[i]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </figure>
  );
}
