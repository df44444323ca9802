import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listDataSubjectRequests } from '../../src/db/repositories/data-subjects.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { FakeClock } from '../outbox/support/sending.js';
import { twoSignerTemplate } from '../signing/support.js';
import { allBlobKeys, createAndSend, grepDatabase, markersOf, RestartableS3, signedMarkedForm } from './purge-support.js';

// A person's data (issue 40) on both dialects with the S3 store: GET /data-subjects/export gives a ZIP
// (unzip -t) of every form where the address is a recipient — what we hold about them, their signed
// PDF, the audit trails; POST /data-subjects/erase purges every finished one (nothing of it left in
// any table or the store) and lists the ones on hold or in flight; both are recorded without the address.

const T0 = '2026-06-01T12:00:00.000Z';

interface Erasure { object: string; erased: string[]; refused: Array<{ form_id: string; status: string; code: string }> }

const unzip = (args: string[], cwd: string) => spawnSync('unzip', args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });

for (const dialect of DIALECTS) {
  describe(`data subjects: export and erase (${dialect}, S3)`, () => {
    let h: Harness;
    let clock: FakeClock;
    let s3: RestartableS3;
    let templateId: string;
    let dir: string;

    before(async () => {
      s3 = new RestartableS3();
      await s3.start();
      await s3.createBucket();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock, env: s3.env() });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-subject-'));
    });
    after(async () => {
      await h.close();
      await s3.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('export: a ZIP of every form of the address (record, signed PDF, audit trail); erase: the finished ones purged, held and in-flight ones listed; both recorded without the address', async () => {
      const as = h.actors.aTest;
      const m = markersOf(`d${dialect.slice(0, 2)}`);
      const signed = await signedMarkedForm(h, as, templateId, m, clock);
      await h.deps.worker.runDue();
      const { form: inFlight } = await createAndSend(h, as, templateId, { recipients: [{ email: m.emailA, channel: 'email', name: m.nameA }] });
      const { form: held } = await createAndSend(h, as, templateId, { recipients: [{ email: m.emailA, channel: 'email' }] });
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${held.id}/void`, as, json: {} })).status, 200);
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${held.id}/hold`, as, json: { reason: 'Dispute 7' } })).status, 200);
      const { form: someoneElse } = await createAndSend(h, as, templateId, { recipients: [{ email: `someone-else.${dialect}@else.example`, channel: 'email' }] });

      // The export, asked with the address in another case: the same person.
      const res = await h.request({ url: `/api/v1/data-subjects/export?email=${encodeURIComponent(m.emailA.toUpperCase())}`, as });
      assert.equal(res.status, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/zip');
      fs.writeFileSync(path.join(dir, 'export.zip'), res.rawPayload);
      const tested = unzip(['-t', 'export.zip'], dir);
      assert.equal(tested.status, 0, tested.stdout + tested.stderr);
      const summary = JSON.parse(unzip(['-p', 'export.zip', 'subject.json'], dir).stdout) as { email: string; forms: Array<{ form_id: string; files: string[] }> };
      assert.equal(summary.email, m.emailA);
      const ids = [signed.id, inFlight.id, held.id].sort();
      assert.deepEqual(summary.forms.map((f) => f.form_id).sort(), ids);
      assert.ok(!summary.forms.some((f) => f.form_id === someoneElse.id));
      const files = summary.forms.find((f) => f.form_id === signed.id)!.files;
      assert.deepEqual(files.sort(), [`forms/${signed.id}/audit-trail.pdf`, `forms/${signed.id}/record.json`, `forms/${signed.id}/signed.pdf`]);
      const record = unzip(['-p', 'export.zip', `forms/${signed.id}/record.json`], dir).stdout;
      const parsed = JSON.parse(record) as { recipients: Array<{ email: string; name: string; signed: { user_agent: string } }>; messages: Array<{ to: string; text: string }> };
      assert.deepEqual(parsed.recipients.map((r) => [r.email, r.name, r.signed.user_agent]), [[m.emailA, m.nameA, m.userAgent]]);
      assert.ok(parsed.messages.length > 0 && parsed.messages.every((x) => x.to === m.emailA), 'the messages sent to them, with their text');
      assert.ok(!record.includes(m.emailB) && !record.includes(m.nameB), 'nothing of the other signer');
      const pdf = unzip(['-p', 'export.zip', `forms/${signed.id}/signed.pdf`], dir);
      assert.ok(pdf.stdout.startsWith('%PDF'));

      // The erasure: the signed form purged, the held and the in-flight ones refused and listed.
      const erase = await h.request({ method: 'POST', url: '/api/v1/data-subjects/erase', as, json: { email: m.emailA } });
      assert.equal(erase.status, 200, erase.body);
      const e = erase.json<Erasure>();
      assert.deepEqual(e.erased, [signed.id]);
      assert.deepEqual(e.refused.map((r) => [r.form_id, r.status, r.code]).sort(), [[held.id, 'voided', 'form_on_hold'], [inFlight.id, 'sent', 'form_not_deletable']].sort());
      assert.ok(!erase.body.includes(m.emailA), 'the answer does not repeat the address');
      for (let i = 0; i < 5; i++) await h.deps.worker.runDue();
      assert.equal((await h.request({ url: `/api/v1/forms/${signed.id}`, as })).json<{ status: string }>().status, 'deleted');
      const formOnly = [m.tenantName, m.landlordName, m.metadata, m.emailB, m.nameB, m.userAgent];
      assert.deepEqual(await grepDatabase(h, formOnly), [], 'nothing of the erased form in any table');
      assert.deepEqual((await allBlobKeys(h)).filter((k) => k.includes(signed.id)), [], 'nor in the store');
      assert.equal((await h.request({ url: `/api/v1/forms/${inFlight.id}`, as })).json<{ status: string }>().status, 'sent');

      // Recorded (the account's data-subject requests), by SHA-256: the address itself is nowhere there.
      const requests = await listDataSubjectRequests(h.deps.database.db, as.partition);
      const byKind = new Map(requests.map((r) => [r.kind, [r.subject_sha256, r.forms, (JSON.parse(r.refused) as string[]).sort(), r.requested_by]]));
      assert.deepEqual(byKind.get('export'), [sha256Hex(m.emailA), 3, [], as.keyId]);
      assert.deepEqual(byKind.get('erase'), [sha256Hex(m.emailA), 1, [held.id, inFlight.id].sort(), as.keyId]);
      assert.equal(requests.length, 2);
      assert.ok(!JSON.stringify(requests).includes(m.emailA));
    });

    it('bad input and other partitions: both or neither address 400; a phone without its country code 400; another partition finds nothing', async () => {
      const as = h.actors.aTest;
      const both = await h.request({ method: 'POST', url: '/api/v1/data-subjects/erase', as, json: { email: 'a@b.example', phone: '+14155550123' } });
      assert.deepEqual([both.status, errorOf(both).code], [400, 'parameter_invalid']);
      const none = await h.request({ url: '/api/v1/data-subjects/export', as });
      assert.deepEqual([none.status, errorOf(none).code], [400, 'parameter_missing']);
      const national = await h.request({ url: '/api/v1/data-subjects/export?phone=4155550123', as });
      assert.deepEqual([national.status, errorOf(national).code, errorOf(national).param], [400, 'parameter_invalid', 'phone']);
      const unknown = await h.request({ method: 'POST', url: '/api/v1/data-subjects/erase', as, json: { email: 'a@b.example', name: 'x' } });
      assert.deepEqual([unknown.status, errorOf(unknown).code], [400, 'parameter_unknown']);
      const { form } = await createAndSend(h, as, templateId, { recipients: [{ email: 'partition@subject.example', channel: 'email' }] });
      const other = await h.request({ method: 'POST', url: '/api/v1/data-subjects/erase', as: h.actors.bTest, json: { email: 'partition@subject.example' } });
      assert.equal(other.status, 200, other.body);
      assert.deepEqual([other.json<Erasure>().erased, other.json<Erasure>().refused], [[], []]);
      assert.equal((await h.request({ url: `/api/v1/forms/${form.id}`, as })).json<{ status: string }>().status, 'sent');
    });
  });
}
