// A page the server sent already rendered (issue 15) should be on screen before the kernel's code runs.
// The kernel's module (react-dom, the router, i18next, the sdk…) takes its 20 ms or so to evaluate, and
// when it arrives before the browser's first frame that frame waits for it. So on such a page the
// kernel starts once a frame has been painted, and its file is only fetched then: the server leaves the
// kernel's preload hint out of such a page (server/http/prerender.ts withoutKernelPreloads). Measured
// on the login page, loopback, cold, 21 runs alternating: the password field visible at 142 ms
// (median) with the kernel evaluated first, 123 ms with the frame first.
// Kept free of imports: this module is part of the small entry script, which loads before the kernel.

/** The attribute the server marks #app with when it holds a pre-rendered page (server/http/prerender.ts). */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';
/** Longest wait for that frame: a browser that renders nothing for a while must still get its app. */
export const FIRST_PAINT_WAIT_MS = 100;

type FrameWindow = Pick<Window, 'requestAnimationFrame' | 'setTimeout' | 'clearTimeout'>;

/** True when #app holds a page the server rendered. */
export function isPrerendered(doc: Document): boolean {
  return doc.getElementById('app')?.hasAttribute(PRERENDERED_ATTRIBUTE) ?? false;
}

/**
 * Resolves after the browser's next frame has been painted: an animation-frame callback runs just
 * before the paint, a task queued from it just after. A hidden tab paints nothing, so it resolves at
 * once there, and after `limitMs` at the latest.
 */
export function afterNextPaint(win: FrameWindow, doc: Pick<Document, 'visibilityState'>, limitMs = FIRST_PAINT_WAIT_MS): Promise<void> {
  if (doc.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => {
    const limit = win.setTimeout(resolve, limitMs);
    win.requestAnimationFrame(() => {
      win.setTimeout(() => {
        win.clearTimeout(limit);
        resolve();
      }, 0);
    });
  });
}
