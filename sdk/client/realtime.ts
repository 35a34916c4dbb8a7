// The panel's realtime connections (issue 14, spec §2 /ws): one way for every plugin to hold a live
// socket to its server part. A dropped connection is tried again with a growing delay (1 s, 2 s, 4 s …
// up to 15 s, with jitter so many pages do not return at once) and at once when the browser comes back
// online; the kernel shows a non-blocking "reconnecting" banner meanwhile (realtimeStore). When the
// attempts run out the panel itself is asked: if it does not answer either, the connection is lost and
// the user goes to /ws, which brings them back once the panel answers; if it answers, only this socket
// is unavailable and the page carries on without it (it says so, or falls back to asking by itself).
// A close the server means (signed out, feature off) ends the connection without trying again.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { create } from 'zustand';
import { http, isApiError } from './http';
import { hasKernelServices, kernelServices } from './kernel-services';

/** spec §2: the lost-connection page. */
export const LOST_CONNECTION_PATH = '/ws';
/** What the lost-connection page and a connection that gave up ask to know whether the panel answers. */
export const PANEL_PROBE_PATH = '/api/system/settings';

/** The retry policy of every realtime connection. */
export const REALTIME_RETRY = Object.freeze({
  /** failed attempts in a row before the connection is given up */
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 15_000,
  /** up to this share is added at random */
  jitter: 0.2,
});

/** 1 s, 2 s, 4 s … capped at 15 s, plus up to 20 % jitter. */
export function realtimeRetryDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(REALTIME_RETRY.maxDelayMs, REALTIME_RETRY.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + REALTIME_RETRY.jitter * random()));
}

/** Only a path of this panel: never another site (an open redirect through ?from=). */
export function safeReturnPath(from: string | null | undefined): string {
  return from && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/\\') ? from : '/dashboard';
}

/** The lost-connection page, remembering where to come back to. */
export function lostConnectionPath(from: string): string {
  return `${LOST_CONNECTION_PATH}?from=${encodeURIComponent(safeReturnPath(from))}`;
}

/** Does the panel answer at all? A 4xx is an answer; a 5xx, a 503 or no answer is not. */
export async function panelAnswers(): Promise<boolean> {
  try {
    await http.get(PANEL_PROBE_PATH, { cache: 'no-store' });
    return true;
  } catch (error) {
    return isApiError(error) && error.status > 0 && error.status < 500;
  }
}

/**
 * connecting: the first attempt (or one asked for); live: open; reconnecting: waiting to try again;
 * unavailable: the attempts ran out while the panel still answers; ended: the server ended it on
 * purpose (`endReason` says why) — nothing more is tried.
 */
export type RealtimePhase = 'connecting' | 'live' | 'reconnecting' | 'unavailable' | 'ended';

export interface RealtimeState {
  phase: RealtimePhase;
  /** failed attempts in a row */
  attempt: number;
  /** when the next attempt starts (epoch ms), while reconnecting */
  retryAt: number | null;
  /** why the server ended it, while ended */
  endReason: string | null;
}

export const INITIAL_REALTIME_STATE: RealtimeState = Object.freeze({ phase: 'connecting', attempt: 0, retryAt: null, endReason: null });

/** One connection as the kernel's banner sees it. */
export interface RealtimeEntry extends RealtimeState {
  reconnectNow(): void;
}

export interface RealtimeStoreState {
  connections: Record<string, RealtimeEntry>;
}

/** Every realtime connection of the page on screen, by an id of its own. */
export const realtimeStore = create<RealtimeStoreState>()(() => ({ connections: {} }));

export interface RealtimeConnection {
  readonly state: RealtimeState;
  /** Sends `message` as JSON when the socket is open; false when it is not. */
  send(message: unknown): boolean;
  /** Tries again now (the button of the banner and of the page), counting from the first attempt. */
  reconnectNow(): void;
  /** Closes for good (the page left). */
  close(): void;
}

export interface RealtimeSocketOptions {
  /** the socket's path on this panel, e.g. `/api/user/earn/afk/socket` */
  path: string;
  onOpen?(connection: RealtimeConnection): void;
  onMessage?(data: string, connection: RealtimeConnection): void;
  /** every close, before anything is decided (stop heartbeats, keep totals) */
  onClose?(event: CloseEvent, opened: boolean): void;
  /**
   * Why trying again cannot help after this close — the server ended it on purpose — or null to try
   * again. `opened` false: the socket never opened (a refused upgrade looks like a plain failure to a
   * browser, so this may ask the plugin's server why).
   */
  endReason?(event: CloseEvent, opened: boolean): string | null | Promise<string | null>;
  onStateChange?(state: RealtimeState): void;
  /** where /ws brings the user back to (default: the address on screen) */
  returnPath?(): string;
  /** tests: the jitter */
  random?: () => number;
}

let nextId = 0;

