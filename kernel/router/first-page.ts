// The first page of a load is rendered once it is ready (issue 15): the router decides the route (the
// guards), installs its plugin and loads its page and the shell in the route's loader (create-router),
// and only then does the mount step render — straight into the page, with no loading screen and no
// Suspense fallback in between (React holds a boundary's content until 300 ms after its fallback).
// A load that takes longer than the wait mounts anyway and shows the loading screen meanwhile.

/** How long the mount step waits for the first page's code before it shows the loading screen. */
export const FIRST_PAGE_WAIT_MS = 3000;

/** The part of a data router this reads. */
export interface InitializingRouter {
  readonly state: { readonly initialized: boolean };
  subscribe(listener: (state: { readonly initialized: boolean }) => void): () => void;
}

/**
 * Resolves true once the router finished its first navigation (loaders and redirects included), or
 * false when `maxMs` passed first.
 */
export function whenFirstPageReady(
  router: InitializingRouter,
  maxMs = FIRST_PAGE_WAIT_MS,
  timers: Pick<typeof globalThis, 'setTimeout' | 'clearTimeout'> = globalThis,
): Promise<boolean> {
  if (router.state.initialized) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      timers.clearTimeout(timer);
      unsubscribe();
      resolve(ready);
    };
    const timer = timers.setTimeout(() => done(false), maxMs);
    const unsubscribe = router.subscribe((state) => {
      if (state.initialized) done(true);
    });
  });
}
