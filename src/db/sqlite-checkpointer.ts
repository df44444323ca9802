import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./checkpoint-worker.mjs', import.meta.url);

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off the request thread. SQLite's automatic checkpoint runs inside whichever
 * commit crosses the threshold: it copies every page back into the database file and fsyncs both files,
 * and measured here that was two thirds of a form create's cost. A worker thread with its own connection
 * does the copy concurrently; the request thread keeps a far-off automatic checkpoint only as a backstop
 * should the worker fall behind or die.
 */
export function startCheckpointer(file: string, opts: { intervalMs?: number; restartPages?: number; onError?: (message: string) => void } = {}): Checkpointer {
  const worker = new Worker(WORKER_URL, { workerData: { file, intervalMs: opts.intervalMs ?? 1000, restartPages: opts.restartPages ?? 8000 } });
  worker.on('message', (m: { error?: string }) => {
    if (m.error) opts.onError?.(m.error);
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
