// What jsdom lacks and the panel's libraries touch, filled once for every DOM test: the test kernel
// (render.ts) and the sdk's own dialog tests.

/** Fills the gaps of jsdom that the panel's libraries touch (sweetalert2 asks matchMedia, scrolls). */
export function fillJsdomGaps(): void {
  if (typeof window.matchMedia !== 'function') {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addEventListener() {},
        removeEventListener() {},
        addListener() {},
        removeListener() {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
  // jsdom logs "Not implemented" for scrolling; a test kernel has nothing to scroll
  window.scrollTo = () => {};
}
