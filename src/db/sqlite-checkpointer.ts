import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./checkpoint-worker.mjs', import.meta.url);

export interface Checkpointer {
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /** WAL frames at which the worker, having copied them, asks the writer to start the WAL over. */
  restartFrames?: number;
  /** Called when the WAL is (nearly) all copied and long: a checkpoint by the writer now is cheap. */
  onRestartWanted?: () => void;
  onError?: (message: string) => void;
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
  const worker = new Worker(WORKER_URL, { workerData: { file, intervalMs: opts.intervalMs ?? 200, restartFrames: opts.restartFrames ?? 4000 } });
  worker.on('message', (m: { error?: string; restart?: boolean }) => {
    if (m.error) opts.onError?.(m.error);
    if (m.restart) opts.onRestartWanted?.();
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => worker.once('exit', () => ((exited = true), resolve())));
  worker.on('error', (e) => opts.onError?.(String(e)));
  // After the listeners: adding a 'message' listener refs the worker again.
  worker.unref();
  return {
    async stop() {
      if (exited) return;
      worker.ref(); // keep the loop alive until the final checkpoint is done
      worker.postMessage('stop');
      await exit;
    },
  };
}
