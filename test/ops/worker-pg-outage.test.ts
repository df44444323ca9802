import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { PG_URL } from '../harness.js';
import { processStore, startChild, waitFor, type Child } from '../outbox/support/processes.js';
import { seedSentMessage, startSmtpSink } from '../outbox/support/sending.js';
import { seedTemplate } from '../shared/seed.js';

// A standalone `formsign worker` (WORKER=off servers; test/db/pg-connection-loss.test.ts covers the
// worker inside `serve`) survives PostgreSQL ending every session and then refusing connections for
// two seconds: it stays up, reconnects, LISTENs again, and delivers what is sent afterwards.

describe('`formsign worker` while PostgreSQL ends and refuses connections (postgres)', () => {
  let store: Awaited<ReturnType<typeof processStore>>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let admin: pg.Client;
  let dbName = '';
  let worker: Child;

  before(async () => {
    sink = await startSmtpSink();
    store = await processStore('postgres', 'wpgdown', { SMTP_URL: sink.url, WORKER: 'off' });
    dbName = new URL(store.env['DATABASE_URL']!).pathname.slice(1);
    admin = new pg.Client({ connectionString: PG_URL });
    admin.on('error', () => undefined);
    await admin.connect();
  });
  after(async () => {
    await admin.query(`alter database ${dbName} allow_connections true`).catch(() => undefined);
    worker?.proc.kill('SIGKILL');
    await admin.end();
    await store.drop();
    await sink.close();
  });

  const terminateAll = async () => {
    const { rows } = await admin.query<{ ok: boolean }>('select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]);
    return rows.filter((r) => r.ok).length;
  };
  const alive = () => assert.equal(worker.proc.exitCode, null, `the worker exited; it said:\n${worker.stderr()}`);

  it('stays up through both, then delivers a message sent after the outage', async () => {
    const account = await createAccount(store.deps.domain, { name: 'Outage Ltd', plan: 'paid' });
    const p = { accountId: account.id, mode: 'test' as const };
    const templateId = await seedTemplate(store.asHarness, p, 'Lease', new Date().toISOString());
    worker = startChild(['--import', 'tsx', 'src/main.ts', 'worker'], store.env);
    await waitFor('the worker to run', () => worker.stdout().includes('is running'), 60_000);
    await seedSentMessage(store.deps.domain, p, templateId, { channel: 'email', to: 'before@example.com' });
    await waitFor('the first delivery', () => sink.received.some((m) => m.envelopeTo.includes('before@example.com')), 60_000);

    assert.ok((await terminateAll()) >= 1, 'sessions ended');
    await admin.query(`alter database ${dbName} allow_connections false`);
    await terminateAll();
    await new Promise((r) => setTimeout(r, 2000));
    alive();
    await admin.query(`alter database ${dbName} allow_connections true`);
    await waitFor('the worker to LISTEN again', async () => {
      const { rows } = await admin.query("select 1 from pg_stat_activity where datname = $1 and query like 'listen %'", [dbName]);
      return rows.length > 0;
    }, 60_000).catch((e: unknown) => {
      throw new Error(`${String(e)}; worker said: ${worker.stderr()}`);
    });
    alive();
    assert.match(worker.stderr(), /PostgreSQL connection \((main|replayable|listener)\) failed or was ended by the server/);

    await seedSentMessage(store.deps.domain, p, templateId, { channel: 'email', to: 'after@example.com' });
    await waitFor('the delivery after the outage', () => sink.received.some((m) => m.envelopeTo.includes('after@example.com')), 60_000).catch((e: unknown) => {
      throw new Error(`${String(e)}; worker said: ${worker.stderr()}`);
    });
    alive();
    worker.proc.kill('SIGTERM');
    assert.equal(await worker.exited, 0, worker.stderr());
  });
});
