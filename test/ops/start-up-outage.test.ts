import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { PG_URL } from '../harness.js';
import { dropDatabase, startChild, waitFor, type Child } from '../outbox/support/processes.js';
import { freePort } from '../shared/free-port.js';
import { seedServiceCertificate } from '../shared/service-certificate.js';
import { startTcpProxy, type TcpProxy } from '../shared/tcp-proxy.js';

// Issue 35 item 5: a database that is down while `formsign serve` or `formsign worker` starts (its
// migrations check, the service secrets, the demo account's bootstrap, the worker's LISTEN) no longer
// ends the process with an unhandled DatabaseUnavailableError. Start-up waits with backoff and says so
// in one line; meanwhile /healthz answers 200 and /readyz 503 naming what it waits for; once the
// database is back the process becomes ready by itself and serves.

interface Probe {
  status: number;
  body: string;
  retryAfter: string | null;
}

async function get(port: number, url: string, init: RequestInit = {}): Promise<Probe> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after') };
}

const count = (text: string, re: RegExp) => text.split('\n').filter((l) => re.test(l)).length;

function tempDataDir(prefix: string, env: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `formsign-${prefix}-`));
  seedServiceCertificate(dir, env);
  return dir;
}

/** While start-up waits: alive, /healthz 200, /readyz and the API 503 with Retry-After, naming `part`. */
async function assertWaiting(child: Child, port: number, part: string): Promise<void> {
  assert.equal(child.proc.exitCode, null, `the server exited while waiting; it said:\n${child.stderr()}`);
  const health = await get(port, '/healthz');
  assert.deepEqual({ status: health.status, body: JSON.parse(health.body) as unknown }, { status: 200, body: { status: 'ok' } });
  const ready = await get(port, '/readyz');
  assert.equal(ready.status, 503, ready.body);
  assert.equal(ready.retryAfter, '5');
  const e = (JSON.parse(ready.body) as { error: { type: string; code: string; message: string; request_id: string } }).error;
  assert.equal(e.type, 'api_error');
  assert.equal(e.code, 'service_unavailable');
  assert.equal(e.message, `Not ready: the server is starting (waiting for ${part}).`);
  assert.match(e.request_id, /^req_/);
  const api = await get(port, '/api/v1/templates', { headers: { authorization: 'Bearer fk_test_whatever' } });
  assert.equal(api.status, 503, api.body);
  assert.equal(api.retryAfter, '5');
  assert.equal((JSON.parse(api.body) as { error: { code: string } }).error.code, 'service_unavailable');
}

/** The first start's banner: the demo key works, and the sample template is there. */
async function assertServes(child: Child, port: number): Promise<void> {
  await waitFor('the banner', () => child.stderr().includes('Formsign is listening on') || child.proc.exitCode !== null, 90_000);
  assert.equal(child.proc.exitCode, null, `the server exited; it said:\n${child.stderr()}`);
  await waitFor('/readyz 200', async () => (await get(port, '/readyz')).status === 200, 30_000);
  const key = /API key: {2}(fk_test_\S+)/.exec(child.stderr())?.[1];
  assert.ok(key, `the first start shows the demo key:\n${child.stderr()}`);
  const list = await get(port, '/api/v1/templates', { headers: { authorization: `Bearer ${key}` } });
  assert.equal(list.status, 200, list.body);
  assert.equal((JSON.parse(list.body) as { data: Array<{ name: string }> }).data.length, 1);
}

async function stopChild(child: Child): Promise<number | null> {
  if (child.proc.exitCode !== null) return child.proc.exitCode;
  child.proc.kill('SIGTERM');
  return child.exited;
}

