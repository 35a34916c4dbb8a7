import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDiagnosticsLog, DIAGNOSTICS_LIMITS, readDiagnostics, type NetworkEntry } from './diagnostics';

const request = (url: string): Omit<NetworkEntry, 'id'> => ({
  startedAt: 0,
  method: 'GET',
  url,
  status: null,
  durationMs: null,
  requestHeaders: {},
  requestBody: null,
  responseHeaders: {},
  responseBody: null,
  error: null,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the diagnostics log', () => {
  it('keeps 200 entries per list by default and bodies of 64 KB', () => {
    expect(DIAGNOSTICS_LIMITS.entries).toBe(200);
    expect(DIAGNOSTICS_LIMITS.bodyChars).toBe(65536);
  });

  it('is a ring buffer: the oldest entries go and are counted as dropped', () => {
    const log = createDiagnosticsLog({ entries: 3, bodyChars: 100, textChars: 50 });
    for (let i = 1; i <= 5; i++) log.addNetwork(request(`/api/${i}`));
    const { network, dropped } = log.snapshot();
    expect(network.map((e) => e.url)).toEqual(['/api/3', '/api/4', '/api/5']);
    expect(dropped.network).toBe(2);
    for (let i = 1; i <= 4; i++) log.addLog('console', { at: i, level: 'log', source: 'console', text: `line ${i}` });
    expect(log.snapshot().console.map((e) => e.text)).toEqual(['line 2', 'line 3', 'line 4']);
    expect(log.snapshot().dropped.console).toBe(1);
  });

  it('cuts a long message at the text limit and says how much is left out', () => {
    const log = createDiagnosticsLog({ entries: 3, bodyChars: 100, textChars: 10 });
    log.addLog('errors', { at: 1, level: 'error', source: 'console', text: 'x'.repeat(25) });
    expect(log.snapshot().errors[0].text).toBe(`${'x'.repeat(10)}… [15 more characters]`);
  });

  it('updates an entry still in the buffer, and ignores one that was dropped', () => {
    const log = createDiagnosticsLog({ entries: 2, bodyChars: 100, textChars: 50 });
    const first = log.addNetwork(request('/a'));
    const second = log.addNetwork(request('/b'));
    log.updateNetwork(second, { status: 200, durationMs: 12 });
    log.addNetwork(request('/c'));
    log.updateNetwork(first, { status: 500 });
    expect(log.snapshot().network.map((e) => [e.url, e.status])).toEqual([
      ['/b', 200],
      ['/c', null],
    ]);
  });

  it('hands out snapshots that do not change afterwards, and the same one until something changes', () => {
    const log = createDiagnosticsLog();
    log.addNetwork(request('/a'));
    const before = log.snapshot();
    expect(log.snapshot()).toBe(before);
    log.addNetwork(request('/b'));
    expect(before.network).toHaveLength(1);
    expect(log.snapshot().network).toHaveLength(2);
    expect(Object.isFrozen(before.network[0])).toBe(true);
  });

  it('clears one list or all, and empties everything when recording stops', () => {
    const log = createDiagnosticsLog();
    log.setRecording(true);
    log.addNetwork(request('/a'));
    log.addLog('errors', { at: 1, level: 'error', source: 'global', text: 'Global Error: boom' });
    log.clear('network');
    expect(log.snapshot().network).toEqual([]);
    expect(log.snapshot().errors).toHaveLength(1);
    log.addLog('console', { at: 1, level: 'log', source: 'console', text: 'hi' });
    log.setRecording(false);
    expect(log.recording()).toBe(false);
    expect(log.snapshot()).toMatchObject({ network: [], errors: [], console: [] });
  });

  it('tells subscribers once for a burst, later, never while something is being recorded', () => {
    vi.useFakeTimers();
    const log = createDiagnosticsLog();
    const reader = readDiagnostics(log);
    const listener = vi.fn();
    const stop = reader.subscribe(listener);
    for (let i = 0; i < 10; i++) log.addNetwork(request(`/x${i}`));
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    log.addNetwork(request('/after'));
    vi.advanceTimersByTime(200);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('gives plugins a view that cannot write', () => {
    const reader = readDiagnostics(createDiagnosticsLog()) as unknown as Record<string, unknown>;
    expect(reader.addNetwork).toBeUndefined();
    expect(reader.addLog).toBeUndefined();
    expect(Object.isFrozen(reader)).toBe(true);
  });
});
