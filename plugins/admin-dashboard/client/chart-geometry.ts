// The arithmetic of the analytics chart (DailyChart.tsx), apart from React so it can be tested: a
// round top for the y axis, evenly spaced gridlines, and each series' points inside the plot area.

/** The plot area inside the chart's viewBox. */
export interface PlotArea {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const GRID_STEPS = 4;

/** The smallest "round" step (1, 2 or 5 × 10ⁿ, at least 1 — the counts are whole) with steps × it ≥ `max`. */
export function niceStep(max: number, steps = GRID_STEPS): number {
  const raw = max / steps;
  if (!(raw > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/** The y axis: its top and the values of its gridlines, 0 first. */
export function yAxis(values: readonly number[], steps = GRID_STEPS): { top: number; ticks: number[] } {
  const step = niceStep(Math.max(0, ...values), steps);
  return { top: step * steps, ticks: Array.from({ length: steps + 1 }, (_, i) => i * step) };
}

/** x of the i-th of `count` days: the first at the left edge, the last at the right. */
export function xAt(index: number, count: number, area: PlotArea): number {
  return count <= 1 ? area.left + area.width / 2 : area.left + (index * area.width) / (count - 1);
}

/** y of a value on an axis that ends at `top`. */
export function yAt(value: number, top: number, area: PlotArea): number {
  return area.top + area.height - (top > 0 ? (value / top) * area.height : 0);
}

/** The SVG `points` of a polyline through the values. */
export function polylinePoints(values: readonly number[], top: number, area: PlotArea): string {
  return values.map((v, i) => `${round(xAt(i, values.length, area))},${round(yAt(v, top, area))}`).join(' ');
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
