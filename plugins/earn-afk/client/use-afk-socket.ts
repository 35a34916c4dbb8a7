// The page's side of the AFK socket, over the sdk's realtime socket (which reconnects by the panel's
// policy, shows the kernel's "reconnecting" banner and leads to /ws when the panel stops answering):
// sends a heartbeat every 10 s while the page is visible (Page Visibility API) and one "hidden" message
// when it is not, and keeps this page's totals across reconnects. The server decides what is paid;
// this hook only reports what it says.
import { http, isApiError, useRealtimeSocket, type RealtimeConnection } from '@orepanel/sdk';
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
  /** why it ended (null: the attempts ran out while the panel answers) */
  endReason: AfkEndReason | null;
  /** what this page was paid, over all its sockets */
  pageCoins: number;
  pageMinutes: number;
  /** local clock minus server clock, to count down to the server's nextPayoutAt */
  clockSkewMs: number;
}

const isVisible = () => document.visibilityState !== 'hidden';

/** The close codes the server uses on purpose, and what each means. */
const CLOSE_REASONS: Readonly<Record<number, AfkEndReason>> = {
  [AFK_CLOSE.SESSION_ENDED]: 'session',
  [AFK_CLOSE.FEATURE_DISABLED]: 'disabled',
  [AFK_CLOSE.PROTOCOL]: 'refused',
};

function isEndReason(value: string | null): value is AfkEndReason {
  return value === 'session' || value === 'disabled' || value === 'refused';
}

export interface UseAfkSocket extends AfkSocketState {
  takeover(): void;
  reconnectNow(): void;
}

export function useAfkSocket(options: { onSessionEnded?: () => void } = {}): UseAfkSocket {
  const [server, setServer] = useState<AfkStateMessage | null>(null);
  const [totals, setTotals] = useState({ pageCoins: 0, pageMinutes: 0, clockSkewMs: 0 });
  const optionsRef = useRef(options);
  optionsRef.current = options;
  // what earlier sockets of this page were paid, and what the current one was
  const carried = useRef({ coins: 0, minutes: 0 });
  const paid = useRef({ coins: 0, minutes: 0 });
  const heartbeat = useRef<ReturnType<typeof setInterval> | null>(null);
  const current = useRef<RealtimeConnection | null>(null);

  const stopHeartbeat = useCallback(() => {
    if (heartbeat.current !== null) clearInterval(heartbeat.current);
    heartbeat.current = null;
  }, []);
  const startHeartbeat = useCallback(() => {
    stopHeartbeat();
    heartbeat.current = setInterval(() => current.current?.send({ type: 'heartbeat', visible: true } satisfies AfkClientMessage), HEARTBEAT_INTERVAL_MS);
  }, [stopHeartbeat]);

  const live = useRealtimeSocket({
    path: AFK_SOCKET_PATH,
    onOpen(connection) {
      current.current = connection;
      paid.current = { coins: 0, minutes: 0 };
      const visible = isVisible();
      connection.send({ type: 'heartbeat', visible } satisfies AfkClientMessage);
      if (visible) startHeartbeat();
    },
    onMessage(data) {
      let message: AfkStateMessage;
      try {
        message = JSON.parse(data) as AfkStateMessage;
      } catch {
        return;
      }
      if (message.type !== 'state') return;
      paid.current = message.session;
      setServer(message);
      setTotals({
        pageCoins: carried.current.coins + message.session.coins,
        pageMinutes: carried.current.minutes + message.session.minutes,
        clockSkewMs: Date.now() - message.serverTime,
      });
    },
    onClose() {
      stopHeartbeat();
      current.current = null;
      carried.current = { coins: carried.current.coins + paid.current.coins, minutes: carried.current.minutes + paid.current.minutes };
      paid.current = { coins: 0, minutes: 0 };
      setServer(null);
    },
    async endReason(event, opened) {
      const reason = CLOSE_REASONS[event.code];
      if (reason) return reason;
      if (opened) return null;
      // a refused upgrade (signed out, feature off) looks like a plain failure to a browser: the status
      // route tells which
      try {
        await http.get(AFK_STATUS_PATH);
        return null;
      } catch (error) {
        if (isApiError(error) && error.code === 'FEATURE_DISABLED') return 'disabled';
        if (isApiError(error) && error.status === 401) return 'session';
        return null;
      }
    },
  });

  const endReason = live.phase === 'ended' && isEndReason(live.endReason) ? live.endReason : null;
  useEffect(() => {
    if (endReason === 'session') optionsRef.current.onSessionEnded?.();
  }, [endReason]);

  useEffect(() => {
    const onVisibility = () => {
      const visible = isVisible();
      // hidden: one last word, then silence — the server stops paying at once (Page Visibility)
      current.current?.send({ type: 'heartbeat', visible } satisfies AfkClientMessage);
      if (visible && current.current) startHeartbeat();
      else stopHeartbeat();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      stopHeartbeat();
    };
  }, [startHeartbeat, stopHeartbeat]);

  const takeover = useCallback(() => void live.send({ type: 'takeover' } satisfies AfkClientMessage), [live.send]);
  const phase: AfkPhase = live.phase === 'reconnecting' ? 'retrying' : live.phase === 'unavailable' || live.phase === 'ended' ? 'ended' : live.phase;
  return {
    phase,
    server: live.phase === 'live' ? server : null,
    attempt: live.attempt,
    retryAt: live.retryAt,
    endReason,
    ...totals,
    takeover,
    reconnectNow: live.reconnectNow,
  };
}