describe('start-up while PostgreSQL refuses connections (postgres)', () => {
  const name = `formsign_startup_${process.pid}_${Date.now()}`;
  let proxy: TcpProxy | undefined;
  const children: Child[] = [];
  const dirs: string[] = [];
  after(async () => {
    for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await proxy?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    await dropDatabase(name).catch(() => undefined);
  });

  const env = (extra: Record<string, string>) => {
    const through = new URL(PG_URL);
    through.hostname = '127.0.0.1';
    through.port = String(proxy!.port);
    through.pathname = `/${name}`;
    const e: Record<string, string> = { DATABASE_URL: through.toString(), LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...extra };
    const dir = tempDataDir('startup-pg', e);
    dirs.push(dir);
    return { ...e, DATA_DIR: dir };
  };

  it('`serve` waits with /healthz 200 and /readyz 503, logs one line, then becomes ready and serves', async () => {
    const target = new URL(PG_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.cut();
    const port = await freePort();
    // The database does not exist yet either: it is created once the server can be reached.
    const server = startChild(['--import', 'tsx', 'src/main.ts', 'serve'], env({ PORT: String(port) }));
    children.push(server);
    await waitFor('/healthz from the starting server', async () => (await get(port, '/healthz').catch(() => ({ status: 0 }))).status === 200, 60_000);
    // Several attempts refused (the backoff keeps trying), all while one line was logged.
    await waitFor('three refused attempts', () => proxy!.refused >= 3 || server.proc.exitCode !== null, 30_000);
    await assertWaiting(server, port, 'the database (PostgreSQL)');
    assert.equal(count(server.stderr(), /waiting for the database/), 1, server.stderr());
    await proxy.restore();
    await assertServes(server, port);
    assert.equal(count(server.stderr(), /waiting for the database/), 1, server.stderr());
    assert.equal(count(server.stderr(), /the database \(PostgreSQL\) is available again after/), 1, server.stderr());
    assert.doesNotMatch(server.stderr(), /DatabaseUnavailableError|Error: /);
    assert.equal(await stopChild(server), 0);
  });

  it('`serve` survives the database going away again during the bootstrap steps', async () => {
    // The store exists (the test before made it); a later start reads its accounts and starts the worker.
    const port = await freePort();
    const server = startChild(['--import', 'tsx', 'src/main.ts', 'serve'], env({ PORT: String(port) }));
    children.push(server);
    // Cut as soon as the first connections have passed: somewhere in the start-up's own steps.
    await waitFor('a first connection', () => proxy!.passed > 0 || server.proc.exitCode !== null, 60_000);
    await proxy!.cut(3000);
    await waitFor('the banner', () => server.stderr().includes('Formsign is listening on') || server.proc.exitCode !== null, 90_000);
    assert.equal(server.proc.exitCode, null, `the server exited; it said:\n${server.stderr()}`);
    await waitFor('/readyz 200', async () => (await get(port, '/readyz')).status === 200, 30_000);
    assert.ok(count(server.stderr(), /waiting for the database/) <= 1, server.stderr());
    assert.equal(await stopChild(server), 0);
  });

  it('`formsign worker` waits too, then runs; SIGTERM during the wait ends it cleanly', async () => {
    await proxy!.cut();
    const worker = startChild(['--import', 'tsx', 'src/main.ts', 'worker'], env({ WORKER: 'off' }));
    children.push(worker);
    await waitFor('the waiting line', () => worker.stderr().includes('waiting for the database') || worker.proc.exitCode !== null, 60_000);
    const refused = proxy!.refused;
    await waitFor('two more refused attempts', () => proxy!.refused >= refused + 2 || worker.proc.exitCode !== null, 30_000);
    assert.equal(worker.proc.exitCode, null, `the worker exited; it said:\n${worker.stderr()}`);
    assert.equal(count(worker.stderr(), /waiting for the database/), 1, worker.stderr());
    await proxy!.restore();
    await waitFor('the worker to run', () => worker.stdout().includes('is running') || worker.proc.exitCode !== null, 60_000);
    assert.equal(worker.proc.exitCode, null, worker.stderr());
    assert.equal(await stopChild(worker), 0);

    await proxy!.cut();
    const waiting = startChild(['--import', 'tsx', 'src/main.ts', 'worker'], env({ WORKER: 'off' }));
    children.push(waiting);
    await waitFor('the waiting line', () => waiting.stderr().includes('waiting for the database') || waiting.proc.exitCode !== null, 60_000);
    assert.equal(await stopChild(waiting), 0, waiting.stderr());
    await proxy!.restore();
  });
});

describe('start-up while another process holds the SQLite database (sqlite)', () => {
  const dirs: string[] = [];
  const children: Child[] = [];
  after(async () => {
    for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('`serve` waits for the lock with /healthz 200 and /readyz 503, then becomes ready and serves', async () => {
    const port = await freePort();
    const e: Record<string, string> = { LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port) };
    const dir = tempDataDir('startup-sqlite', e);
    dirs.push(dir);
    // An operator's long exclusive transaction (a restore, a manual repair) on the database file.
    const holder = new SQLite(path.join(dir, 'formsign.sqlite'));
    holder.exec('begin exclusive; create table operator_note (x integer);');
    const server = startChild(['--import', 'tsx', 'src/main.ts', 'serve'], { ...e, DATA_DIR: dir });
    children.push(server);
    try {
      await waitFor('the waiting line', () => server.stderr().includes('waiting for the database') || server.proc.exitCode !== null, 60_000);
      await assertWaiting(server, port, 'the database (SQLite)');
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(count(server.stderr(), /waiting for the database/), 1, server.stderr());
    } finally {
      holder.exec('commit');
      holder.close();
    }
    await assertServes(server, port);
    assert.equal(await stopChild(server), 0);
  });
});
