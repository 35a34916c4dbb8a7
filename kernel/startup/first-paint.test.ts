// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { afterNextPaint, FIRST_PAINT_WAIT_MS, isPrerendered, PRERENDERED_ATTRIBUTE } from './first-paint';

/** A window whose frames and timers run by hand. */
function fakeWindow() {
  let now = 0;
  let nextId = 1;
  const frames: FrameRequestCallback[] = [];
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    requestAnimationFrame(fn: FrameRequestCallback) {
      frames.push(fn);
      return frames.length;
    },
    setTimeout(fn: () => void, ms = 0) {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(id: number | undefined) {
      if (id !== undefined) timers.delete(id);
    },
    /** the browser renders a frame: its animation callbacks run */
    frame() {
      for (const fn of frames.splice(0)) fn(now);
    },
    /** time passes: the timers due run */
    advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...timers]) {
        if (timer.at <= now) {
          timers.delete(id);
          timer.fn();
        }
      }
    },
  };
}

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

describe('the kernel starts after the first paint of a pre-rendered page', () => {
  it('knows a pre-rendered page by the mark the server puts on #app', () => {
    document.body.innerHTML = '<div id="app"><p>Loading…</p></div>';
    expect(isPrerendered(document)).toBe(false);
    document.getElementById('app')?.setAttribute(PRERENDERED_ATTRIBUTE, '/auth/login');
    expect(isPrerendered(document)).toBe(true);
  });

  it('waits for a frame and the task after it (the paint comes between them)', async () => {
    const win = fakeWindow();
    const painted = afterNextPaint(win as unknown as Window, { visibilityState: 'visible' });
    win.advance(0);
    expect(await settled(painted)).toBe(false);
    win.frame();
    expect(await settled(painted)).toBe(false);
    win.advance(0);
    expect(await settled(painted)).toBe(true);
  });

  it('does not wait in a hidden tab, which paints nothing', async () => {
    const win = fakeWindow();
    expect(await settled(afterNextPaint(win as unknown as Window, { visibilityState: 'hidden' }))).toBe(true);
  });

  it('starts the kernel anyway when no frame comes within the limit', async () => {
    const win = fakeWindow();
    const painted = afterNextPaint(win as unknown as Window, { visibilityState: 'visible' });
    win.advance(FIRST_PAINT_WAIT_MS - 1);
    expect(await settled(painted)).toBe(false);
    win.advance(1);
    expect(await settled(painted)).toBe(true);
  });
});
