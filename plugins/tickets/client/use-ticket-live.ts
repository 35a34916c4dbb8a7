// Keeps a ticket's page current. It listens on the ticket's socket (shared/live-protocol.ts) and
// reads the ticket again whenever the server says it changed — and once when the socket is ready, for
// a change that came before. While the socket cannot open or has dropped, the page falls back to
// asking every TICKET_POLL_MS while in view (use-visible-poll.ts), and the socket is tried again with
// a growing delay; after the server ended it on purpose (signed out, tickets turned off) polling is
// all that is left, and its answers say what happened the ordinary way.
import { useEffect, useRef, useState } from 'react';
import { TICKET_LIVE_CLOSE, ticketSocketPath, type TicketLiveMessage, type TicketSide } from '../shared/live-protocol';
import { TICKET_POLL_MS, useVisiblePoll } from './customer/use-visible-poll';

/** live: the socket listens; polling: it does not (yet, or any more), the page asks by itself; off: not enabled */
export type TicketLiveState = 'live' | 'polling' | 'off';

/** 1 s, 2 s, 4 s … up to a minute, with up to 20 % jitter so many pages do not return at once. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  return Math.round(Math.min(60_000, 1_000 * 2 ** Math.max(0, attempt - 1)) * (1 + 0.2 * random()));
}

/** Failed attempts in a row (none of them reaching `ready`) after which only polling is left. */
export const MAX_RECONNECT_ATTEMPTS = 8;

/** Closes after which trying again cannot help. */
const FINAL_CLOSES: ReadonlySet<number> = new Set([TICKET_LIVE_CLOSE.PROTOCOL, TICKET_LIVE_CLOSE.SESSION_ENDED, TICKET_LIVE_CLOSE.FEATURE_OFF, TICKET_LIVE_CLOSE.TOO_MANY]);

const visible = () => document.visibilityState !== 'hidden';

function socketUrl(side: TicketSide, id: number | string): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${ticketSocketPath(side, id)}`;
}

function parse(data: unknown): TicketLiveMessage | null {
  try {
    const message = JSON.parse(String(data)) as TicketLiveMessage;
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
  const [live, setLive] = useState(false);
  const latest = useRef(refresh);
  latest.current = refresh;

  useEffect(() => {
    if (!enabled) return;
    let disposed = false;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;
    let listening = false;
    const setListening = (now: boolean) => {
      if (listening === now) return;
      listening = now;
      setLive(now);
    };
    // a change heard while the tab was hidden is read when it comes back into view
    let missed = false;

    const changed = () => {
      if (visible()) latest.current();
      else missed = true;
    };
    const onVisibility = () => {
      if (missed && visible() && socket?.readyState === WebSocket.OPEN) {
        missed = false;
        latest.current();
      }
    };

    const connect = () => {
      retry = null;
      if (disposed) return;
      const current = new WebSocket(socketUrl(side, id));
      socket = current;
      current.onmessage = (event: MessageEvent) => {
        const message = parse(event.data);
        if (!message) return;
        if (message.type === 'ready') {
          attempt = 0;
          setListening(true);
        }
        changed();
      };
      current.onclose = (event: CloseEvent) => {
        if (socket === current) socket = null;
        if (disposed) return;
        setListening(false);
        if (FINAL_CLOSES.has(event.code)) return;
        attempt += 1;
        if (attempt > MAX_RECONNECT_ATTEMPTS) return;
        retry = setTimeout(connect, reconnectDelay(attempt));
      };
    };

    document.addEventListener('visibilitychange', onVisibility);
    connect();
    return () => {
      disposed = true;
      document.removeEventListener('visibilitychange', onVisibility);
      if (retry !== null) clearTimeout(retry);
      socket?.close(1000, 'page left');
      socket = null;
      setListening(false);
    };
  }, [side, id, enabled]);

  useVisiblePoll(refresh, TICKET_POLL_MS, enabled && !live);
  return !enabled ? 'off' : live ? 'live' : 'polling';
}
