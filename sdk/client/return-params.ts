// The parameters a page is sent back with after a round trip elsewhere (an OAuth sign-in, a
// Discord check): read once to show a notice, then dropped from the address so a reload or a
// shared link does not show the notice again.
import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/** The address's parameters, and a function that removes `names` from the address (no new history entry). */
export function useReturnParams(names: readonly string[]): [URLSearchParams, () => void] {
  const [params, setParams] = useSearchParams();
  const dismiss = useCallback(
    () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const name of names) next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [names, setParams],
  );
  return [params, dismiss];
}
