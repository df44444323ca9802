import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { listPurgeBlobs } from '../../src/db/repositories/form-purge.js';
import { documentPageSizes } from '../../src/domain/forms/document-pages.js';
import { purgeFormFiles } from '../../src/domain/forms/purge-files.js';
import { purgePastRetention, setRetention } from '../../src/domain/forms/retention.js';
import { setFormSealing } from '../../src/db/repositories/form-sealing.js';
import { recordSealedForm } from '../../src/domain/signing/record-sealed-form.js';
import { buildSealedPdf, type SealDeps } from '../../src/domain/signing/seal-form.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { FakeClock } from '../outbox/support/sending.js';
import { twoSignerTemplate } from '../signing/support.js';
import { startReceiver } from '../webhooks/support/receiver.js';
import { createWebhook } from '../webhooks/support/webhooks.js';
import { postSign, signatureOf, tokenOf } from './support.js';
import { allBlobKeys, createAndSend, grepDatabase, markersOf, RestartableS3, signedMarkedForm, tablesWithoutPurgeRule } from './purge-support.js';

// DELETE /forms/{id} (issue 40) on both dialects with the S3 file store (s3rver): a finished form is
// purged down to its tombstone — no value, address, name or user agent of it is left in any text
// column of any table, nor any of its files in the store — its events keep ids and types, a webhook
// hears form.deleted, POST /verify still recognises its sealed PDF; a draft is removed; a form in
// flight is refused; the store being down answers 503 and the purge finishes later; a purge stopped
// midway continues; a seal that loses to a deletion leaves no file behind.

const T0 = '2026-06-01T12:00:00.000Z';

interface Tombstone {
  id: string;
  status: string;
  name: string | null;
  template_id: string | null;
  deleted_at: string;
  fields: unknown[];
  recipients: unknown[];
  metadata: Record<string, string>;
  tombstone: { sealed_sha256: string | null; recipients: number; signatures: number; events: number; files: string };
}

