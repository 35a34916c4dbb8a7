// The analytics chart's arithmetic: a round top for the y axis that is never below the largest count,
// whole-number gridlines, and points that fill the plot area from edge to edge.
import { describe, expect, it } from 'vitest';
import { niceStep, polylinePoints, xAt, yAt, yAxis, type PlotArea } from '../client/chart-geometry';

const AREA: PlotArea = { left: 40, top: 10, width: 600, height: 200 };

describe('chart geometry', () => {
  it('picks a step of 1, 2 or 5 × 10ⁿ, at least 1, so that four steps reach the largest value', () => {
    expect([0, 1, 3, 4, 5, 8, 9, 17, 41, 199, 1001].map((max) => niceStep(max))).toEqual([1, 1, 1, 1, 2, 2, 5, 5, 20, 50, 500]);
    for (const max of [0, 1, 7, 33, 250, 999, 12_345]) expect(niceStep(max) * 4).toBeGreaterThanOrEqual(max);
  });

  it('makes an axis from 0 to the top in even whole steps', () => {
    expect(yAxis([0, 3, 7, 2])).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(yAxis([0, 0, 0])).toEqual({ top: 4, ticks: [0, 1, 2, 3, 4] });
    expect(yAxis([])).toEqual({ top: 4, ticks: [0, 1, 2, 3, 4] });
  });

  it('spreads the days from the left edge to the right, and puts 0 on the bottom and the top at the top', () => {
    expect(xAt(0, 14, AREA)).toBe(40);
    expect(xAt(13, 14, AREA)).toBe(640);
    expect(xAt(0, 1, AREA)).toBe(340);
    expect(yAt(0, 8, AREA)).toBe(210);
    expect(yAt(8, 8, AREA)).toBe(10);
    expect(yAt(4, 8, AREA)).toBe(110);
    expect(polylinePoints([0, 4, 8], 8, AREA)).toBe('40,210 340,110 640,10');
  });
});
