// A clock tests move by hand (ctx.clock of a test panel): time stands still until advance(), which
// fires every timer that falls due, in time order, with now() set to that timer's moment — so rules
// measured in minutes run in milliseconds, and deterministically.
import type { PluginClock } from '../server/time';

interface Timer {
  at: number;
  seq: number;
  run: () => void;
}

export class ManualClock implements PluginClock {
  private current: number;
  private seq = 0;
  private timers: Timer[] = [];

  constructor(start: number | Date) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  setTimeout(run: () => void, ms: number): () => void {
    const timer: Timer = { at: this.current + Math.max(0, ms), seq: this.seq++, run };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves time forward by `ms`, firing the timers that fall due on the way. */
  advance(ms: number): void {
    this.advanceTo(this.current + ms);
  }

  advanceTo(target: number): void {
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.run();
    }
    this.current = Math.max(this.current, target);
  }

  /** Pending timers (a test may check that nothing was left behind). */
  get pending(): number {
    return this.timers.length;
  }
}
