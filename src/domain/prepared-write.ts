import type { WriteUnit } from '../db/handles.js';

/**
 * A use case's write, prepared: its reads and checks (and any file it stores first) are done, and the
 * unit makes the write and returns what the answer is made of. The HTTP layer runs it through
 * `transact` and writes the request's idempotent answer in the same transaction (http/routes/route.ts
 * `defineWriteRoute`), so a crash leaves both or neither. A use case that writes in more than one
 * transaction prepares its last one.
 */
export type PreparedWrite<R> = WriteUnit<R>;

/** For callers without an answer to store (the CLI, the dashboard, tests): prepare, then commit. */
export async function commit<R>(deps: { transact: <T>(unit: WriteUnit<T>) => Promise<T> }, prepared: Promise<PreparedWrite<R>>): Promise<R> {
  return deps.transact(await prepared);
}
