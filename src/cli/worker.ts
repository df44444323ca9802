import type { Deps } from '../deps.js';
import { AppError } from '../domain/errors.js';
import { WorkerLockedError } from '../outbox/sqlite-worker-lock.js';
import { print } from './output.js';

/**
 * `formsign worker`: runs the job worker alone (set WORKER=off on the servers). On PostgreSQL any
 * number may run; on SQLite one process holds the worker and a second is refused with a message.
 * SIGTERM or SIGINT: running jobs get a bounded time to finish, the rest are handed back, then exit.
 */
export async function runWorker(deps: Deps, _args: string[], json: boolean): Promise<void> {
  // Listening before anything is announced: a SIGTERM sent as soon as "running" is read must stop the
  // worker gracefully, not kill it with the signal's default action.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  try {
    // On PostgreSQL the worker LISTENs on a connection of its own: a database still down is waited for.
    await (deps.startUp ? deps.startUp.run(() => deps.worker.start()) : deps.worker.start());
  } catch (error) {
    // The lock message names the file and what to do: printed as a sentence, not a stack.
    if (error instanceof WorkerLockedError) throw new AppError('service_unavailable', error.message);
    throw error;
  }
  print(json, { object: 'worker', id: deps.worker.id, dialect: deps.database.dialect, status: 'running' }, () =>
    `Worker ${deps.worker.id} is running on ${deps.database.dialect}; SIGTERM or Ctrl-C stops it.`,
  );
  await stopRequested;
  await deps.worker.stop();
}
