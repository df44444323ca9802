import pg from 'pg';
import { jobChannel } from './wakeup.js';

/**
 * LISTENs on the job channel of the database's current schema (the one enqueue NOTIFYs on, see
 * wakeup.ts) over a connection of its own, reconnecting after a loss; meanwhile the dispatcher's slow
 * poll covers. Returns the function that stops listening.
 */
export async function listenForJobs(
  connectionString: string,
  pgSchema: string | undefined,
  onSignal: () => void,
  log: (line: string) => void = () => undefined,
): Promise<() => Promise<void>> {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString, ...(pgSchema ? { options: `-c search_path=${pgSchema}` } : {}) });
    c.on('notification', () => onSignal());
    c.on('error', (error) => {
      log(`job notifications: connection lost (${error.message}); polling until it is back.`);
      void c.end().catch(() => undefined);
      if (client === c) client = undefined;
      if (!closed) retry = setTimeout(() => void connect().catch(() => undefined), 1000);
    });
    await c.connect();
    const { rows } = await c.query<{ schema: string }>('select current_schema() as schema');
    const channel = jobChannel(rows[0]?.schema ?? 'public');
    await c.query(`listen "${channel.replaceAll('"', '""')}"`);
    if (closed) {
      await c.end();
      return;
    }
    client = c;
    // Jobs committed while no one listened are found by this first look.
    onSignal();
  };

  await connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
    client = undefined;
  };
}
