// spec §9: "Frame limiting applies when the limit is under 60." Animation loops (the skin viewer, dialog
// and chart animations) run on requestAnimationFrame; under a limit below 60 the kernel spaces their
// frames at least 1000/limit ms apart. At 60 or more the browser's own functions are put back.
type FrameWindow = Pick<Window, 'requestAnimationFrame' | 'cancelAnimationFrame'>;

/** Frame-limited callbacks get ids far above the browser's, so a native cancel never hits a wrong frame. */
const ID_OFFSET = 1_000_000_000;

interface Installed {
  win: FrameWindow;
  nativeRequest: Window['requestAnimationFrame'];
  nativeCancel: Window['cancelAnimationFrame'];
}

let installed: Installed | null = null;
let minInterval = 0;

/** Applies a frame rate limit (frames per second) to requestAnimationFrame. */
export function applyFrameRateLimit(limit: number, win: FrameWindow = window): void {
  if (!Number.isFinite(limit) || limit >= 60) {
    if (installed) {
      installed.win.requestAnimationFrame = installed.nativeRequest;
      installed.win.cancelAnimationFrame = installed.nativeCancel;
      installed = null;
    }
    return;
  }
  minInterval = 1000 / Math.max(1, limit);
  if (installed) return;
  const nativeRequest = win.requestAnimationFrame.bind(win);
  const nativeCancel = win.cancelAnimationFrame.bind(win);
  installed = { win, nativeRequest: win.requestAnimationFrame, nativeCancel: win.cancelAnimationFrame };
  const pending = new Map<number, number>();
  let nextId = ID_OFFSET;
  let lastFrame = -Infinity;
  let nextAllowed = -Infinity;
  win.requestAnimationFrame = (callback: FrameRequestCallback): number => {
    const id = nextId++;
    const step = (time: number) => {
      // every callback of an allowed frame runs in that frame (they all get the same timestamp)
      if (time !== lastFrame && time < nextAllowed) {
        pending.set(id, nativeRequest(step));
        return;
      }
      if (time !== lastFrame) {
        lastFrame = time;
        // a millisecond of slack so a 30 fps limit does not fall to 20 fps on a 60 Hz screen
        nextAllowed = time + minInterval - 1;
      }
      pending.delete(id);
      callback(time);
    };
    pending.set(id, nativeRequest(step));
    return id;
  };
  win.cancelAnimationFrame = (id: number): void => {
    const native = pending.get(id);
    if (native !== undefined) {
      nativeCancel(native);
      pending.delete(id);
    } else if (id < ID_OFFSET) {
      nativeCancel(id);
    }
  };
}
