import type pg from 'pg';
import { createPgClient, type OnConnectionError } from '../db/pg-pool.js';
import { jobChannel } from './wakeup.js';

/** Waits between attempts to get the LISTEN connection back: soon at first, then every few seconds. */
const RETRY_MS = [250, 500, 1000, 2000, 5000];

/**
 * LISTENs on the job channel of the database's current schema (the one enqueue NOTIFYs on, see
 * wakeup.ts) over a connection of its own. When the server ends that connection (a restart, a
 * failover, pg_terminate_backend) it reconnects and LISTENs again, retrying until it succeeds;
 * meanwhile the dispatcher's slow poll covers, and a signal after each reconnect finds what was
 * committed while no one listened. Returns the function that stops listening.
 */
export async function listenForJobs(
  connectionString: string,
  pgSchema: string | undefined,
  onSignal: () => void,
  log: (line: string) => void = () => undefined,
  onConnectionError: OnConnectionError = () => undefined,
): Promise<() => Promise<void>> {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  const scheduleReconnect = () => {
    if (closed || retry) return;
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
    failures++;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch((err: unknown) => {
        log(`job notifications: reconnecting failed (${err instanceof Error ? err.message : String(err)}); trying again.`);
        scheduleReconnect();
      });
    }, wait);
  };

  const connect = async (): Promise<void> => {
    const c = createPgClient('listener', { connectionString, ...(pgSchema ? { options: `-c search_path=${pgSchema}` } : {}) }, onConnectionError);
    let lost = false;
    const onLost = (why: string) => {
      if (lost) return;
      lost = true;
      if (client === c) client = undefined;
      void c.end().catch(() => undefined);
      if (closed) return;
      log(`job notifications: connection lost (${why}); polling until it is back.`);
      scheduleReconnect();
    };
    c.on('notification', () => onSignal());
    // The reporting client already counted the error; this listener only brings the LISTEN back. An
    // 'end' without an 'error' (the server closed cleanly) is a loss too.
    c.on('error', (error) => onLost(error.message));
    c.on('end', () => onLost('the connection ended'));
    try {
      await c.connect();
      const { rows } = await c.query<{ schema: string }>('select current_schema() as schema');
      const channel = jobChannel(rows[0]?.schema ?? 'public');
      await c.query(`listen "${channel.replaceAll('"', '""')}"`);
    } catch (err) {
      lost = true;
      await c.end().catch(() => undefined);
      throw err;
    }
    if (closed) {
      lost = true;
      await c.end();
      return;
    }
    client = c;
    failures = 0;
    // Jobs committed while no one listened are found by this first look.
    onSignal();
  };

  await connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    await c?.end().catch(() => undefined);
  };
}
