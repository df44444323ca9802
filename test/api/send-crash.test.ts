import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { DIALECTS } from '../harness.js';
import { processStore, startChild, waitFor } from '../outbox/support/processes.js';
import { startSmtpSink } from '../outbox/support/sending.js';
import { seedTemplate } from '../shared/seed.js';

// The send path as a client sees it: a real server process (WORKER=off, so nothing is delivered by
// it) answers 200 to a send, and is SIGKILLed at once. The messages were committed with the send, so a
// `formsign worker` started afterwards delivers each of them, exactly once.

for (const dialect of DIALECTS) {
  describe(`send survives a crash of the server (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof processStore>>;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let key: string;
    let templateId: string;

    before(async () => {
      sink = await startSmtpSink();
      store = await processStore(dialect, 'sendcrash', { SMTP_URL: sink.url });
      const account = await createAccount(store.deps.domain, { name: 'Crash Test Ltd', plan: 'paid' });
      key = (await createApiKey(store.deps.domain, { accountId: account.id, mode: 'test' })).key;
      templateId = await seedTemplate(store.asHarness, { accountId: account.id, mode: 'test' }, 'Lease', new Date().toISOString());
    });
    after(async () => {
      await store.drop();
      await sink.close();
    });

    it('SIGKILL right after the 200: a worker started later delivers every message exactly once', async (t) => {
      const server = startChild(['--import', 'tsx', 'src/main.ts', 'serve'], { ...store.env, WORKER: 'off', PORT: '0', HOST: '127.0.0.1' });
      // Whatever happens below, no server outlives the test (it would keep the test process alive).
      t.after(() => void server.proc.kill('SIGKILL'));
      let base = '';
      await waitFor('the server to listen', () => {
        base = /http:\/\/127\.0\.0\.1:(\d+)/.exec(`${server.stdout()}\n${server.stderr()}`)?.[0] ?? '';
        return base !== '';
      }, 60_000).catch((e: unknown) => {
        throw new Error(`${String(e)}; server said: ${server.stdout()} ${server.stderr()}`);
      });
      const call = async (path: string, body: unknown) => {
        const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: res.status, json: (await res.json()) as { id: string; recipients: Array<{ email: string; signing_url: string }> } };
      };
      const form = await call('/api/v1/forms', { template_id: templateId });
      assert.equal(form.status, 201);
      const addresses = ['ada@example.com', 'grace@example.com', 'edsger@example.com'];
      const sent = await call(`/api/v1/forms/${form.json.id}/send`, { recipients: addresses.map((email, i) => ({ channel: 'email', email, name: `Signer ${i}` })) });
      assert.equal(sent.status, 200);
      server.proc.kill('SIGKILL');
      assert.equal(await server.exited, null, 'killed, not exited');
      assert.equal(sink.received.length, 0, 'the server delivered nothing (WORKER=off)');

      const worker = startChild(['--import', 'tsx', 'src/main.ts', 'worker'], store.env);
      t.after(() => void worker.proc.kill('SIGKILL'));
      try {
        await waitFor('three messages', () => sink.received.length >= 3, 60_000);
        // Give a duplicate the chance to show up before counting.
        const jobs = () => store.deps.database.db.selectFrom('outbox').select('status').where('kind', '=', 'message.deliver').execute();
        await waitFor('every job to be done', async () => (await jobs()).every((j) => j.status === 'done'), 30_000);
      } finally {
        worker.proc.kill('SIGTERM');
        await worker.exited;
      }
      assert.equal(sink.received.length, 3, 'each message exactly once');
      for (const r of sent.json.recipients) {
        const mails = sink.received.filter((m) => m.envelopeTo.includes(r.email));
        assert.equal(mails.length, 1, r.email);
        assert.ok(mails[0]!.parsed.text?.includes(r.signing_url), 'the e-mail carries this recipient’s own link');
      }
      const statuses = await store.deps.database.db.selectFrom('recipients').select('delivery_status').where('form_id', '=', form.json.id).execute();
      assert.deepEqual(statuses.map((s) => s.delivery_status), ['delivered', 'delivered', 'delivered']);
    });
  });
}
