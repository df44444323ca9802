import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import type { Partition } from '../../src/lib/partition.js';
import { DIALECTS } from '../harness.js';
import { processStore, startChild, waitFor } from '../outbox/support/processes.js';
import { SIGN_HEADERS, strokePng, twoSignerTemplate } from './support.js';
import { pdfsig } from '../shared/pdf-tools.js';

// A seal job killed mid-way loses nothing and doubles nothing. The first worker (the real composition
// root, lease 1.5 s) stops its seal job once the PDF is rendered and signed, before it is stored
// (seal-crash-worker.ts, through the `afterSeal` hook of createDeps), and is SIGKILLed there: no chance
// to hand its lease back. A `formsign worker` started afterwards claims the job when the lease runs out
// and seals the form: `signed` once, one `form.signed`, one sealed file, and a PDF pdfsig verifies.

for (const dialect of DIALECTS) {
  describe(`a seal job killed mid-way (${dialect})`, () => {
    let store: Awaited<ReturnType<typeof processStore>>;
    let app: FastifyInstance;
    let key: string;
    let p: Partition;
    let gateDir: string;

    before(async () => {
      store = await processStore(dialect, 'sealcrash', { BASE_URL: 'http://localhost:3000' });
      gateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-sealgate-'));
      // This process serves the API in-process but never starts its worker: only the children seal.
      app = await buildApp(store.deps.http, { logger: false });
      const account = await createAccount(store.deps.domain, { name: 'Seal Crash Ltd', plan: 'paid' });
      p = { accountId: account.id, mode: 'test' };
      key = (await createApiKey(store.deps.domain, { accountId: account.id, mode: 'test' })).key;
    });
    after(async () => {
      await app.close();
      await store.drop();
      fs.rmSync(gateDir, { recursive: true, force: true });
    });

    const api = async <T>(method: 'GET' | 'POST', url: string, json?: unknown) => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) }, ...(json === undefined ? {} : { payload: JSON.stringify(json) }) });
      return { status: res.statusCode, body: res.body, json: () => res.json<T>() };
    };
    const sign = (token: string, values: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json', 'user-agent': 'SealCrash/1.0' }, payload: JSON.stringify({ values, consent: true }) });

    it('SIGKILL while the seal job runs; after the restart the form is signed once, with one form.signed and one sealed file that verifies', async (t) => {
      const db = store.deps.database.db;
      const templateId = await twoSignerTemplate(store.asHarness, p);
      const created = await api<{ id: string }>('POST', '/api/v1/forms', { template_id: templateId });
      assert.equal(created.status, 201, created.body);
      const formId = created.json().id;
      const sent = await api<{ recipients: Array<{ signing_url: string }> }>('POST', `/api/v1/forms/${formId}/send`, {
        recipients: [{ email: 'tenant@example.com', channel: 'email', name: 'Ada Lovelace' }, { email: 'landlord@example.com', channel: 'email', name: 'Charles Babbage' }],
      });
      assert.equal(sent.status, 200, sent.body);
      const [tenant, landlord] = sent.json().recipients.map((r) => /\/sign\/([A-Za-z0-9_-]{43})$/.exec(r.signing_url)?.[1] ?? assert.fail(r.signing_url));
      const first = await sign(tenant!, { tenant_name: 'Ada Lovelace', tenant_signature: { image: strokePng(), method: 'drawn' } });
      assert.equal(first.statusCode, 200, first.body);
      const second = await sign(landlord!, { landlord_name: 'Charles Babbage', landlord_signature: { image: strokePng(), method: 'typed' } });
      assert.equal(second.statusCode, 200, second.body);

      const sealJobs = async () => (await db.selectFrom('outbox').selectAll().where('kind', '=', 'form.seal').execute()).filter((j) => (JSON.parse(j.payload) as { form_id?: string }).form_id === formId);
      const signedEvents = async () => (await db.selectFrom('events').select('id').where('form_id', '=', formId).where('type', '=', 'form.signed').execute()).length;
      const sealedFiles = () => db.selectFrom('sealed_files').selectAll().where('form_id', '=', formId).execute();
      const formRow = async () => db.selectFrom('forms').select(['status', 'completed_at']).where('id', '=', formId).executeTakeFirstOrThrow();
      const signedDir = path.join(store.env['DATA_DIR']!, 'files', p.accountId, p.mode, 'signed');
      const storedFiles = () => (fs.existsSync(signedDir) ? fs.readdirSync(signedDir).filter((f) => f.startsWith(formId)) : []);

      const queued = await sealJobs();
      assert.equal(queued.length, 1, 'the last signature enqueued one seal job');
      assert.equal(queued[0]!.status, 'pending');

      const gate = path.join(gateDir, formId);
      const killed = startChild(['--import', 'tsx', 'test/signing/seal-crash-worker.ts'], { ...store.env, SEAL_GATE_DIR: gateDir, TEST_LEASE_MS: '1500' });
      // Whatever happens below, no worker outlives the test (it would keep the runner alive).
      t.after(() => void killed.proc.kill('SIGKILL'));
      await waitFor('the seal job to be signed and not yet stored', () => {
        if (killed.proc.exitCode !== null) throw new Error(`the first worker exited with ${killed.proc.exitCode}`);
        return fs.existsSync(gate);
      }, 120_000).catch((e: unknown) => {
        throw new Error(`${String(e)}; worker said: ${killed.stdout()} ${killed.stderr()}`);
      });
      killed.proc.kill('SIGKILL');
      assert.equal(await killed.exited, null, 'killed, not exited');

      // Mid-way for sure: the job was running under the dead worker's lease, the PDF was sealed in
      // memory only, and nothing of its outcome exists.
      const atKill = await sealJobs();
      assert.equal(atKill.length, 1);
      assert.equal(atKill[0]!.status, 'running');
      // Normally its first attempt; a machine stalled past the 1.5 s lease may have claimed it again.
      const killedAttempt = atKill[0]!.attempts;
      assert.ok(killedAttempt >= 1);
      assert.ok(atKill[0]!.locked_until, 'a lease is held by the dead worker');
      assert.notEqual((await formRow()).status, 'signed');
      assert.equal(await signedEvents(), 0);
      assert.equal((await sealedFiles()).length, 0);
      assert.deepEqual(storedFiles(), []);

      // The real `formsign worker` (default lease): it claims the job once the dead worker's lease has run out.
      const restarted = startChild(['--import', 'tsx', 'src/main.ts', 'worker'], { ...store.env, WORKER: 'off' });
      t.after(() => void restarted.proc.kill('SIGKILL'));
      try {
        await waitFor('the seal job to be done after the restart', async () => (await sealJobs())[0]?.status === 'done', 120_000);
      } catch (e) {
        throw new Error(`${String(e)}; job: ${JSON.stringify(await sealJobs())}; worker said: ${restarted.stdout()} ${restarted.stderr()}`);
      } finally {
        restarted.proc.kill('SIGTERM');
        assert.equal(await restarted.exited, 0, restarted.stderr());
      }

      const [job] = await sealJobs();
      assert.ok(job!.attempts > killedAttempt, `claimed again after the kill (attempts: ${job!.attempts})`);
      const form = await formRow();
      assert.equal(form.status, 'signed');
      assert.ok(form.completed_at);
      assert.equal(await signedEvents(), 1, 'exactly one form.signed');
      const files = await sealedFiles();
      assert.equal(files.length, 1, 'one sealed file reference');
      assert.deepEqual(storedFiles(), [path.basename(files[0]!.blob_key)], 'one sealed PDF in the blob store, the referenced one');
      const listed = await api<{ data: Array<{ type: string }> }>('GET', `/api/v1/forms/${formId}/events?limit=100`);
      assert.deepEqual(listed.json().data.map((e) => e.type).filter((type) => type === 'form.signed'), ['form.signed']);

      const res = await api<{ data: string; sha256: string; size: number }>('GET', `/api/v1/forms/${formId}/signed-pdf?format=base64`);
      assert.equal(res.status, 200, res.body);
      const body = res.json();
      const pdf = Buffer.from(body.data, 'base64');
      assert.equal(pdf.byteLength, body.size);
      assert.equal(createHash('sha256').update(pdf).digest('hex'), body.sha256);
      assert.equal(body.sha256, files[0]!.sha256);
      const verdict = pdfsig(pdf);
      assert.match(verdict, /Signature is Valid\./);
      assert.match(verdict, /Total document signed/);
      assert.match(verdict, /ETSI\.CAdES\.detached/);
    });
  });
}
