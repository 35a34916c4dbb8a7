// Asks again every `intervalMs` while the tab is seen, and at once when it comes back into view: new
// replies show up without a reload, and a tab in the background costs the server nothing. The
// ticket pages use it as the fallback of their socket (use-ticket-live.ts), while that is not listening.
import { useEffect, useRef } from 'react';

export const TICKET_POLL_MS = 10_000;

const visible = () => document.visibilityState !== 'hidden';

export function useVisiblePoll(refresh: () => void, intervalMs: number = TICKET_POLL_MS, enabled = true): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => {
      if (visible()) latest.current();
    }, intervalMs);
    const onVisibility = () => {
      if (visible()) latest.current();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [intervalMs, enabled]);
}
