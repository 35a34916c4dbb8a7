// A diagnostics log a test fills by hand, for a plugin that reads ctx.diagnostics (renderPlugin's
// `diagnostics` option). The panel's kernel records and redacts real traffic; a test gives the
// entries it wants shown, stored as given.
import { createDiagnosticsLog, type Diagnostics, type LogLevel, type LogSource, type NetworkEntry } from '../client/diagnostics';

export interface TestDiagnostics extends Diagnostics {
  /** Adds a finished request (defaults: GET, status 200, no headers or bodies). @returns its id */
  addRequest(entry: Partial<Omit<NetworkEntry, 'id'>> & Pick<NetworkEntry, 'url'>): number;
  /** Adds a line to the Errors list (source `console` by default). */
  addError(text: string, source?: LogSource): void;
  /** Adds a console line (level `log` by default). */
  addConsole(text: string, level?: LogLevel): void;
}

/** A log for one test, recording, empty. */
export function testDiagnostics(): TestDiagnostics {
  const log = createDiagnosticsLog();
  log.setRecording(true);
  return {
    limits: log.limits,
    recording: () => log.recording(),
    snapshot: () => log.snapshot(),
    subscribe: (listener) => log.subscribe(listener),
    clear: (list) => log.clear(list),
    addRequest: (entry) =>
      log.addNetwork({
        startedAt: Date.now(),
        method: 'GET',
        status: 200,
        durationMs: 1,
        requestHeaders: {},
        requestBody: null,
        responseHeaders: {},
        responseBody: '',
        error: null,
        ...entry,
      }),
    addError: (text, source = 'console') => log.addLog('errors', { at: Date.now(), level: 'error', source, text }),
    addConsole: (text, level = 'log') => log.addLog('console', { at: Date.now(), level, source: 'console', text }),
  };
}
