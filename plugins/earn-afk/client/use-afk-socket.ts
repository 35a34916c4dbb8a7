// The page's side of the AFK socket: connects, sends a heartbeat every 10 s while the page is
// visible (Page Visibility API) and one "hidden" message when it is not, reconnects with exponential
// backoff when the connection drops, and keeps this page's totals across reconnects. The server
// decides what is paid; this hook only reports what it says.
import { http, isApiError } from '@orepanel/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { AFK_CLOSE, AFK_SOCKET_PATH, AFK_STATUS_PATH, HEARTBEAT_INTERVAL_MS, type AfkClientMessage, type AfkStateMessage } from '../shared/protocol';

/** connecting: first attempt; live: open; retrying: waiting to reconnect; ended: will not reconnect */
export type AfkPhase = 'connecting' | 'live' | 'retrying' | 'ended';
export type AfkEndReason = 'session' | 'disabled' | 'refused';

export interface AfkSocketState {
  phase: AfkPhase;
  /** the server's latest state on the current socket (null until it spoke) */
  server: AfkStateMessage | null;
  /** failed attempts in a row */
  attempt: number;
  /** when the next attempt starts (epoch ms, local clock), while retrying */
  retryAt: number | null;
  endReason: AfkEndReason | null;
  /** what this page was paid, over all its sockets */
  pageCoins: number;
  pageMinutes: number;
  /** local clock minus server clock, to count down to the server's nextPayoutAt */
  clockSkewMs: number;
}

/** 1 s, 2 s, 4 s … capped at 30 s, with up to 20 % jitter so many pages do not return at once. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + 0.2 * random()));
}

/** After this many failed attempts in a row the page gives up and shows the lost-connection page. */
export const MAX_ATTEMPTS = 6;

function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${AFK_SOCKET_PATH}`;
}

const isVisible = () => document.visibilityState !== 'hidden';

export interface UseAfkSocket extends AfkSocketState {
  takeover(): void;
  reconnectNow(): void;
}

export function useAfkSocket(options: { onGiveUp?: () => void; onSessionEnded?: () => void } = {}): UseAfkSocket {
  const [state, setState] = useState<AfkSocketState>({
    phase: 'connecting',
    server: null,
    attempt: 0,
    retryAt: null,
    endReason: null,
    pageCoins: 0,
    pageMinutes: 0,
    clockSkewMs: 0,
  });
  const socketRef = useRef<WebSocket | null>(null);
  const connectRef = useRef<() => void>(() => undefined);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const send = useCallback((message: AfkClientMessage) => {
    const socket = socketRef.current;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }, []);

  useEffect(() => {
    let disposed = false;
    let heartbeat: ReturnType<typeof setInterval> | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;
    // what earlier sockets of this page were paid
    let carried = { coins: 0, minutes: 0 };

    const stopHeartbeat = () => {
      if (heartbeat !== null) clearInterval(heartbeat);
      heartbeat = null;
    };
    const startHeartbeat = () => {
      stopHeartbeat();
      heartbeat = setInterval(() => send({ type: 'heartbeat', visible: true }), HEARTBEAT_INTERVAL_MS);
    };

    const connect = () => {
      if (disposed) return;
      if (retry !== null) clearTimeout(retry);
      retry = null;
      const socket = new WebSocket(socketUrl());
      socketRef.current = socket;
      let opened = false;
      let paid = { coins: 0, minutes: 0 };

      socket.onopen = () => {
        opened = true;
        attempt = 0;
        setState((s) => ({ ...s, phase: 'live', attempt: 0, retryAt: null }));
        const visible = isVisible();
        send({ type: 'heartbeat', visible });
        if (visible) startHeartbeat();
      };
      socket.onmessage = (event: MessageEvent) => {
        let message: AfkStateMessage;
        try {
          message = JSON.parse(String(event.data)) as AfkStateMessage;
        } catch {
          return;
        }
        if (message.type !== 'state') return;
        paid = message.session;
        setState((s) => ({
          ...s,
          server: message,
          pageCoins: carried.coins + paid.coins,
          pageMinutes: carried.minutes + paid.minutes,
          clockSkewMs: Date.now() - message.serverTime,
        }));
      };
      socket.onclose = (event: CloseEvent) => {
        stopHeartbeat();
        if (socketRef.current === socket) socketRef.current = null;
        carried = { coins: carried.coins + paid.coins, minutes: carried.minutes + paid.minutes };
        if (disposed) return;
        if (event.code === AFK_CLOSE.SESSION_ENDED) return end('session');
        if (event.code === AFK_CLOSE.FEATURE_DISABLED) return end('disabled');
        if (event.code === AFK_CLOSE.PROTOCOL) return end('refused');
        if (opened) return scheduleRetry(1);
        // a refused upgrade (signed out, feature off) looks like a plain failure to a browser: the
        // status route tells which
        http.get(AFK_STATUS_PATH).then(
          () => scheduleRetry(attempt + 1),
          (error: unknown) => {
            if (isApiError(error) && error.code === 'FEATURE_DISABLED') end('disabled');
            else if (isApiError(error) && error.status === 401) end('session');
            else scheduleRetry(attempt + 1);
          },
        );
      };
    };

    const end = (endReason: AfkEndReason) => {
      if (disposed) return;
      setState((s) => ({ ...s, phase: 'ended', endReason, server: null, retryAt: null }));
      if (endReason === 'session') optionsRef.current.onSessionEnded?.();
    };

    const scheduleRetry = (next: number) => {
      if (disposed) return;
      attempt = next;
      if (attempt > MAX_ATTEMPTS) {
        setState((s) => ({ ...s, phase: 'ended', endReason: null, server: null, retryAt: null }));
        optionsRef.current.onGiveUp?.();
        return;
      }
      const delay = backoffDelay(attempt);
      setState((s) => ({ ...s, phase: 'retrying', attempt, retryAt: Date.now() + delay, server: null }));
      retry = setTimeout(connect, delay);
    };
    connectRef.current = () => {
      attempt = 0;
      connect();
    };

    const onVisibility = () => {
      const visible = isVisible();
      // hidden: one last word, then silence — the server stops paying at once (Page Visibility)
      send({ type: 'heartbeat', visible });
      if (visible) startHeartbeat();
      else stopHeartbeat();
    };
    document.addEventListener('visibilitychange', onVisibility);
    connect();

    return () => {
      disposed = true;
      document.removeEventListener('visibilitychange', onVisibility);
      stopHeartbeat();
      if (retry !== null) clearTimeout(retry);
      socketRef.current?.close(1000, 'page left');
      socketRef.current = null;
    };
  }, [send]);

  const takeover = useCallback(() => send({ type: 'takeover' }), [send]);
  const reconnectNow = useCallback(() => {
    setState((s) => ({ ...s, phase: 'connecting', retryAt: null, endReason: null }));
    connectRef.current();
  }, []);

  return { ...state, takeover, reconnectNow };
}
