import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChild, waitFor, type Child } from '../outbox/support/processes.js';
import { freePort } from '../shared/free-port.js';
import { seedServiceCertificate } from '../shared/service-certificate.js';

// Issue 35 item 6, on a real full file system: a tmpfs of 8 MiB mounted for this test (the test runs
// as root, as the suite does here) holds DATA_DIR. `serve` used to die at start in openDatabase
// (`pragma journal_mode=WAL`: "disk I/O error", the -shm index cannot be made), and while the disk
// was full every refused write and every job poll wrote an error line (789 in 40 s). Now: it starts,
// serves reads, answers writes 503 storage_unavailable with Retry-After, /readyz says the disk is full,
// the log has one line per kind per 10 s, and writes work again once space is freed.

interface Answer {
  status: number;
  body: string;
  retryAfter: string | null;
}

describe('serve on a full disk (sqlite)', () => {
  const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-fulldisk-'));
  const dataDir = path.join(mount, 'data');
  const filler = path.join(mount, 'filler');
  const children: Child[] = [];
  let port = 0;
  let env: Record<string, string> = {};

  before(async () => {
    // No silent skip: without a mount the test fails and says why.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount]);
    fs.mkdirSync(dataDir);
    port = await freePort();
    env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: 'info' };
    seedServiceCertificate(dataDir, env);
  });
  after(async () => {
    for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    try {
      execFileSync('umount', [mount]);
    } finally {
      fs.rmSync(mount, { recursive: true, force: true });
    }
  });

  const call = async (url: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, { ...init, signal: AbortSignal.timeout(15_000) });
    return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after') };
  };
  const start = async () => {
    const server = startChild(['--import', 'tsx', 'src/main.ts', 'serve'], env);
    children.push(server);
    await waitFor('the banner', () => server.stderr().includes('Formsign is listening on') || server.proc.exitCode !== null, 90_000);
    assert.equal(server.proc.exitCode, null, `serve exited at start; it said:\n${server.stderr()}`);
    return server;
  };
  const stop = async (c: Child) => {
    c.proc.kill('SIGTERM');
    assert.equal(await c.exited, 0, c.stderr());
  };

  it('starts, serves reads, refuses writes 503 storage_unavailable, logs one line per kind, and writes again once space is freed', async () => {
    // A first start on free space: the demo account, its key and the sample template; one form made.
    const first = await start();
    const key = /API key: {2}(fk_test_\S+)/.exec(first.stderr())?.[1];
    assert.ok(key, first.stderr());
    const auth = { authorization: `Bearer ${key}` };
    const templates = JSON.parse((await call('/api/v1/templates', { headers: auth })).body) as { data: Array<{ id: string }> };
    const templateId = templates.data[0]!.id;
    const create = (n: string) =>
      call('/api/v1/forms', { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': n }, body: JSON.stringify({ template_id: templateId, prefill: { full_name: 'Ada Lovelace' } }) });
    const made = await create('before-full');
    assert.equal(made.status, 201, made.body);
    const formId = (JSON.parse(made.body) as { id: string }).id;
    await stop(first);

    // Fill the file system to the last block.
    assert.throws(() => fs.writeFileSync(filler, Buffer.alloc(16 * 1024 * 1024)), { code: 'ENOSPC' });
    assert.equal(fs.statfsSync(mount).bavail, 0);

    const server = await start();
    assert.match(server.stderr(), /the disk holding .* is full: started with the database opened for this process alone/);
    const health = await call('/healthz');
    assert.equal(health.status, 200);
    const ready = await call('/readyz');
    assert.equal(ready.status, 503, ready.body);
    assert.equal((JSON.parse(ready.body) as { error: { code: string } }).error.code, 'storage_unavailable');

    // Reads are served.
    const read = await call(`/api/v1/forms/${formId}`, { headers: auth });
    assert.equal(read.status, 200, read.body);
    assert.equal((JSON.parse(read.body) as { id: string }).id, formId);
    assert.equal((await call('/api/v1/templates', { headers: auth })).status, 200);

    // Writes are refused with the contract's error, 40 of them over ~12 s while the worker polls.
    const startedAt = Date.now();
    for (let i = 0; i < 40; i++) {
      const w = await create(`full-${i}`);
      assert.equal(w.status, 503, w.body);
      assert.equal(w.retryAfter, '30');
      const e = (JSON.parse(w.body) as { error: { type: string; code: string; message: string } }).error;
      assert.deepEqual([e.type, e.code], ['api_error', 'storage_unavailable']);
      await new Promise((r) => setTimeout(r, 300));
    }
    const seconds = (Date.now() - startedAt) / 1000;
    const errorLines = server.stdout().split('\n').filter((l) => /"level":(50|60)/.test(l));
    const stderrLines = server.stderr().split('\n').filter((l) => /^formsign (worker|limits): /.test(l));
    // One line per kind per 10 s: request failures, the worker's claim, the quota flush.
    const intervals = Math.ceil(seconds / 10) + 1;
    assert.ok(errorLines.length <= intervals, `${errorLines.length} error lines in ${seconds} s:\n${errorLines.join('\n')}`);
    assert.ok(errorLines.length >= 1, 'the full disk is logged');
    assert.ok(stderrLines.length <= 2 * intervals, `${stderrLines.length} worker/limits lines in ${seconds} s:\n${stderrLines.join('\n')}`);
    const counted = errorLines.map((l) => (JSON.parse(l) as { suppressed?: number }).suppressed ?? 0).reduce((a, b) => a + b, 0);
    assert.ok(counted + errorLines.length <= 40 && counted > 0, `a line counts what was left out before it (${counted} + ${errorLines.length} of 40)`);

    // Space freed: writes work again, and /readyz is ready once its probe finds room.
    fs.rmSync(filler);
    const again = await create('after-free');
    assert.equal(again.status, 201, again.body);
    await waitFor('/readyz 200', async () => (await call('/readyz')).status === 200, 30_000);
    await stop(server);
  });
});
