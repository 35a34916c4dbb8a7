import { describe, expect, it } from 'vitest';
import { PAGE_TRANSITIONS, UI_SETTINGS_DEFAULTS } from '../../sdk/client/stores/ui';
import { TRANSITION_KEYFRAMES, transitionDurationMs } from './transitions';

const performance = UI_SETTINGS_DEFAULTS.performance;

describe('page transitions (spec §9)', () => {
  it('has in and out animations for each of the eight transitions', () => {
    expect(Object.keys(TRANSITION_KEYFRAMES).sort()).toEqual([...PAGE_TRANSITIONS].sort());
    for (const name of PAGE_TRANSITIONS) {
      expect(TRANSITION_KEYFRAMES[name].enter.name).toBeTruthy();
      expect(TRANSITION_KEYFRAMES[name].leave.name).not.toBe(TRANSITION_KEYFRAMES[name].enter.name);
    }
  });

  it('lasts the inverse of the speed, in seconds (4.5 by default)', () => {
    expect(transitionDurationMs(performance)).toBe(222);
    expect(transitionDurationMs({ ...performance, transitionSpeed: 0.5 })).toBe(2000);
    expect(transitionDurationMs({ ...performance, transitionSpeed: 5 })).toBe(200);
  });

  it('does not animate with reduced motion or animations off', () => {
    expect(transitionDurationMs({ ...performance, reduceMotion: true })).toBe(0);
    expect(transitionDurationMs({ ...performance, disableAnimations: true })).toBe(0);
  });
});
