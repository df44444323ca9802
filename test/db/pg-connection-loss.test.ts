import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { PG_URL } from '../harness.js';
import { processStore, startChild, waitFor, type Child } from '../outbox/support/processes.js';
import { startSmtpSink } from '../outbox/support/sending.js';
import { seedTemplate } from '../shared/seed.js';

// PostgreSQL ending the server's connections (a restart, a failover, pg_terminate_backend) or refusing
// new ones for a while: the server process stays up, /healthz answers throughout, a write answers 2xx
// or 503 with Retry-After (never a 500, never a hang), writes resume once the database is back, every
// write that got a 2xx is stored, and the worker in the same process delivers again.
//
// The server runs as a child process so that a crash shows as an exit. The test has a database of its
// own (made and dropped here) and only ever terminates that database's sessions.

interface Outcome { status: number; ms: number; id?: string; code?: string; retryAfter?: string | null }

const METRICS_TOKEN = 'pgdown-metrics-token-0123456789';

describe('PostgreSQL connections ended or refused (postgres)', () => {
  let store: Awaited<ReturnType<typeof processStore>>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let dbName: string;
  let admin: pg.Client;
  let keys: string[];
  let templateId: string;
  let server: Child;
  let base = '';

  before(async () => {
    sink = await startSmtpSink();
    store = await processStore('postgres', 'pgdown', { SMTP_URL: sink.url, METRICS_TOKEN });
    dbName = new URL(store.env['DATABASE_URL']!).pathname.slice(1);
    assert.match(dbName, /^formsign_pgdown_/);
    // The admin session is on the shared database; it never terminates a session of that one.
    admin = new pg.Client({ connectionString: PG_URL });
    admin.on('error', () => undefined);
    await admin.connect();
    const account = await createAccount(store.deps.domain, { name: 'Outage Ltd', plan: 'paid' });
    // Several keys: the load below stays under each key's per-minute limit on form creation.
    keys = [];
    for (let i = 0; i < 4; i++) keys.push((await createApiKey(store.deps.domain, { accountId: account.id, mode: 'test' })).key);
    templateId = await seedTemplate(store.asHarness, { accountId: account.id, mode: 'test' }, 'Lease', new Date().toISOString());
    server = startChild(['--import', 'tsx', 'src/main.ts', 'serve'], { ...store.env, PORT: '0', HOST: '127.0.0.1' });
    await waitFor('the server to listen', () => {
      base = /http:\/\/127\.0\.0\.1:(\d+)/.exec(`${server.stdout()}\n${server.stderr()}`)?.[0] ?? '';
      return base !== '';
    }, 60_000).catch((e: unknown) => {
      throw new Error(`${String(e)}; server said: ${server.stdout()} ${server.stderr()}`);
    });
  });

  after(async () => {
    if (process.env['PGDOWN_DEBUG']) console.log(`SERVER STDERR:\n${server.stderr()}\nSERVER STDOUT:\n${server.stdout()}`);
    await admin.query(`alter database ${dbName} allow_connections true`).catch(() => undefined);
    server?.proc.kill('SIGTERM');
    // The bound's timer is unref'd: a server that exits at once leaves nothing open behind the file.
    if (server) await Promise.race([server.exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
    server?.proc.kill('SIGKILL');
    await admin.end();
    await store.drop();
    await sink.close();
  });

  /** Ends every session of this test's own database (the server's, the worker's LISTEN, this process's pools). */
  const terminateAll = async (): Promise<number> => {
    const { rows } = await admin.query<{ ok: boolean }>('select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [dbName]);
    return rows.filter((r) => r.ok).length;
  };

  let n = 0;
  const createForm = async (): Promise<Outcome> => {
    const key = keys[n++ % keys.length]!;
    const started = performance.now();
    const res = await fetch(`${base}/api/v1/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ template_id: templateId }),
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await res.json()) as { id?: string; error?: { type: string; code: string; message: string; request_id: string } };
    const ms = performance.now() - started;
    if (res.status === 201) return { status: 201, ms, id: body.id! };
    return { status: res.status, ms, code: body.error?.code ?? JSON.stringify(body), retryAfter: res.headers.get('retry-after') };
  };

  /** Asserts each outcome is a 201 or the contract's 503 with Retry-After, answered promptly. */
  const assertHandled = (outcomes: Outcome[]) => {
    for (const o of outcomes) {
      if (o.status === 201) continue;
      assert.deepEqual({ status: o.status, code: o.code, retryAfter: o.retryAfter }, { status: 503, code: 'service_unavailable', retryAfter: '1' }, JSON.stringify(o));
      assert.ok(o.ms < 15_000, `answered in ${Math.round(o.ms)} ms`);
    }
  };

  /** Polls /healthz until stopped; every answer must be 200. */
  const watchHealth = () => {
    const answers: number[] = [];
    let stop = false;
    const done = (async () => {
      while (!stop) {
        const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
        answers.push(res?.status ?? 0);
        await res?.arrayBuffer();
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    return async () => {
      stop = true;
      await done;
      return answers;
    };
  };

  const alive = () => assert.equal(server.proc.exitCode, null, `the server exited; it said:\n${server.stderr()}`);
  const created: string[] = [];

  it('every session ended mid-load: writes answer 201 or 503, the process stays up, then all writes succeed', async () => {
    const health = watchHealth();
    let loading = true;
    const outcomes: Outcome[] = [];
    const clients = Array.from({ length: 4 }, async () => {
      while (loading) outcomes.push(await createForm());
    });
    await waitFor('some writes before the cut', () => outcomes.filter((o) => o.status === 201).length >= 8, 30_000);
    const ended = await terminateAll();
    assert.ok(ended >= 2, `ended ${ended} sessions`);
    const atCut = outcomes.length;
    await waitFor('writes after the cut', () => outcomes.length >= atCut + 12, 30_000);
    loading = false;
    await Promise.all(clients);
    const answers = await health();
    alive();
    assertHandled(outcomes);
    assert.ok(answers.length > 0 && answers.every((s) => s === 200), `healthz: ${answers.join(',')}`);
    // The pools replaced the ended connections: the last writes went through.
    assert.deepEqual(outcomes.slice(-4).map((o) => o.status), [201, 201, 201, 201]);
    created.push(...outcomes.flatMap((o) => (o.id ? [o.id] : [])));
    assert.match(server.stderr(), /PostgreSQL connection \(main\) failed or was ended by the server/);
  });

  it('connections refused for a while: writes answer 503 with Retry-After promptly, and resume once the database is back', async () => {
    const health = watchHealth();
    await admin.query(`alter database ${dbName} allow_connections false`);
    await terminateAll();
    // Two seconds refused: longer than the auth cache, and long enough for the LISTEN client to fail
    // to reconnect a few times.
    const during: Outcome[] = [];
    const until = Date.now() + 2000;
    while (Date.now() < until) {
      during.push(await createForm());
      await new Promise((r) => setTimeout(r, 100));
    }
    alive();
    assert.ok(during.length >= 5, `${during.length} writes during the outage`);
    assert.deepEqual(during.filter((o) => o.status !== 503), [], 'every write during the outage: 503');
    assertHandled(during);
    await admin.query(`alter database ${dbName} allow_connections true`);
    const after: Outcome[] = [];
    await waitFor('a write to succeed again', async () => {
      const o = await createForm();
      after.push(o);
      return o.status === 201;
    }, 30_000);
    assertHandled(after);
    for (let i = 0; i < 4; i++) after.push(await createForm());
    assert.deepEqual(after.slice(-4).map((o) => o.status), [201, 201, 201, 201]);
    created.push(...after.flatMap((o) => (o.id ? [o.id] : [])));
    const answers = await health();
    alive();
    assert.ok(answers.length > 0 && answers.every((s) => s === 200), `healthz: ${answers.join(',')}`);

    // Every write that was answered 201 is stored (read through this process's own pools, which
    // recovered from the same cuts).
    const stored = await store.deps.database.db.selectFrom('forms').select('id').where('id', 'in', created).execute();
    assert.equal(stored.length, created.length);

    // The losses were counted per pool, for an operator to see.
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(metrics.status, 200);
    const text = await metrics.text();
    const count = Number(/^formsign_database_connection_errors_total\{pool="main"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    assert.ok(count >= 2, text.split('\n').filter((l) => l.includes('connection_errors')).join('\n'));
  });

  it('the worker survives: a send after the outage is delivered', async () => {
    alive();
    const form = await createForm();
    assert.equal(form.status, 201);
    const res = await fetch(`${base}/api/v1/forms/${form.id}/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ recipients: [{ channel: 'email', email: 'after.outage@example.com' }] }),
    });
    assert.equal(res.status, 200, await res.text());
    await waitFor('the message to be delivered', () => sink.received.some((m) => m.envelopeTo.includes('after.outage@example.com')), 60_000).catch((e: unknown) => {
      throw new Error(`${String(e)}; server said: ${server.stderr()}`);
    });
    // The LISTEN connection was lost (and counted), came back and LISTENs again on the job channel.
    assert.match(server.stderr(), /PostgreSQL connection \(listener\) failed or was ended by the server/);
    await waitFor('the worker to LISTEN again', async () => {
      const { rows } = await admin.query("select 1 from pg_stat_activity where datname = $1 and query like 'listen %'", [dbName]);
      return rows.length > 0;
    }, 30_000);
    alive();
  });
});
