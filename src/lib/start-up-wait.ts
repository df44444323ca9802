/**
 * Start-up steps of a long-running process (`formsign serve`, `formsign worker`) that need a part which
 * may be down for a while (the database during a restart or failover, a disk being freed): each step
 * is tried again with backoff until it succeeds, instead of the process ending with an unhandled error
 * in its first seconds (issue 35 item 5). While it waits, the part is named for /readyz, and the log
 * gets one line per part when the wait begins and one when it ends, however many attempts fail.
 * A failure that waiting cannot cure (a wrong password, pending migrations with MIGRATE_ON_START=off)
 * is thrown at once, as before.
 */
export interface StartUpWait {
  /** Runs `step` until it succeeds; a failure `transient` names a part for is retried, any other is thrown. */
  run<T>(step: () => Promise<T>): Promise<T>;
  /** The parts start-up waits for now, named for a person ("the database (PostgreSQL)"); empty when none. */
  readonly waitingFor: readonly string[];
}

export interface StartUpWaitOptions {
  /** The part a failure is waiting for (`undefined`: not a failure that waiting cures), and why, in words. */
  transient(err: unknown): { part: string; reason: string } | undefined;
  log(line: string): void;
  /** First delay; it doubles up to `maxDelayMs` (defaults 250 ms and 5 s). */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

export function createStartUpWait(o: StartUpWaitOptions): StartUpWait {
  const first = o.firstDelayMs ?? 250;
  const max = o.maxDelayMs ?? 5000;
  const waiting = new Map<string, number>();
  return {
    get waitingFor() {
      return [...waiting.keys()];
    },
    async run<T>(step: () => Promise<T>): Promise<T> {
      let delay = first;
      let part: string | undefined;
      let attempts = 0;
      for (;;) {
        attempts++;
        try {
          const result = await step();
          if (part !== undefined) {
            const since = waiting.get(part) ?? performance.now();
            waiting.delete(part);
            o.log(`formsign: ${part} is available again after ${((performance.now() - since) / 1000).toFixed(1)} s (${attempts - 1} failed attempt${attempts === 2 ? '' : 's'}); start-up continues.`);
          }
          return result;
        } catch (err) {
          const cause = o.transient(err);
          if (!cause) {
            if (part !== undefined) waiting.delete(part);
            throw err;
          }
          if (part !== cause.part) {
            if (part !== undefined) waiting.delete(part);
            part = cause.part;
            if (!waiting.has(part)) {
              waiting.set(part, performance.now());
              o.log(`formsign: waiting for ${part} (${cause.reason}); start-up retries with backoff (every ${max / 1000} s at most) and logs again once it is available.`);
            }
          }
        }
        // A little jitter, so the processes of a cluster restarted together do not retry in step.
        await new Promise((r) => setTimeout(r, delay * (0.8 + Math.random() * 0.4)));
        delay = Math.min(max, delay * 2);
      }
    },
  };
}
