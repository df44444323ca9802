import type { Config } from '../config.js';
import { isDatabaseBusy } from '../http/database-busy.js';
import { createStartUpWait, type StartUpWait } from '../lib/start-up-wait.js';
import { isStorageFull } from '../lib/storage-health.js';

// What `formsign serve` and `formsign worker` wait for at start-up instead of ending (issue 35 item 5):
// the database while it refuses or drops connections, and disk space for the files a start writes.
// Operator commands (`formsign migrate`, `accounts list`, …) do not wait: they answer at once.

/** A part that is not there yet, as a start-up check found it (checkPostgres's "Cannot reach …"). */
export class PartUnavailableError extends Error {
  constructor(readonly part: string, readonly reason: string) {
    super(reason);
    this.name = 'PartUnavailableError';
  }
}

// Connection-level failures of a client that connects on its own (not through the pool, which turns
// them into FORMSIGN_DB_UNAVAILABLE): refused, reset, timed out, unreachable, a name not resolving yet.
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

export function startUpWait(config: Config, log: (line: string) => void = (line) => console.error(line)): StartUpWait {
  const database = `the database (${config.databaseUrl ? 'PostgreSQL' : 'SQLite'})`;
  return createStartUpWait({
    log,
    transient(err) {
      if (err instanceof PartUnavailableError) return { part: err.part, reason: err.reason };
      const reason = err instanceof Error ? err.message || String((err as { code?: unknown }).code) : String(err);
      if (isStorageFull(err)) return { part: 'disk space in DATA_DIR', reason };
      if (isDatabaseBusy(err)) return { part: database, reason };
      const code = (err as { code?: unknown } | null)?.code;
      if (config.databaseUrl && typeof code === 'string' && (NETWORK.has(code) || /^(08...|57P0[123]|53300)$/.test(code))) return { part: database, reason };
      if (config.databaseUrl && err instanceof Error && /Connection terminated|timeout expired/i.test(err.message)) return { part: database, reason };
      return undefined;
    },
  });
}
