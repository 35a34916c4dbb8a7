// What the panel records about itself from start-up (spec §2, §7, §8: the developer debug panel shows
// every fetch, the console errors, 'Unhandled Promise Rejection: …' and 'Global Error: …', and the
// console output). The kernel's recorder (kernel/diagnostics/recorder.ts) writes here, already
// redacted (./redact.ts); a plugin that declares `"diagnostics": true` in plugin.json reads it through
// `ctx.diagnostics`. Every list is a ring buffer: the oldest entries go, memory stays bounded however
// long the page stays open (the reference's logs grew without end).

/** How much is kept. */
export interface DiagnosticsLimits {
  /** entries per list (network, errors, console) */
  readonly entries: number;
  /** characters kept of a request or response body */
  readonly bodyChars: number;
  /** characters kept of one error or console message */
  readonly textChars: number;
}

export const DIAGNOSTICS_LIMITS: DiagnosticsLimits = Object.freeze({ entries: 200, bodyChars: 64 * 1024, textChars: 8 * 1024 });

/** One fetch the page made. Bodies, headers and the URL are redacted before they are stored. */
export interface NetworkEntry {
  readonly id: number;
  /** when it started (ms since the epoch) */
  readonly startedAt: number;
  readonly method: string;
  readonly url: string;
  /** the HTTP status; null while no answer has arrived, 0 when none will (network failure, aborted) */
  readonly status: number | null;
  /** ms from start to the answer's headers; null while pending */
  readonly durationMs: number | null;
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** the body as text (JSON re-serialised, a form as JSON of its fields, files and binary described), null when none */
  readonly requestBody: string | null;
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** the answer's text (cut at the body limit) or a description of a binary answer; null until read */
  readonly responseBody: string | null;
  /** why no answer came (network failure, aborted), null otherwise */
  readonly error: string | null;
}

/** Where an error or a console line came from. */
export type LogSource = 'console' | 'rejection' | 'global';
export type LogLevel = 'error' | 'warn' | 'info' | 'log' | 'debug';

/** One error or console line. */
export interface LogEntry {
  readonly id: number;
  readonly at: number;
  readonly level: LogLevel;
  readonly source: LogSource;
  /** the message (spec §8 texts for rejections and global errors), redacted and cut at the text limit */
  readonly text: string;
}

export type DiagnosticsList = 'network' | 'errors' | 'console';

/** Everything recorded, at one moment. The same object is returned until something changes. */
export interface DiagnosticsSnapshot {
  readonly network: readonly NetworkEntry[];
  readonly errors: readonly LogEntry[];
  readonly console: readonly LogEntry[];
  /** entries dropped from each list since the page loaded (the ring buffer was full) */
  readonly dropped: Readonly<Record<DiagnosticsList, number>>;
}

/**
 * `ctx.diagnostics`: read what the kernel records (declare `"diagnostics": true` in plugin.json).
 * @example
 * const entries = useSyncExternalStore(ctx.diagnostics.subscribe, ctx.diagnostics.snapshot).network;
 */
export interface Diagnostics {
  readonly limits: DiagnosticsLimits;
  /** Is the kernel recording? (false when no enabled plugin declares `diagnostics`) */
  recording(): boolean;
  snapshot(): DiagnosticsSnapshot;
  /** Calls `listener` (at most every 100 ms) after something was recorded or cleared. @returns unsubscribe */
  subscribe(listener: () => void): () => void;
  /** Empties one list, or all of them. */
  clear(list?: DiagnosticsList): void;
}

/** The writing side, for the kernel's recorder. */
export interface DiagnosticsLog extends Diagnostics {
  /** @returns the entry's id, to {@link DiagnosticsLog.updateNetwork} it when the answer comes */
  addNetwork(entry: Omit<NetworkEntry, 'id'>): number;
  /** Updates an entry still in the buffer (no-op when it was dropped or cleared). */
  updateNetwork(id: number, patch: Partial<Omit<NetworkEntry, 'id'>>): void;
  addLog(list: 'errors' | 'console', entry: Omit<LogEntry, 'id' | 'text'> & { text: string }): void;
  setRecording(on: boolean): void;
}

/** Notifications are throttled: a burst of requests or log lines re-renders a reader once. */
const NOTIFY_EVERY_MS = 100;

export function createDiagnosticsLog(limits: DiagnosticsLimits = DIAGNOSTICS_LIMITS): DiagnosticsLog {
  let network: NetworkEntry[] = [];
  let errors: LogEntry[] = [];
  let consoleLines: LogEntry[] = [];
  const dropped: Record<DiagnosticsList, number> = { network: 0, errors: 0, console: 0 };
  let nextId = 1;
  let cached: DiagnosticsSnapshot | null = null;
  let recording = false;
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  // Never synchronous: a reader that logs while rendering (React warnings) would otherwise re-enter
  // itself; the timer also batches bursts.
  const changed = () => {
    cached = null;
    if (timer !== null || listeners.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      for (const listener of [...listeners]) {
        try {
          listener();
        } catch {
          // a reader's failure is its own; the log must keep working for the others
        }
      }
    }, NOTIFY_EVERY_MS);
  };

  // a new array each time: a snapshot handed out earlier must not change under its reader
  const capped = <T>(list: T[], entry: T, name: DiagnosticsList): T[] => {
    const overflow = Math.max(0, list.length + 1 - limits.entries);
    dropped[name] += overflow;
    const next = list.slice(overflow);
    next.push(entry);
    return next;
  };

  const cut = (text: string) => (text.length > limits.textChars ? `${text.slice(0, limits.textChars)}… [${text.length - limits.textChars} more characters]` : text);

  return {
    limits,
    recording: () => recording,
    setRecording(on) {
      recording = on;
      if (!on) {
        network = [];
        errors = [];
        consoleLines = [];
      }
      changed();
    },
    snapshot() {
      cached ??= Object.freeze({ network, errors, console: consoleLines, dropped: Object.freeze({ ...dropped }) });
      return cached;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    clear(list) {
      if (!list || list === 'network') network = [];
      if (!list || list === 'errors') errors = [];
      if (!list || list === 'console') consoleLines = [];
      changed();
    },
    addNetwork(entry) {
      const id = nextId++;
      network = capped(network, Object.freeze({ ...entry, id }), 'network');
      changed();
      return id;
    },
    updateNetwork(id, patch) {
      const at = network.findIndex((e) => e.id === id);
      if (at < 0) return;
      network = network.slice();
      network[at] = Object.freeze({ ...network[at], ...patch, id });
      changed();
    },
    addLog(list, entry) {
      const frozen = Object.freeze({ ...entry, text: cut(entry.text), id: nextId++ });
      if (list === 'errors') errors = capped(errors, frozen, 'errors');
      else consoleLines = capped(consoleLines, frozen, 'console');
      changed();
    },
  };
}

/** A read-only view of a log: what `ctx.diagnostics` hands a plugin. */
export function readDiagnostics(log: Diagnostics): Diagnostics {
  return Object.freeze({
    limits: log.limits,
    recording: () => log.recording(),
    snapshot: () => log.snapshot(),
    subscribe: (listener: () => void) => log.subscribe(listener),
    clear: (list?: DiagnosticsList) => log.clear(list),
  });
}

/** The panel's one log (the sdk is a shared singleton module: one per page). */
export const diagnosticsLog: DiagnosticsLog = createDiagnosticsLog();
