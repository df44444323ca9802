import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { CONSENT_TEXT } from '../../src/domain/signing/consent.js';
import { DIALECTS, errorOf, type Harness } from '../harness.js';
import { harnessWithWorker } from '../shared/worker-harness.js';
import { sendTo, twoSignerTemplate } from '../signing/support.js';
import { formsignCli, sealedTwoSignerForm, type SealedForm } from './support.js';

// GET /forms/{id}/evidence (issue 40) on both dialects: the ZIP opens with `unzip -t`; its manifest's
// detached CMS verifies with `openssl cms -verify` against the service certificate; every file's
// SHA-256 is the manifest's; events.json is the form's events as the API gives them; evidence.json
// holds each recipient's reach, opening, consent and signature with IPs and user agents; `formsign
// verify bundle.zip` accepts it and refuses it with one byte changed in any of its files.

const tool = (cmd: string, args: string[], cwd?: string): { status: number | null; out: string; err: string } => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...(cwd ? { cwd } : {}) });
  return { status: r.status, out: r.stdout, err: r.stderr };
};
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

interface Manifest { object: string; form_id: string; signed_by: string; files: Array<{ name: string; sha256: string; size: number }> }
interface RecipientEvidence {
  email: string; signer: number;
  reached: Array<{ kind: string; channel: string; to: string }>;
  opened: { at: string; ip: string; user_agent: string } | null;
  consented: { text: string; utc_offset: string | null } | null;
  signed: { at: string; ip: string; user_agent: string } | null;
}

