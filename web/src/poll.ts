import { useEffect, useRef } from 'react';

/**
 * Runs `tick` now and every `everyMs` while the tab is visible (and at once when it becomes visible
 * again), so a status that changes elsewhere — a signer in another tab — appears without a reload.
 */
export function usePoll(tick: () => Promise<void>, everyMs: number, deps: unknown[]): void {
  const fn = useRef(tick);
  fn.current = tick;
  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const run = async () => {
      window.clearTimeout(timer);
      if (stopped) return;
      if (document.visibilityState === 'visible') {
        try {
          await fn.current();
        } catch {
          // The page shows its own error; the next tick tries again.
        }
      }
      if (!stopped) timer = window.setTimeout(() => void run(), everyMs);
    };
    const visible = () => {
      if (document.visibilityState === 'visible') void run();
    };
    document.addEventListener('visibilitychange', visible);
    void run();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', visible);
    };
  }, deps);
}
