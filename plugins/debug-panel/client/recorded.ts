// The kernel's diagnostics as the panel's components read them: ctx.diagnostics is handed over at
// setup (components get no ctx), then read with useSyncExternalStore, so a burst of requests
// re-renders the panel once.
import type { Diagnostics, DiagnosticsSnapshot } from '@orepanel/sdk';
import { useSyncExternalStore } from 'react';

let source: Diagnostics | null = null;

/** Setup's hand-over of `ctx.diagnostics`. */
export function keepDiagnostics(diagnostics: Diagnostics): void {
  source = diagnostics;
}

const EMPTY: DiagnosticsSnapshot = Object.freeze({ network: [], errors: [], console: [], dropped: Object.freeze({ network: 0, errors: 0, console: 0 }) });
const noSubscription = () => () => undefined;
const nothing = () => EMPTY;

/** The diagnostics reader (null before setup ran). */
export function diagnostics(): Diagnostics | null {
  return source;
}

/** Everything recorded, re-rendering when it changes. */
export function useRecorded(): DiagnosticsSnapshot {
  return useSyncExternalStore(source ? source.subscribe : noSubscription, source ? source.snapshot : nothing);
}
