import { afterEach, describe, expect, it } from 'vitest';
import { applyFrameRateLimit } from './frame-limit';

/** A fake window whose frames are driven by hand at the given timestamps. */
function fakeWindow() {
  let next = 1;
  const queue = new Map<number, FrameRequestCallback>();
  const win = {
    requestAnimationFrame: (cb: FrameRequestCallback) => {
      const id = next++;
      queue.set(id, cb);
      return id;
    },
    cancelAnimationFrame: (id: number) => void queue.delete(id),
    frame(time: number) {
      const callbacks = [...queue.values()];
      queue.clear();
      for (const cb of callbacks) cb(time);
    },
  };
  return win;
}

let win = fakeWindow();
afterEach(() => applyFrameRateLimit(144, win));

describe('frame rate limit (spec §9: applies under 60)', () => {
  it('leaves the browser alone at 60 and above', () => {
    win = fakeWindow();
    const native = win.requestAnimationFrame;
    applyFrameRateLimit(75, win);
    expect(win.requestAnimationFrame).toBe(native);
  });

  it('at 30 fps runs animation callbacks at most every ~33 ms, every callback of an allowed frame together', () => {
    win = fakeWindow();
    applyFrameRateLimit(30, win);
    const ran: number[] = [];
    const loop = (time: number) => {
      ran.push(time);
      win.requestAnimationFrame(loop);
    };
    win.requestAnimationFrame(loop);
    const other: number[] = [];
    win.requestAnimationFrame((t) => other.push(t));
    for (let frame = 0; frame <= 6; frame++) win.frame(frame * 16.7);
    expect(ran.map(Math.round)).toEqual([0, 33, 67, 100]);
    expect(other).toEqual([0]);
  });

  it('cancels a limited callback', () => {
    win = fakeWindow();
    applyFrameRateLimit(45, win);
    const ran: number[] = [];
    const id = win.requestAnimationFrame((t) => ran.push(t));
    win.cancelAnimationFrame(id);
    win.frame(0);
    expect(ran).toEqual([]);
  });

  it('puts the browser functions back when the limit goes up again', () => {
    win = fakeWindow();
    const native = win.requestAnimationFrame;
    applyFrameRateLimit(30, win);
    expect(win.requestAnimationFrame).not.toBe(native);
    applyFrameRateLimit(60, win);
    expect(win.requestAnimationFrame).toBe(native);
  });
});