function socketUrl(path: string): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${path}`;
}

/** Opens a realtime socket that reconnects by the panel's policy (see the top of this file). */
export function openRealtimeSocket(options: RealtimeSocketOptions): RealtimeConnection {
  const id = `realtime-${++nextId}`;
  const random = options.random ?? Math.random;
  let state: RealtimeState = INITIAL_REALTIME_STATE;
  let socket: WebSocket | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  // a close seen while a newer attempt already started is not this connection's news any more
  let generation = 0;

  const publish = () => {
    if (closed) return;
    realtimeStore.setState((s) => ({ connections: { ...s.connections, [id]: { ...state, reconnectNow } } }));
  };
  const setState = (patch: Partial<RealtimeState>) => {
    state = { ...state, ...patch };
    publish();
    if (!closed) options.onStateChange?.(state);
  };
  const clearRetry = () => {
    if (retry !== null) clearTimeout(retry);
    retry = null;
  };

  const connection: RealtimeConnection = {
    get state() {
      return state;
    },
    send(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    reconnectNow: () => reconnectNow(),
    close() {
      if (closed) return;
      closed = true;
      clearRetry();
      window.removeEventListener('online', onOnline);
      socket?.close(1000, 'page left');
      socket = null;
      realtimeStore.setState((s) => {
        const { [id]: _gone, ...rest } = s.connections;
        return { connections: rest };
      });
    },
  };

  const giveUp = async () => {
    setState({ phase: 'unavailable', retryAt: null });
    const mine = generation;
    const answers = await panelAnswers();
    if (closed || mine !== generation || state.phase !== 'unavailable') return;
    // the panel is gone too: the lost-connection page, which brings the user back (spec §2 /ws)
    const from = options.returnPath?.() ?? `${window.location.pathname}${window.location.search}`;
    if (!answers && hasKernelServices()) kernelServices().navigate(lostConnectionPath(from), { replace: true });
  };

  const scheduleRetry = (attempt: number) => {
    if (closed) return;
    if (attempt > REALTIME_RETRY.maxAttempts) {
      setState({ attempt: attempt - 1 });
      void giveUp();
      return;
    }
    const delay = realtimeRetryDelay(attempt, random);
    setState({ phase: 'reconnecting', attempt, retryAt: Date.now() + delay });
    retry = setTimeout(connect, delay);
  };

  const connect = () => {
    if (closed) return;
    clearRetry();
    const mine = ++generation;
    // an attempt still under way when another is asked for is dropped, never left open beside it
    if (socket) {
      const stale = socket;
      socket = null;
      stale.onopen = stale.onmessage = stale.onclose = null;
      stale.close(1000, 'replaced');
    }
    const current = new WebSocket(socketUrl(options.path));
    socket = current;
    let opened = false;
    current.onopen = () => {
      if (mine !== generation) return;
      opened = true;
      setState({ phase: 'live', attempt: 0, retryAt: null, endReason: null });
      options.onOpen?.(connection);
    };
    current.onmessage = (event: MessageEvent) => {
      if (mine === generation) options.onMessage?.(String(event.data), connection);
    };
    current.onclose = (event: CloseEvent) => {
      if (socket === current) socket = null;
      if (closed || mine !== generation) return;
      options.onClose?.(event, opened);
      const failedBefore = state.attempt;
      const decide = (reason: string | null) => {
        if (closed || mine !== generation) return;
        if (reason) setState({ phase: 'ended', endReason: reason, retryAt: null });
        else scheduleRetry(opened ? 1 : failedBefore + 1);
      };
      let answer: string | null | Promise<string | null>;
      try {
        answer = options.endReason?.(event, opened) ?? null;
      } catch {
        answer = null;
      }
      // a plain answer decides at once; only a question to the server waits
      if (answer instanceof Promise) answer.then(decide, () => decide(null));
      else decide(answer);
    };
  };

  const reconnectNow = () => {
    if (closed || state.phase === 'live' || state.phase === 'ended') return;
    setState({ phase: 'connecting', attempt: 0, retryAt: null });
    connect();
  };

  // back online: no need to wait for the next attempt
  const onOnline = () => {
    if (state.phase === 'reconnecting' || state.phase === 'unavailable') reconnectNow();
  };
  window.addEventListener('online', onOnline);
  publish();
  connect();
  return connection;
}

export interface UseRealtimeSocketOptions extends Omit<RealtimeSocketOptions, 'onStateChange'> {
  /** false: open nothing (yet) */
  enabled?: boolean;
}

export interface UseRealtimeSocket extends RealtimeState {
  send(message: unknown): boolean;
  reconnectNow(): void;
}

/**
 * A realtime socket for as long as the component is on screen (see {@link openRealtimeSocket}). The
 * callbacks may change between renders; the socket opens again only when `path` or `enabled` does.
 * @example const live = useRealtimeSocket({ path: '/api/user/tickets/5/socket', onMessage: (data) => … });
 */
export function useRealtimeSocket(options: UseRealtimeSocketOptions): UseRealtimeSocket {
  const [state, setState] = useState<RealtimeState>(INITIAL_REALTIME_STATE);
  const latest = useRef(options);
  latest.current = options;
  const connection = useRef<RealtimeConnection | null>(null);
  const enabled = options.enabled !== false;
  const location = useLocation();
  const here = useRef('');
  here.current = `${location.pathname}${location.search}`;

  useEffect(() => {
    if (!enabled) return;
    setState(INITIAL_REALTIME_STATE);
    const opened = openRealtimeSocket({
      path: options.path,
      random: latest.current.random,
      onOpen: (c) => latest.current.onOpen?.(c),
      onMessage: (data, c) => latest.current.onMessage?.(data, c),
      onClose: (event, wasOpen) => latest.current.onClose?.(event, wasOpen),
      endReason: (event, wasOpen) => latest.current.endReason?.(event, wasOpen) ?? null,
      onStateChange: setState,
      returnPath: () => here.current,
    });
    connection.current = opened;
    return () => {
      opened.close();
      if (connection.current === opened) connection.current = null;
    };
  }, [options.path, enabled]);

  const send = useCallback((message: unknown) => connection.current?.send(message) ?? false, []);
  const reconnectNow = useCallback(() => connection.current?.reconnectNow(), []);
  return { ...state, send, reconnectNow };
}
