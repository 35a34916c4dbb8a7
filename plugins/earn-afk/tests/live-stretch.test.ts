// The payment rule on its own: a minute is observed only when the socket held the lease and was
// visible, with heartbeats at most 20 s apart, from the minute's start to its end.
import { describe, expect, it } from 'vitest';
import { LiveStretch } from '../server/live-stretch';
import { parseClientMessage } from '../shared/protocol';

const M = 1_000; // minute index used throughout
const at = (seconds: number) => M * 60_000 + seconds * 1_000;

/** Heartbeats every `every` seconds from `from` to `to` (inclusive), holding the lease. */
function beats(stretch: LiveStretch, from: number, to: number, every = 15) {
  for (let s = from; s <= to; s += every) stretch.beat(at(s), true, true);
}

describe('LiveStretch', () => {
  it('covers a minute with heartbeats from before its start to within 20 s of its end', () => {
    const stretch = new LiveStretch();
    beats(stretch, -5, 55);
    expect(stretch.covers(M)).toBe(true);
    // the minute before began before the stretch did
    expect(stretch.covers(M - 1)).toBe(false);
  });

  it('does not cover a minute whose last heartbeat came more than 20 s before its end', () => {
    const stretch = new LiveStretch();
    beats(stretch, -5, 25);
    expect(stretch.covers(M)).toBe(false);
  });

  it('breaks the stretch at a gap over 20 s, even when heartbeats resume', () => {
    const stretch = new LiveStretch();
    beats(stretch, -5, 10);
    beats(stretch, 31, 61, 15); // 21 s of silence
    expect(stretch.covers(M)).toBe(false);
    expect(stretch.nextPayoutAt(at(61))).toBe(at(120));
  });

  it('accepts a gap of exactly 20 s', () => {
    const stretch = new LiveStretch();
    beats(stretch, -10, 50, 20);
    expect(stretch.covers(M)).toBe(true);
  });

  it('breaks the stretch when the page is hidden, and restarts it when visible again', () => {
    const stretch = new LiveStretch();
    beats(stretch, -5, 25);
    stretch.beat(at(30), false, true);
    expect(stretch.isLive(at(30))).toBe(false);
    beats(stretch, 35, 59);
    expect(stretch.covers(M)).toBe(false);
    beats(stretch, 60, 125);
    // the new stretch began at 35 s, before minute M+1 did
    expect(stretch.covers(M + 1)).toBe(true);
  });

  it('never counts heartbeats sent before the lease was held', () => {
    const stretch = new LiveStretch();
    for (let s = -30; s <= 10; s += 10) stretch.beat(at(s), true, false);
    expect(stretch.covers(M)).toBe(false);
    stretch.leaseTaken(at(12));
    beats(stretch, 20, 80);
    expect(stretch.covers(M)).toBe(false);
    expect(stretch.nextPayoutAt(at(80))).toBe(at(120));
  });

  it('stops at interrupt() (lease lost, or a tick found the heartbeats gone)', () => {
    const stretch = new LiveStretch();
    beats(stretch, -5, 40);
    stretch.interrupt();
    beats(stretch, 45, 60);
    expect(stretch.covers(M)).toBe(false);
  });
});

describe('the AFK protocol', () => {
  it('accepts exactly the two client messages and nothing else', () => {
    expect(parseClientMessage('{"type":"heartbeat","visible":true}')).toEqual({ type: 'heartbeat', visible: true });
    expect(parseClientMessage('{"type":"takeover"}')).toEqual({ type: 'takeover' });
    for (const bad of [
      '',
      'null',
      '[]',
      '{"type":"heartbeat"}',
      '{"type":"heartbeat","visible":1}',
      '{"type":"heartbeat","visible":true,"at":1}',
      '{"type":"pay"}',
      `{"type":"takeover","x":"${'a'.repeat(300)}"}`,
    ]) {
      expect(parseClientMessage(bad), bad).toBeNull();
    }
  });
});
