// What the server has observed of one AFK socket: its heartbeats, whether the page said it was
// visible, and the unbroken "live" stretch that started once this socket held the user's paying
// lease. Pure bookkeeping on timestamps the server stamped itself — the client's clock is never
// trusted — so the payment rule can be read (and tested) in one place:
//
//   minute [s, e) is observed ⇔ the stretch began at or before s (holding the lease, visible, with
//   heartbeats at most HEARTBEAT_GAP_MS apart ever since) and the last heartbeat is within
//   HEARTBEAT_GAP_MS of e.
//
// Events are applied in the order they arrived and minutes are settled before any later event is
// applied, so a gap, a hidden page or a lost lease inside a minute always breaks its stretch first.
import { HEARTBEAT_GAP_MS, MINUTE_MS } from '../shared/protocol';

export class LiveStretch {
  private visible = false;
  private lastBeatAt: number | null = null;
  /** when the current unbroken stretch (with the lease held) began; null: none */
  private since: number | null = null;

  /** A heartbeat stamped `at`; `holdingLease`: this socket holds the user's paying lease. */
  beat(at: number, visible: boolean, holdingLease: boolean): void {
    if (!visible) {
      this.visible = false;
      this.since = null;
      return;
    }
    const continuous = this.isLive(at);
    this.visible = true;
    this.lastBeatAt = at;
    if (!holdingLease) this.since = null;
    else if (!continuous || this.since === null) this.since = at;
  }

  /** Visible, and the last heartbeat is recent enough that the page may still be there. */
  isLive(at: number): boolean {
    return this.visible && this.lastBeatAt !== null && at - this.lastBeatAt <= HEARTBEAT_GAP_MS;
  }

  /** The lease was just taken at `at`: a stretch can begin now (never earlier). */
  leaseTaken(at: number): void {
    this.since = this.isLive(at) ? at : null;
  }

  /** The lease is gone, or a tick found the heartbeats stopped: the stretch ends. */
  interrupt(): void {
    this.since = null;
  }

  /** Whether minute `minute` (whole minutes since the epoch) was observed from start to end. */
  covers(minute: number): boolean {
    const start = minute * MINUTE_MS;
    const end = start + MINUTE_MS;
    return this.since !== null && this.since <= start && this.visible && this.lastBeatAt !== null && this.lastBeatAt + HEARTBEAT_GAP_MS >= end;
  }

  /** The end of the first minute the stretch can still be paid for, or null when there is none. */
  nextPayoutAt(at: number): number | null {
    if (this.since === null || !this.isLive(at)) return null;
    const current = Math.floor(at / MINUTE_MS);
    const first = this.since <= current * MINUTE_MS ? current : current + 1;
    return (first + 1) * MINUTE_MS;
  }
}
