import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./checkpoint-worker.mjs', import.meta.url);

export interface Checkpointer {
  stop(): Promise<void>;
  /** The current worker thread's id (a new one after a restart); for tests. */
  restarts(): number;
  /** Terminates the current worker as a crash would; for tests. */
  kill(): Promise<void>;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /** WAL frames at which the worker, having copied them, asks the writer to start the WAL over. */
  restartFrames?: number;
  /** Called when the WAL is (nearly) all copied and long: a checkpoint by the writer now is cheap. */
  onRestartWanted?: () => void;
  onError?: (message: string) => void;
  /** Pause before a worker that died is started again (default 1 s). */
  restartDelayMs?: number;
}

/**
 * Moves the copying part of WAL checkpoints off the request thread. SQLite's automatic checkpoint runs
 * inside whichever commit crosses its threshold: it copies every page of the WAL back into the database
 * file and fsyncs both, and measured here that was two thirds of a form create's cost. A worker thread
 * with its own connection copies concurrently (PASSIVE, never blocking the writer).
 *
 * It cannot start the WAL over, though: only a write that begins when the WAL is fully copied does
 * that, and under steady writes the worker never finishes between two commits. So once the WAL is long
 * the worker asks the writer (`onRestartWanted`) to checkpoint between two commits: the worker has copied
 * nearly everything, so that costs little, and the writer's next write starts the WAL over.
 */
export function startCheckpointer(file: string, opts: CheckpointerOptions = {}): Checkpointer {
  let restartDelayMs = opts.restartDelayMs ?? 1000;
  let worker: Worker;
  let stopping = false;
  let exited: Promise<void>;
  let restartTimer: NodeJS.Timeout | undefined;

  const start = (): void => {
    worker = new Worker(WORKER_URL, { workerData: { file, intervalMs: opts.intervalMs ?? 200, restartFrames: opts.restartFrames ?? 4000 } });
    worker.on('message', (m: { error?: string; restart?: boolean }) => {
      if (m.error) opts.onError?.(m.error);
      if (m.restart) opts.onRestartWanted?.();
    });
    worker.on('error', (e) => opts.onError?.(String(e)));
    exited = new Promise<void>((resolve) =>
      worker.once('exit', (code) => {
        resolve();
        if (stopping) return;
        // A checkpointer that died (an uncaught error, out of memory) would leave the WAL to grow until
        // SQLite's far-off backstop; start another after a pause that doubles (to a minute), so a
        // crash loop cannot spin.
        opts.onError?.(`the checkpoint worker exited (code ${code}); restarting it in ${restartDelayMs} ms`);
        restartTimer = setTimeout(start, restartDelayMs);
        restartTimer.unref();
        restartDelayMs = Math.min(restartDelayMs * 2, 60_000);
      }),
    );
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
  };
  start();

  return {
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      worker.ref(); // keep the loop alive until the final checkpoint is done
      worker.postMessage('stop');
      await exited;
    },
    restarts: () => worker.threadId,
    kill: () => worker.terminate().then(() => undefined),
  };
}
