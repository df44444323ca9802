import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { DIALECTS } from '../harness.js';
import { processStore, startChild, waitFor, type Child } from '../outbox/support/processes.js';
import { seedSentMessage, startSmtpSink } from '../outbox/support/sending.js';
import { seedTemplate } from '../shared/seed.js';

// SIGTERM in both process types (issue 27): the listener closes at once, a request in flight
// finishes and is answered, a running job finishes within SHUTDOWN_GRACE_MS or is handed back (lease
// released, attempt uncounted) so another worker takes it at once, then the process exits 0. Nothing
// is lost: the handed-back message is delivered by the next worker.

const GRACE_MS = 2000;

/** Starts a POST whose body arrives in two parts; `finish()` sends the rest and resolves with the answer. */
function slowPost(port: number, path: string, key: string, body: string) {
  const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
  const answer = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }));
    });
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return {
    finish: () => {
      req.end(body.slice(half));
      return answer;
    },
  };
}

const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

for (const dialect of DIALECTS) {
  describe(`graceful SIGTERM (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof processStore>>;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let stall = true;
    const stalled: Array<() => void> = [];
    const children: Child[] = [];
    let key = '';
    let templateId = '';
    let p: { accountId: string; mode: 'test' };

    before(async () => {
      sink = await startSmtpSink({ onData: () => (stall ? new Promise((resolve) => stalled.push(() => resolve('accept'))) : 'accept') });
      store = await processStore(dialect, 'sigterm', { SMTP_URL: sink.url, SHUTDOWN_GRACE_MS: String(GRACE_MS) });
      const account = await createAccount(store.deps.domain, { name: 'Shutdown Ltd', plan: 'paid' });
      p = { accountId: account.id, mode: 'test' };
      key = (await createApiKey(store.deps.domain, p)).key;
      templateId = await seedTemplate(store.asHarness, p, 'Lease', new Date().toISOString());
    });
    after(async () => {
      for (const c of children) c.proc.kill('SIGKILL');
      for (const release of stalled.splice(0)) release();
      await store.drop();
      await sink.close();
    });

    const job = (id: string) => store.deps.database.db.selectFrom('outbox').select(['status', 'attempts', 'locked_until', 'locked_by']).where('id', '=', id).executeTakeFirstOrThrow();

    it('`serve`: the request in flight is answered 201 and stored; the stuck job is handed back; exit 0; the next worker delivers it', async () => {
      const seeded = await seedSentMessage(store.deps.domain, p, templateId, { channel: 'email', to: 'handed.back@example.com' });
      const server = startChild(['--import', 'tsx', 'src/main.ts', 'serve'], { ...store.env, PORT: '0', HOST: '127.0.0.1' });
      children.push(server);
      let port = 0;
      await waitFor('the server to listen', () => {
        port = Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(`${server.stdout()}\n${server.stderr()}`)?.[1] ?? 0);
        return port > 0;
      }, 60_000);
      await waitFor('the inline worker to be mid-job', () => stalled.length >= 1, 60_000);
      assert.equal((await job(seeded.jobId)).status, 'running');

      const slow = slowPost(port, '/api/v1/forms', key, JSON.stringify({ template_id: templateId, name: 'In flight during SIGTERM' }));
      await new Promise((r) => setTimeout(r, 200));
      server.proc.kill('SIGTERM');
      await waitFor('the listener to close', async () => !(await connects(port)), 10_000);
      const answer = await slow.finish();
      assert.equal(answer.status, 201, answer.body);
      const form = JSON.parse(answer.body) as { id: string; name: string };
      assert.equal(form.name, 'In flight during SIGTERM');
      assert.equal(await server.exited, 0, server.stderr());

      const stored = await store.deps.database.db.selectFrom('forms').select(['id', 'name']).where('id', '=', form.id).executeTakeFirst();
      assert.deepEqual(stored, { id: form.id, name: 'In flight during SIGTERM' });
      // The SMTP reply never came within the grace: the job was handed back, not left leased.
      const back = await job(seeded.jobId);
      assert.deepEqual({ status: back.status, locked_until: back.locked_until }, { status: 'pending', locked_until: null }, JSON.stringify(back));
      assert.equal(Number(back.attempts), 0, 'the handed-back attempt is not counted');
      assert.match(server.stderr(), /handed back 1 running job\(s\) on stop/);

      // Another worker takes it at once (no lease to wait out) and delivers it.
      stall = false;
      for (const release of stalled.splice(0)) release();
      const worker = startChild(['--import', 'tsx', 'src/main.ts', 'worker'], { ...store.env, WORKER: 'off' });
      children.push(worker);
      await waitFor('the handed-back job to be done', async () => (await job(seeded.jobId)).status === 'done', 60_000).catch((e: unknown) => {
        throw new Error(`${String(e)}; worker said: ${worker.stdout()} ${worker.stderr()}`);
      });
      assert.ok(sink.received.some((m) => m.envelopeTo.includes('handed.back@example.com')));
      worker.proc.kill('SIGTERM');
      assert.equal(await worker.exited, 0, worker.stderr());
    });

    it('`worker`: a job running at SIGTERM that ends within the grace is finished and marked done; exit 0', async () => {
      stall = true;
      const seeded = await seedSentMessage(store.deps.domain, p, templateId, { channel: 'email', to: 'finished@example.com' });
      const worker = startChild(['--import', 'tsx', 'src/main.ts', 'worker'], { ...store.env, WORKER: 'off' });
      children.push(worker);
      await waitFor('the worker to be mid-job', () => stalled.length >= 1, 60_000).catch((e: unknown) => {
        throw new Error(`${String(e)}; worker said: ${worker.stdout()} ${worker.stderr()}`);
      });
      worker.proc.kill('SIGTERM');
      // The SMTP server answers a moment later, inside the grace.
      await new Promise((r) => setTimeout(r, 300));
      stall = false;
      for (const release of stalled.splice(0)) release();
      assert.equal(await worker.exited, 0, worker.stderr());
      const done = await job(seeded.jobId);
      assert.deepEqual({ status: done.status, attempts: Number(done.attempts) }, { status: 'done', attempts: 1 }, JSON.stringify(done));
      assert.ok(sink.received.some((m) => m.envelopeTo.includes('finished@example.com')));
      assert.doesNotMatch(worker.stderr(), /handed back/);
    });
  });
}
