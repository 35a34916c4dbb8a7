// ctx.clock: the panel's time source. Production uses the system clock; tests hand buildApp a clock
// they move by hand (tests/fixtures/manual-clock.ts), so rules measured in minutes run in milliseconds.
import type { PluginClock } from '../../sdk/server';

export type Clock = PluginClock;

export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout(run: () => void, ms: number) {
    const timer = setTimeout(run, Math.max(0, ms));
    // a pending timer never keeps a stopping process alive
    timer.unref();
    return () => clearTimeout(timer);
  },
});
