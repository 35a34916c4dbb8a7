// Keeps a ticket's page current. It listens on the ticket's socket (shared/live-protocol.ts), through
// the sdk's realtime socket (the panel's reconnect policy, the kernel's "reconnecting" banner, /ws when
// the panel stops answering), and reads the ticket again whenever the server says it changed — and once
// when the socket is ready, for a change that came before. While the socket is not listening the page
// falls back to asking every TICKET_POLL_MS while in view (use-visible-poll.ts); after the server ended
// it on purpose (signed out, tickets turned off), or once the socket is given up while the panel still
// answers, polling is all that is left, and its answers say what happened the ordinary way.
import { useRealtimeSocket } from '@orepanel/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { TICKET_LIVE_CLOSE, ticketSocketPath, type TicketLiveMessage, type TicketSide } from '../shared/live-protocol';
import { TICKET_POLL_MS, useVisiblePoll } from './customer/use-visible-poll';

/** live: the socket listens; polling: it does not (yet, or any more), the page asks by itself; off: not enabled */
export type TicketLiveState = 'live' | 'polling' | 'off';

/** Closes after which trying again cannot help. */
const FINAL_CLOSES: ReadonlySet<number> = new Set([TICKET_LIVE_CLOSE.PROTOCOL, TICKET_LIVE_CLOSE.SESSION_ENDED, TICKET_LIVE_CLOSE.FEATURE_OFF, TICKET_LIVE_CLOSE.TOO_MANY]);

const visible = () => document.visibilityState !== 'hidden';

function parse(data: string): TicketLiveMessage | null {
  try {
    const message = JSON.parse(data) as TicketLiveMessage;
    return message.type === 'ready' || message.type === 'changed' ? message : null;
  } catch {
    return null;
  }
}

/**
 * `refresh` reads the ticket again; `enabled` false (the ticket has not loaded, or failed to) opens
 * nothing and polls nothing, as before.
 */
export function useTicketLive(side: TicketSide, id: number | string, refresh: () => void, enabled = true): TicketLiveState {
  const [listening, setListening] = useState(false);
  const latest = useRef(refresh);
  latest.current = refresh;
  // a change heard while the tab was hidden is read when it comes back into view
  const missed = useRef(false);

  const changed = useCallback(() => {
    if (visible()) latest.current();
    else missed.current = true;
  }, []);

  const live = useRealtimeSocket({
    path: ticketSocketPath(side, id),
    enabled,
    onMessage(data) {
      const message = parse(data);
      if (!message) return;
      if (message.type === 'ready') setListening(true);
      changed();
    },
    onClose: () => setListening(false),
    endReason: (event) => (FINAL_CLOSES.has(event.code) ? `closed:${event.code}` : null),
  });

  useEffect(() => {
    if (!enabled) return;
    const onVisibility = () => {
      if (missed.current && visible() && live.phase === 'live') {
        missed.current = false;
        latest.current();
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [enabled, live.phase]);

  useEffect(() => {
    if (!enabled) setListening(false);
  }, [enabled]);

  const isLive = enabled && listening && live.phase === 'live';
  useVisiblePoll(refresh, TICKET_POLL_MS, enabled && !isLive);
  return !enabled ? 'off' : isLive ? 'live' : 'polling';
}