for (const dialect of DIALECTS) {
  describe(`DELETE /forms/{id} (${dialect}, S3)`, () => {
    let h: Harness;
    let clock: FakeClock;
    let s3: RestartableS3;
    let rx: Awaited<ReturnType<typeof startReceiver>>;
    let templateId: string;
    let release: (() => void) | undefined;
    let holdNext = false;
    let held: Promise<void> | undefined;
    const heldStarted: Array<() => void> = [];

    before(async () => {
      s3 = new RestartableS3();
      await s3.start();
      await s3.createBucket();
      rx = await startReceiver();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, {
        clock,
        env: { ...s3.env(), WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.001' },
        // The seal race: the next seal after `holdNext` waits here, its PDF signed and not yet stored.
        afterSeal: async () => {
          if (!holdNext) return;
          holdNext = false;
          held = new Promise<void>((resolve) => (release = resolve));
          for (const f of heldStarted.splice(0)) f();
          await held;
        },
      });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
    });
    after(async () => {
      release?.();
      await h.close();
      await rx.close();
      await s3.close();
    });

    it('purges a signed form to its tombstone: nothing personal left in any table or the file store; events keep ids and types; form.deleted; verify still knows the PDF; idempotent', async () => {
      const as = h.actors.aTest;
      assert.deepEqual(await tablesWithoutPurgeRule(h), [], 'every table of the schema has a rule in PURGE_PLAN');
      await createWebhook(h, as, rx.url, ['form.deleted']);
      const m = markersOf(`a${dialect.slice(0, 2)}`);
      const blobsBefore = new Set(await allBlobKeys(h));
      const form = await signedMarkedForm(h, as, templateId, m, clock);
      await h.deps.worker.runDue();
      const pdfRes = await h.request({ url: `/api/v1/forms/${form.id}/signed-pdf?format=base64`, as });
      assert.equal(pdfRes.status, 200, pdfRes.body);
      const signedPdf = Buffer.from(pdfRes.json<{ data: string }>().data, 'base64');
      const sha = createHash('sha256').update(signedPdf).digest('hex');
      // Rendered once, so the cached filled document is among what must go.
      assert.equal((await h.request({ url: `/api/v1/forms/${form.id}/pdf`, as })).status, 200);
      const markers = Object.values(m);
      assert.ok((await grepDatabase(h, markers)).length >= markers.length - 1, 'the markers are there before the purge');
      assert.ok((await allBlobKeys(h)).some((k) => k.includes(form.id)), "the form's files are there before the purge");
      const eventsBefore = (await h.request({ url: `/api/v1/forms/${form.id}/events?limit=100`, as })).json<{ data: Array<{ id: string; type: string }> }>().data;

      clock.advance(60_000);
      const res = await h.request({ method: 'DELETE', url: `/api/v1/forms/${form.id}`, as });
      assert.equal(res.status, 200, res.body);
      const t = res.json<Tombstone>();
      assert.deepEqual(
        [t.id, t.status, t.name, t.template_id, t.deleted_at, t.fields, t.recipients, t.metadata],
        [form.id, 'deleted', null, templateId, clock.now().toISOString(), [], [], {}],
      );
      assert.deepEqual(t.tombstone, { sealed_sha256: sha, recipients: 2, signatures: 2, events: eventsBefore.length + 1, files: 'deleted' });
      assert.deepEqual((await h.request({ url: `/api/v1/forms/${form.id}`, as })).json<Tombstone>(), t, 'GET answers the tombstone');

      // Nothing personal anywhere in the database, nor any of its files in the store.
      assert.deepEqual(await grepDatabase(h, markers), []);
      const blobsAfter = await allBlobKeys(h);
      assert.deepEqual(blobsAfter.filter((k) => !blobsBefore.has(k)), [], 'no file the form added is left');

      // Events: the same ids and types, then form.deleted; no payload names anyone.
      const events = await h.request({ url: `/api/v1/forms/${form.id}/events?limit=100`, as });
      const after = events.json<{ data: Array<{ id: string; type: string }> }>().data;
      assert.deepEqual(after.slice(1).map((e) => [e.id, e.type]), eventsBefore.map((e) => [e.id, e.type]));
      assert.equal(after[0]!.type, 'form.deleted');
      for (const mk of markers) assert.ok(!events.body.includes(mk), `events carry no ${mk}`);

      // The webhook hears form.deleted with the tombstone.
      for (let i = 0; i < 20 && rx.received.length === 0; i++) await h.deps.worker.runDue();
      const delivered = JSON.parse(rx.received[0]!.raw.toString('utf8')) as { type: string; data: { object: Tombstone } };
      assert.deepEqual([delivered.type, delivered.data.object.id, delivered.data.object.status, delivered.data.object.deleted_at], ['form.deleted', form.id, 'deleted', t.deleted_at]);
      for (const mk of markers) assert.ok(!rx.received[0]!.raw.toString('utf8').includes(mk));

      // A copy of the sealed PDF someone kept is still recognised.
      const verified = await h.request({ method: 'POST', url: '/api/v1/verify', as, payload: signedPdf, headers: { 'content-type': 'application/pdf' } });
      assert.equal(verified.status, 200, verified.body);
      const v = verified.json<{ issued_by_this_service: boolean; form_id: string; form_deleted_at: string }>();
      assert.deepEqual([v.issued_by_this_service, v.form_id, v.form_deleted_at], [true, form.id, t.deleted_at]);

      // Its documents are gone with it; deleting again answers the same tombstone.
      const pdf = await h.request({ url: `/api/v1/forms/${form.id}/pdf`, as });
      assert.deepEqual([pdf.status, errorOf(pdf).code], [404, 'resource_not_found']);
      const signed = await h.request({ url: `/api/v1/forms/${form.id}/signed-pdf?format=base64`, as });
      assert.deepEqual([signed.status, errorOf(signed).code], [409, 'form_not_signed']);
      const again = await h.request({ method: 'DELETE', url: `/api/v1/forms/${form.id}`, as });
      assert.deepEqual([again.status, again.json<Tombstone>()], [200, t]);
      const listed = await h.request({ url: '/api/v1/forms?status=deleted', as });
      assert.deepEqual(listed.json<{ data: Array<{ id: string }> }>().data.map((f) => f.id), [form.id]);
      // Another partition's id is simply not found.
      const other = await h.request({ method: 'DELETE', url: `/api/v1/forms/${form.id}`, as: h.actors.bTest });
      assert.deepEqual([other.status, errorOf(other).code], [404, 'resource_not_found']);
    });

    it('a draft is removed (404 after); a form in flight answers 409 form_not_deletable; a voided one is purged', async () => {
      const as = h.actors.aTest;
      const draft = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId, prefill: { tenant_name: 'Draft Dora' } } });
      const draftId = draft.json<{ id: string }>().id;
      const del = await h.request({ method: 'DELETE', url: `/api/v1/forms/${draftId}`, as });
      assert.equal(del.status, 200, del.body);
      assert.equal(del.json<Tombstone>().status, 'deleted');
      assert.equal((await h.request({ url: `/api/v1/forms/${draftId}`, as })).status, 404);
      assert.equal((await h.request({ url: `/api/v1/forms/${draftId}/events`, as })).status, 404);
      // Its events stay in the feed, emptied, followed by form.deleted: a poller's cursor never vanishes.
      const feed = await h.request({ url: `/api/v1/events?form_id=${draftId}`, as });
      assert.equal(feed.status, 200, feed.body);
      const draftEvents = feed.json<{ data: Array<{ id: string; type: string; data: { object: { id: string; status: string } } }> }>().data;
      assert.deepEqual(draftEvents.map((e) => [e.type, e.data.object.id]), [['form.deleted', draftId], ['form.created', draftId]]);
      assert.equal(draftEvents[0]!.data.object.status, 'deleted');
      const createdId = draftEvents[1]!.id;
      const polled = await h.request({ url: `/api/v1/events?ending_before=${createdId}&limit=100`, as });
      assert.equal(polled.status, 200, `a cursor naming the removed draft's event still works: ${polled.body}`);
      assert.ok(polled.json<{ data: Array<{ id: string }> }>().data.some((e) => e.id === draftEvents[0]!.id), 'the poller sees form.deleted after its cursor');
      assert.equal((await h.request({ url: `/api/v1/events/${createdId}`, as })).status, 200);
      assert.deepEqual(await grepDatabase(h, ['Draft Dora']), []);

      const { form } = await createAndSend(h, as, templateId, { recipients: [{ email: 'flight@purge.example', channel: 'email', name: 'In Flight' }] });
      const refused = await h.request({ method: 'DELETE', url: `/api/v1/forms/${form.id}`, as });
      assert.deepEqual([refused.status, errorOf(refused).code], [409, 'form_not_deletable']);
      assert.match(errorOf(refused).message, /void it first/);
      assert.equal((await h.request({ url: `/api/v1/forms/${form.id}`, as })).json<{ status: string }>().status, 'sent', 'nothing changed');
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/void`, as, json: { reason: 'Voided for Vera Reason' } })).status, 200);
      const purged = await h.request({ method: 'DELETE', url: `/api/v1/forms/${form.id}`, as });
      assert.equal(purged.status, 200, purged.body);
      assert.deepEqual(purged.json<Tombstone>().tombstone, { sealed_sha256: null, recipients: 1, signatures: 0, events: 4, files: 'deleted' });
      await h.deps.worker.runDue();
      assert.deepEqual(await grepDatabase(h, ['flight@purge.example', 'In Flight', 'Vera Reason']), []);
    });

    it("a purge deletes the page sizes of the form's own file (a generated form), never of a template's", async () => {
      const as = h.actors.aTest;
      const p = as.partition;
      const made = await h.request({ method: 'POST', url: '/api/v1/forms/generate', as, json: { prompt: 'Name, email. One person signs.' } });
      assert.equal(made.status, 201, made.body);
      const generatedId = made.json<{ id: string }>().id;
      const { pdf_key: ownKey } = await h.deps.domain.db.selectFrom('forms').select('pdf_key').where('id', '=', generatedId).executeTakeFirstOrThrow();
      const { pdf_key: templateKey } = await h.deps.domain.db.selectFrom('templates').select('pdf_key').where('id', '=', templateId).executeTakeFirstOrThrow();
      // Measured as the signing page would (document-pages.ts); the template's row is kept at import.
      assert.ok(await documentPageSizes(h.deps.domain, p, ownKey));
      assert.ok(await documentPageSizes(h.deps.domain, p, templateKey));
      const rows = (key: string) => h.deps.domain.db.selectFrom('document_pages').select('pdf_key').where('pdf_key', '=', key).execute();
      assert.equal((await rows(ownKey)).length, 1);
      const del = await h.request({ method: 'DELETE', url: `/api/v1/forms/${generatedId}`, as });
      assert.equal(del.status, 200, del.body);
      assert.deepEqual(await rows(ownKey), [], "the generated form's own file's sizes went with it");
      // A form of a template: the template's file (and its sizes) stays for its other forms.
      const draft = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
      assert.equal((await h.request({ method: 'DELETE', url: `/api/v1/forms/${draft.json<{ id: string }>().id}`, as })).status, 200);
      assert.equal((await rows(templateKey)).length, 1, "the template's sizes stay");
    });

    it('the file store down: 503 storage_unavailable with the rows purged and the files "deleting"; a purge stopped midway continues; the job finishes it', async () => {
      const as = h.actors.aTest;
      const m = markersOf(`s${dialect.slice(0, 2)}`);
      const form = await signedMarkedForm(h, as, templateId, m, clock);
      await h.deps.worker.runDue();
      await s3.stop();
      const down = await h.request({ method: 'DELETE', url: `/api/v1/forms/${form.id}`, as });
      assert.deepEqual([down.status, errorOf(down).code], [503, 'storage_unavailable']);
      assert.ok(down.headers['retry-after']);
      const pending = (await h.request({ url: `/api/v1/forms/${form.id}`, as })).json<Tombstone>();
      assert.deepEqual([pending.status, pending.tombstone.files], ['deleted', 'deleting'], 'never reported as kept');
      assert.deepEqual(await grepDatabase(h, Object.values(m)), [], 'the rows are purged already');
      const p = as.partition;
      const listed = await listPurgeBlobs(h.deps.database.db, p, form.id);
      assert.ok(listed.length >= 3, `the files still to delete are listed: ${listed.join(', ')}`);

      // The store is back; a purge that deletes one file and dies (as a kill would stop it) keeps the rest listed.
      await s3.start();
      let deletions = 0;
      const dying = { ...h.deps.domain.blobs, delete: async (key: string) => {
        if (deletions++ === 1) throw new Error('killed');
        await h.deps.domain.blobs.delete(key);
      } };
      await assert.rejects(purgeFormFiles({ db: h.deps.domain.db, transact: h.deps.domain.transact, blobs: dying }, p, form.id), /killed/);
      const left = await listPurgeBlobs(h.deps.database.db, p, form.id);
      assert.equal(left.length, listed.length - 1, 'the file deleted before the stop is no longer listed; the others are');
      assert.equal((await h.request({ url: `/api/v1/forms/${form.id}`, as })).json<Tombstone>().tombstone.files, 'deleting');

      // The form.purge job (retried on its schedule) finishes it.
      for (let i = 0; i < 10 && (await listPurgeBlobs(h.deps.database.db, p, form.id)).length > 0; i++) {
        clock.advance(3_600_000);
        await h.deps.worker.runDue();
      }
      const done = (await h.request({ url: `/api/v1/forms/${form.id}`, as })).json<Tombstone>();
      assert.equal(done.tombstone.files, 'deleted');
      assert.deepEqual((await allBlobKeys(h)).filter((k) => k.includes(form.id)), []);
    });

    it('a seal that loses to a deletion leaves no file: the seal held midway, the form sealed and deleted meanwhile, then the held seal stores and removes its file', async () => {
      const as = h.actors.aTest;
      const m = markersOf(`r${dialect.slice(0, 2)}`);
      holdNext = true;
      const started = new Promise<void>((resolve) => heldStarted.push(resolve));
      // The first seal is held with its PDF made; a second run of the same seal (a retried job) finishes.
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId, prefill: { tenant_name: m.tenantName } } });
      const id = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/send`, as, json: { recipients: [{ email: m.emailA, channel: 'email', name: m.nameA }, { email: m.emailB, channel: 'email', name: m.nameB }] } });
      const recipients = sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients;
      assert.equal((await postSign(h, tokenOf(recipients[0]!.signing_url), signatureOf(1))).statusCode, 200);
      assert.equal((await postSign(h, tokenOf(recipients[1]!.signing_url), signatureOf(2))).statusCode, 200);
      const first = h.deps.worker.runDue();
      await started;
      // While it is held the form is being sealed: still in flight.
      const refused = await h.request({ method: 'DELETE', url: `/api/v1/forms/${id}`, as });
      assert.deepEqual([refused.status, errorOf(refused).code], [409, 'form_not_deletable']);
      // The same seal run again (as a retry whose first run outlived its lease) completes the form.
      const sealDeps: SealDeps = { ...h.deps.domain, seal: async () => ({ pdf: new Uint8Array(Buffer.from(`%PDF-1.7 stand-in seal of ${id}`)), level: 'B-B', tsaFailures: [] }) };
      const built = await buildSealedPdf(sealDeps, as.partition, id);
      assert.ok(built);
      assert.equal(await recordSealedForm(h.deps.domain, as.partition, id, built.pdf, built.recipientIds), true);
      const deleted = await h.request({ method: 'DELETE', url: `/api/v1/forms/${id}`, as });
      assert.equal(deleted.status, 200, deleted.body);
      assert.deepEqual((await allBlobKeys(h)).filter((k) => k.includes(id)), []);
      // The held seal goes on: it stores its file, finds the form deleted, and removes the file again.
      release?.();
      await first;
      assert.deepEqual((await allBlobKeys(h)).filter((k) => k.includes(id)), [], 'the seal did not bring a file back');
      const t = (await h.request({ url: `/api/v1/forms/${id}`, as })).json<Tombstone>();
      assert.deepEqual([t.status, t.tombstone.files], ['deleted', 'deleted']);
      assert.deepEqual(await grepDatabase(h, Object.values(m)), []);
    });

    it('a form whose seal failed for good (every recipient signed, sealing failed) cannot be voided but can be deleted; the seal does not come back', async () => {
      const as = h.actors.aTest;
      const m = markersOf(`f${dialect.slice(0, 2)}`);
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId, prefill: { tenant_name: m.tenantName } } });
      const id = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/send`, as, json: { recipients: [{ email: m.emailA, channel: 'email', name: m.nameA }, { email: m.emailB, channel: 'email', name: m.nameB }] } });
      const recipients = sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients;
      assert.equal((await postSign(h, tokenOf(recipients[0]!.signing_url), signatureOf(1))).statusCode, 200);
      assert.equal((await postSign(h, tokenOf(recipients[1]!.signing_url), signatureOf(2))).statusCode, 200);
      // While its seal is pending it is refused; once the seal failed for good (the job dead), it is not.
      const pending = await h.request({ method: 'DELETE', url: `/api/v1/forms/${id}`, as });
      assert.deepEqual([pending.status, errorOf(pending).code], [409, 'form_not_deletable']);
      assert.match(errorOf(pending).message, /seal is being made/);
      await h.deps.domain.transact((trx) => setFormSealing(trx, as.partition, id, { sealing_status: 'failed', sealing_attempts: 12, sealing_error: 'every TSA down', sealing_next_at: null }));
      const voidRes = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/void`, as, json: {} });
      assert.deepEqual([voidRes.status, errorOf(voidRes).code], [409, 'form_not_voidable']);
      const del = await h.request({ method: 'DELETE', url: `/api/v1/forms/${id}`, as });
      assert.equal(del.status, 200, del.body);
      assert.deepEqual([del.json<Tombstone>().status, del.json<Tombstone>().tombstone.sealed_sha256], ['deleted', null]);
      // The seal job still queued runs, finds the form deleted and makes nothing.
      await h.deps.worker.runDue();
      assert.deepEqual((await allBlobKeys(h)).filter((k) => k.includes(id)), []);
      assert.equal((await h.request({ url: `/api/v1/forms/${id}`, as })).json<Tombstone>().status, 'deleted');
      assert.deepEqual(await grepDatabase(h, Object.values(m)), []);
    });

    it('retention is held to the same rule: a seal held midway, the form sealed and purged by retention meanwhile, then the held seal finishes and brings no file back', async () => {
      const as = h.actors.aTest;
      const m = markersOf(`t${dialect.slice(0, 2)}`);
      holdNext = true;
      const started = new Promise<void>((resolve) => heldStarted.push(resolve));
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId, prefill: { tenant_name: m.tenantName } } });
      const id = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/send`, as, json: { recipients: [{ email: m.emailA, channel: 'email', name: m.nameA }, { email: m.emailB, channel: 'email', name: m.nameB }] } });
      const recipients = sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients;
      assert.equal((await postSign(h, tokenOf(recipients[0]!.signing_url), signatureOf(1))).statusCode, 200);
      assert.equal((await postSign(h, tokenOf(recipients[1]!.signing_url), signatureOf(2))).statusCode, 200);
      await setRetention(h.deps.domain, as.partition.accountId, 1);
      try {
        const first = h.deps.worker.runDue();
        await started;
        // Being sealed: retention passes it by, however far past its days (it has not finished).
        clock.advance(3 * 86_400_000);
        await purgePastRetention(h.deps.domain);
        assert.notEqual((await h.request({ url: `/api/v1/forms/${id}`, as })).json<Tombstone>().status, 'deleted');
        // A second run of the same seal completes it; days later retention purges it.
        const sealDeps: SealDeps = { ...h.deps.domain, seal: async () => ({ pdf: new Uint8Array(Buffer.from(`%PDF-1.7 stand-in seal of ${id}`)), level: 'B-B', tsaFailures: [] }) };
        const built = await buildSealedPdf(sealDeps, as.partition, id);
        assert.ok(built);
        assert.equal(await recordSealedForm(h.deps.domain, as.partition, id, built.pdf, built.recipientIds), true);
        clock.advance(2 * 86_400_000);
        assert.ok((await purgePastRetention(h.deps.domain)) >= 1);
        assert.equal((await h.request({ url: `/api/v1/forms/${id}`, as })).json<Tombstone>().status, 'deleted');
        // The held seal goes on: it stores its file, finds the form deleted, and removes it again.
        release?.();
        await first;
        for (let i = 0; i < 5; i++) await h.deps.worker.runDue();
        assert.deepEqual((await allBlobKeys(h)).filter((k) => k.includes(id)), [], 'the seal did not bring a file back');
        assert.deepEqual(await grepDatabase(h, Object.values(m)), []);
      } finally {
        await setRetention(h.deps.domain, as.partition.accountId, null);
      }
    });
  });
}