for (const dialect of DIALECTS) {
  describe(`evidence bundle (${dialect})`, () => {
    const harness = harnessWithWorker(dialect);
    let h: Harness;
    let sealed: SealedForm;
    let zip: Buffer;
    let dir: string;
    before(async () => {
      h = harness();
      sealed = await sealedTwoSignerForm(h, { ip: '203.0.113.9', tzOffset: [60, -300] });
      const res = await h.request({ url: `/api/v1/forms/${sealed.formId}/evidence`, as: h.actors.aTest });
      assert.equal(res.status, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/zip');
      assert.equal(res.headers['content-disposition'], `attachment; filename="${sealed.formId}-evidence.zip"`);
      zip = res.rawPayload;
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-bundle-'));
      fs.writeFileSync(path.join(dir, 'bundle.zip'), zip);
    });

    it('opens with unzip -t; the manifest verifies with openssl cms against the seal certificate; every SHA-256 matches', () => {
      const test = tool('unzip', ['-t', 'bundle.zip'], dir);
      assert.equal(test.status, 0, test.out + test.err);
      assert.match(test.out, /No errors detected/);
      const out = path.join(dir, 'x');
      assert.equal(tool('unzip', ['-q', 'bundle.zip', '-d', out], dir).status, 0);
      assert.deepEqual(fs.readdirSync(out).sort(), ['audit-trail.pdf', 'events.json', 'evidence.json', 'manifest.json', 'manifest.json.p7s', 'signed.pdf']);
      const cert = path.join(dir, 'seal.pem');
      fs.writeFileSync(cert, new X509Certificate(h.deps.domain.signingCertificate.certificateDer).toString());
      const cms = tool('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', path.join(out, 'manifest.json.p7s'), '-content', path.join(out, 'manifest.json'), '-CAfile', cert, '-purpose', 'any', '-out', '/dev/null']);
      assert.equal(cms.status, 0, cms.err);
      assert.match(cms.err, /Verification successful/);
      // The same signature over a manifest with one character changed does not verify.
      const forged = path.join(dir, 'forged.json');
      fs.writeFileSync(forged, fs.readFileSync(path.join(out, 'manifest.json'), 'utf8').replace('"evidence_manifest"', '"evidence_manifesT"'));
      assert.notEqual(tool('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', path.join(out, 'manifest.json.p7s'), '-content', forged, '-CAfile', cert, '-purpose', 'any', '-out', '/dev/null']).status, 0);

      const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')) as Manifest;
      assert.deepEqual([manifest.object, manifest.form_id, manifest.signed_by], ['evidence_manifest', sealed.formId, h.deps.domain.signingCertificate.subject]);
      assert.deepEqual(manifest.files.map((f) => f.name), ['signed.pdf', 'audit-trail.pdf', 'events.json', 'evidence.json']);
      for (const f of manifest.files) {
        const data = fs.readFileSync(path.join(out, f.name));
        assert.deepEqual([f.sha256, f.size], [sha256(data), data.length], f.name);
      }
      assert.ok(fs.readFileSync(path.join(out, 'signed.pdf')).equals(sealed.pdf), 'signed.pdf is the sealed PDF, byte for byte');
      const audit = tool('pdftotext', [path.join(out, 'audit-trail.pdf'), '-']);
      assert.equal(audit.status, 0, audit.err);
      assert.ok(audit.out.replace(/\s+/g, ' ').includes(sha256(sealed.pdf)), 'the audit trail names the sealed PDF by its SHA-256');
    });

    it('events.json is every event of the form as the API gives it; evidence.json says how each recipient was reached, opened, consented and signed', async () => {
      const out = path.join(dir, 'x');
      const events = JSON.parse(fs.readFileSync(path.join(out, 'events.json'), 'utf8')) as Array<{ id: string; type: string }>;
      const api = (await h.request({ url: `/api/v1/forms/${sealed.formId}/events?limit=100`, as: h.actors.aTest })).json<{ data: Array<{ id: string; type: string }> }>().data;
      assert.deepEqual(events, [...api].reverse(), 'the same events, oldest first, as delivered');
      assert.deepEqual(events.map((e) => e.type).filter((t) => t !== 'form.viewed'), ['form.created', 'form.sent', 'form.signed']);

      const evidence = JSON.parse(fs.readFileSync(path.join(out, 'evidence.json'), 'utf8')) as { form_id: string; sealed: { sha256: string }; recipients: RecipientEvidence[] };
      assert.deepEqual([evidence.form_id, evidence.sealed.sha256], [sealed.formId, sha256(sealed.pdf)]);
      assert.deepEqual(evidence.recipients.map((r) => [r.email, r.signer]), [['tenant@example.com', 1], ['landlord@example.com', 2]]);
      for (const [i, r] of evidence.recipients.entries()) {
        assert.ok(r.reached.some((m) => m.kind === 'invite' && m.channel === 'email' && m.to === r.email), `${r.email} was reached by e-mail: ${JSON.stringify(r.reached)}`);
        assert.deepEqual([r.signed?.ip, r.signed?.user_agent], ['203.0.113.9', 'EvidenceTest/1.0']);
        assert.ok(r.signed && !Number.isNaN(Date.parse(r.signed.at)));
        assert.deepEqual([r.consented?.text, r.consented?.utc_offset], [CONSENT_TEXT, ['UTC+01:00', 'UTC-05:00'][i]]);
      }
    });

    it('formsign verify bundle.zip: exit 0; one byte changed in any file of the bundle: exit 3', async () => {
      const ok = await formsignCli(['verify', path.join(dir, 'bundle.zip')], h.dataDir);
      assert.equal(ok.code, 0, ok.out + ok.err);
      assert.match(ok.out, /VERIFIED \(evidence bundle\)/);
      assert.match(ok.out, /manifest signature: valid; signed by .*\(this service\)/);
      assert.match(ok.out, /every file matches the manifest/);
      // Files are stored uncompressed: a byte of a file is a byte of the archive.
      for (const [name, marker] of [['signed.pdf', '%PDF'], ['events.json', '"form.created"'], ['evidence.json', '"consented"'], ['manifest.json', '"evidence_manifest"']] as const) {
        const copy = Buffer.from(zip);
        const at = copy.indexOf(marker);
        assert.ok(at > 0, `${name} is in the archive`);
        copy[at + 2] = copy[at + 2]! ^ 0x01;
        const file = path.join(dir, `changed-${name}.zip`);
        fs.writeFileSync(file, copy);
        const r = await formsignCli(['verify', file, '--json'], h.dataDir);
        assert.equal(r.code, 3, `${name}: ${r.out}${r.err}`);
        const v = JSON.parse(r.out) as { verified: boolean; manifest_signature: { valid: boolean }; file_problems: string[] };
        assert.equal(v.verified, false);
        if (name === 'manifest.json') assert.equal(v.manifest_signature.valid, false, 'a changed manifest breaks its signature');
        else assert.ok(v.file_problems.some((p) => p.startsWith(`${name}: changed`)), `${name}: ${JSON.stringify(v.file_problems)}`);
      }
    });

    it('a form not signed answers 409 form_not_signed; another partition 404', async () => {
      const as = h.actors.aTest;
      const templateId = await twoSignerTemplate(h, as.partition);
      const f = await sendTo(h, as, templateId, ['pending@example.com', 'other@example.com']);
      const pending = await h.request({ url: `/api/v1/forms/${f.formId}/evidence`, as });
      assert.deepEqual([pending.status, errorOf(pending).code], [409, 'form_not_signed']);
      const other = await h.request({ url: `/api/v1/forms/${sealed.formId}/evidence`, as: h.actors.bTest });
      assert.deepEqual([other.status, errorOf(other).code], [404, 'resource_not_found']);
    });
  });
}
