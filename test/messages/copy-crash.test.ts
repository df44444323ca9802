import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { setNotifySettings } from '../../src/domain/accounts/notify-settings.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import type { Partition } from '../../src/lib/partition.js';
import { DIALECTS, type Actor, type Harness } from '../harness.js';
import { processStore, startChild, waitFor } from '../outbox/support/processes.js';
import { startSmtpSink } from '../outbox/support/sending.js';
import { twoSignerTemplate } from '../signing/support.js';
import { mailsTo, sendForm, signBoth } from './support.js';

// kill -9 between the last signature and the copies: the first worker (the real composition root,
// lease 1.5 s) is held inside the seal job once the PDF is signed and before it is stored
// (test/signing/seal-crash-worker.ts) and SIGKILLed there. A `formsign worker` started afterwards
// seals the form and sends each copy and the completed notice exactly once: they are written in the
// transaction that records the seal, which commits once whatever ran before it.

for (const dialect of DIALECTS) {
  describe(`completed copies across a kill -9 (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof processStore>>;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let app: FastifyInstance;
    let as: Actor;
    let gateDir: string;

    before(async () => {
      sink = await startSmtpSink();
      store = await processStore(dialect, 'copycrash', { BASE_URL: 'http://localhost:3000', SMTP_URL: sink.url, MAIL_FROM: 'sign@formsign.test' });
      gateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-copygate-'));
      // This process serves the API and the signing page but never starts its worker: only the children work.
      app = await buildApp(store.deps.http, { logger: false });
      const account = await createAccount(store.deps.domain, { name: 'Crash Rentals', plan: 'paid' });
      const p: Partition = { accountId: account.id, mode: 'test' };
      const key = await createApiKey(store.deps.domain, { accountId: account.id, mode: 'test' });
      as = { key: key.key, keyId: key.id, partition: p };
      await setNotifySettings(store.deps.domain, account.id, { notify_email: 'office@crash.test' });
    });
    after(async () => {
      await app.close();
      await store.drop();
      await sink.close();
      fs.rmSync(gateDir, { recursive: true, force: true });
    });

    it('SIGKILL mid-seal, then a new worker: every copy and the notice are sent exactly once', async (t) => {
      // The message helpers need a harness's request and inject; the app above is this store's.
      const h = {
        ...store.asHarness,
        app,
        request: async (o: { method?: string; url: string; as?: Actor; json?: unknown }) => {
          const res = await app.inject({ method: (o.method ?? 'GET') as 'GET', url: o.url, headers: { authorization: `Bearer ${o.as?.key ?? ''}`, ...(o.json === undefined ? {} : { 'content-type': 'application/json' }) }, ...(o.json === undefined ? {} : { payload: JSON.stringify(o.json) }) });
          return { status: res.statusCode, headers: res.headers, body: res.body, rawPayload: res.rawPayload, json: <T>() => JSON.parse(res.body) as T };
        },
      } as unknown as Harness;
      const db = store.deps.database.db;
      const templateId = await twoSignerTemplate(h, as.partition);
      const f = await sendForm(h, as, templateId, [{ channel: 'email', email: 'tenant@crash.test', name: 'Ada' }, { channel: 'email', email: 'landlord@crash.test', name: 'Charles' }]);
      await signBoth(h, f);

      const killed = startChild(['--import', 'tsx', 'test/signing/seal-crash-worker.ts'], { ...store.env, SEAL_GATE_DIR: gateDir, TEST_LEASE_MS: '1500' });
      t.after(() => void killed.proc.kill('SIGKILL'));
      await waitFor('the seal job to be signed and not yet stored', () => {
        if (killed.proc.exitCode !== null) throw new Error(`the first worker exited with ${killed.proc.exitCode}`);
        return fs.existsSync(path.join(gateDir, f.formId));
      }, 120_000).catch((e: unknown) => {
        throw new Error(`${String(e)}; worker said: ${killed.stdout()} ${killed.stderr()}`);
      });
      killed.proc.kill('SIGKILL');
      assert.equal(await killed.exited, null, 'killed, not exited');
      const copiesAtKill = await db.selectFrom('messages').select('id').where('form_id', '=', f.formId).where('kind', '!=', 'invite').execute();
      assert.deepEqual(copiesAtKill, [], 'killed before the seal committed: no copy written yet');

      const restarted = startChild(['--import', 'tsx', 'src/main.ts', 'worker'], { ...store.env, WORKER: 'off' });
      t.after(() => void restarted.proc.kill('SIGKILL'));
      const open = async () => (await db.selectFrom('outbox').select(['kind', 'status']).where('account_id', '=', as.partition.accountId).execute()).filter((j) => j.status !== 'done');
      try {
        await waitFor('the seal and every message to be done', async () => {
          const sealed = await db.selectFrom('forms').select('status').where('id', '=', f.formId).executeTakeFirstOrThrow();
          return sealed.status === 'signed' && (await open()).length === 0 && mailsTo(sink.received, 'office@crash.test').length >= 1;
        }, 120_000);
        // Long enough for a second copy to show if one were queued.
        await new Promise((r) => setTimeout(r, 1500));
      } catch (e) {
        throw new Error(`${String(e)}; open jobs: ${JSON.stringify(await open())}; worker said: ${restarted.stdout()} ${restarted.stderr()}`);
      } finally {
        restarted.proc.kill('SIGTERM');
        assert.equal(await restarted.exited, 0, restarted.stderr());
      }

      for (const address of ['tenant@crash.test', 'landlord@crash.test']) {
        const copies = mailsTo(sink.received, address).filter((m) => m.parsed.subject === 'Your signed copy of "Residential lease"');
        assert.equal(copies.length, 1, `exactly one copy to ${address}`);
        assert.equal(copies[0]!.parsed.attachments.length, 1);
      }
      const notices = mailsTo(sink.received, 'office@crash.test').filter((m) => m.parsed.subject === 'Completed: "Residential lease"');
      assert.equal(notices.length, 1, 'exactly one completed notice');
      const stored = await db.selectFrom('messages').select('kind').where('form_id', '=', f.formId).where('kind', '!=', 'invite').execute();
      assert.deepEqual(stored.map((m) => m.kind).sort(), ['completed_copy', 'completed_copy', 'notice_completed']);
      assert.equal((await db.selectFrom('sealed_files').select('form_id').where('form_id', '=', f.formId).execute()).length, 1);
    });
  });
}
