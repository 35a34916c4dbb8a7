// @vitest-environment jsdom
// The performance settings that act on the whole page are followed live: switching memoryOptimization
// on in the customisation panel starts the 30-second cleanup at once, switching it off stops it.
import { describe, expect, it, vi } from 'vitest';
import { uiStore } from '../../sdk/client/stores/ui';
import { followPerformanceSettings } from './follow-settings';

describe('following the performance settings', () => {
  it('starts and stops the memory cleanup as memoryOptimization is switched, without a reload', () => {
    const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
    const win = {
      setInterval: vi.fn((fn: () => void, ms: number) => timers.push({ fn, ms, cleared: false })),
      clearInterval: vi.fn((id: number) => {
        timers[id - 1]!.cleared = true;
      }),
      requestAnimationFrame: window.requestAnimationFrame?.bind(window) ?? (() => 0),
      cancelAnimationFrame: window.cancelAnimationFrame?.bind(window) ?? (() => undefined),
    } as unknown as Window;
    followPerformanceSettings(win);
    // off by default (spec §9 memoryOptimization false)
    expect(timers).toHaveLength(0);
    uiStore.getState().updateSettings('performance', { memoryOptimization: true });
    expect(timers).toHaveLength(1);
    expect(timers[0]!.ms).toBe(30_000);
    uiStore.getState().updateSettings('performance', { transitionSpeed: 2 });
    expect(timers).toHaveLength(1);
    uiStore.getState().updateSettings('performance', { memoryOptimization: false });
    expect(timers[0]!.cleared).toBe(true);
  });
});
