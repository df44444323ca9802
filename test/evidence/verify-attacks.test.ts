import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { after, before, describe, it } from 'node:test';
import type { CorpusEntry, CorpusManifest } from '../../scripts/attack-corpus/manifest.js';
import type { Verification } from '../../src/pdf/index.js';
import { readPageScript } from '../../src/http/pages/page-scripts.js';
import { createHarness, type Harness } from '../harness.js';

// The attack corpus (issue 34): every file of test/fixtures/pdfs/attacks (made by
// scripts/make-attack-corpus.ts from PDFs sealed by our own code) must get the verdict its
// manifest gives, from POST /api/v1/verify, from the /verify page (its POST and the verdict its own
// verdict.js draws from the answer) and from the compiled `formsign verify` (its JSON and its exit
// status). The server seals with the corpus's certificate (SIGNING_CERT_P12); the CLI is given only
// the data directory, as an operator offline would be (issue 34 item 9).

const DIR = 'test/fixtures/pdfs/attacks';

type Entry = CorpusEntry;

const manifest = JSON.parse(fs.readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as CorpusManifest;

function assertVerdict(v: Verification, e: Entry, via: string): void {
  const at = `${via} on ${e.file} (${e.attack})`;
  assert.equal(v.object, 'verification', at);
  assert.equal(v.issued_by_this_service, e.issued_by_this_service, `${at}: issued_by_this_service`);
  if (e.issued_by_this_service) assert.equal(v.form_id, manifest.form_id, at);
  assert.equal(v.intact, e.intact, `${at}: intact`);
  assert.equal(v.modified_after_signing, e.modified_after_signing, `${at}: modified_after_signing`);
  assert.equal(v.signatures.length, e.signatures.length, `${at}: ${JSON.stringify(v.signatures.map((s) => s.field))}`);
  for (const want of e.signatures) {
    const s = v.signatures.find((x) => x.field === want.field);
    assert.ok(s, `${at}: signature ${want.field}`);
    const seen = `${at}, ${want.field}: ${JSON.stringify({ valid: s.valid, reason: s.reason, level: s.modification_level, changes: s.changes })}`;
    assert.equal(s.kind, want.kind, seen);
    assert.equal(s.valid, want.valid, seen);
    assert.equal(s.modification_level, want.modification_level, seen);
    if (want.no_changes) assert.deepEqual(s.changes, [], seen);
    for (const c of want.changes_include ?? []) {
      assert.ok(s.changes.some((x) => x.kind === c.kind && (c.page === undefined || x.page === c.page) && /^\d+ \d+ R$|^trailer$/.test(x.object)), `${seen}: lists ${JSON.stringify(c)}`);
    }
    if (want.reason_matches) assert.match(s.reason ?? '', new RegExp(want.reason_matches), seen);
    else if (want.valid) assert.equal(s.reason, undefined, seen);
  }
  const verified = v.intact && !v.modified_after_signing && v.signatures.length > 0 && v.signatures.every((s) => s.valid);
  assert.equal(verified, e.verified, `${at}: verified`);
}

/** The page's own verdict script, run as the browser runs it (a classic script defining globals). */
function pageVerdict(): (v: Verification) => [string, string, boolean] {
  const context: Record<string, unknown> = {};
  vm.runInNewContext(readPageScript(new URL('../../src/http/pages/verify/assets/verdict.js', import.meta.url)).toString('utf8'), context);
  return context['formsignVerdict'] as (v: Verification) => [string, string, boolean];
}

/** The compiled CLI (bin/formsign.js runs dist/, rebuilt when stale), with only DATA_DIR to go on. */
function cli(args: string[], dataDir: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/formsign.js', ...args], { env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('the attack corpus: every verdict, from the API, the /verify page and formsign verify', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite', { env: { SIGNING_CERT_P12: path.resolve(DIR, manifest.service_certificate.p12), SIGNING_CERT_PASSWORD: manifest.service_certificate.password } });
  });
  after(() => h.close());

  it('the corpus covers the attacks issue 34 names and the honest updates, each file once', () => {
    const files = manifest.files.map((e) => e.file);
    assert.equal(new Set(files).size, files.length);
    for (const f of ['dss-smuggled-content.pdf', 'page-added.pdf', 'annotation-added.pdf', 'form-field-value-changed.pdf', 'font-replaced.pdf', 'info-rewritten.pdf',
      'signature-after-change.pdf', 'shadow-hide.pdf', 'shadow-replace.pdf', 'shadow-hide-and-replace.pdf', 'content-change-xref-stream.pdf',
      'blta-ltv-update-xref-stream.pdf', 'honest-blta.pdf', 'revoked-signer.pdf', 'pyhanko-blta.pdf', 'pyhanko-blta-classic-no-vri.pdf', 'pyhanko-blta-hybrid.pdf', 'blta-pyhanko-archival-timestamp.pdf']) {
      assert.ok(files.includes(f), f);
      assert.ok(fs.existsSync(path.join(DIR, f)), f);
    }
    assert.ok(manifest.files.filter((e) => !e.verified).length >= 10, 'most files are attacks');
    // Another tool's own B-LTA (as pyHanko writes it): valid, not ours, every later revision an LTV update.
    for (const e of manifest.files.filter((x) => x.file.startsWith('pyhanko-'))) {
      assert.equal(e.verified && e.intact && !e.modified_after_signing && !e.issued_by_this_service, true, e.file);
      assert.ok(e.signatures.some((s) => s.kind === 'signature' && s.modification_level === 'ltv_updates'), e.file);
      assert.ok(e.signatures.some((s) => s.kind === 'document_timestamp'), e.file);
    }
  });

  it('POST /api/v1/verify gives each file its verdict', async () => {
    for (const e of manifest.files) {
      const res = await h.request({ method: 'POST', url: '/api/v1/verify', as: h.actors.aTest, payload: fs.readFileSync(path.join(DIR, e.file)), headers: { 'content-type': 'application/pdf' } });
      assert.equal(res.status, 200, `${e.file}: ${res.body}`);
      assertVerdict(res.json<Verification>(), e, 'POST /api/v1/verify');
    }
  });

  it('the /verify page: its POST answers the same, and the verdict it draws is "Valid" exactly for the files that verify', async () => {
    const verdict = pageVerdict();
    for (const [i, e] of manifest.files.entries()) {
      const res = await h.app.inject({ method: 'POST', url: '/verify', headers: { 'x-formsign-verify': '1', 'content-type': 'application/pdf' }, payload: fs.readFileSync(path.join(DIR, e.file)), remoteAddress: `198.51.100.${i + 1}` });
      assert.equal(res.statusCode, 200, `${e.file}: ${res.body}`);
      const v = res.json<Verification>();
      assertVerdict(v, e, 'POST /verify');
      const [title, detail, good] = verdict(v);
      assert.equal(good, e.verified, `${e.file}: the page says "${title}: ${detail}"`);
      if (e.verified) {
        assert.equal(title, e.issued_by_this_service ? 'Valid: sealed by this service' : 'Valid signatures', e.file);
      } else {
        assert.doesNotMatch(title, /^Valid/, e.file);
        assert.doesNotMatch(detail, /Intact since/, e.file);
      }
      if (e.modified_after_signing && e.intact) {
        assert.equal(title, 'Changed after signing', e.file);
        const contentChange = e.signatures.flatMap((s) => s.changes_include ?? []).find((c) => c.page !== undefined);
        if (contentChange) assert.match(detail, new RegExp(`on page ${contentChange.page}`), `${e.file}: ${detail}`);
      }
    }
    const page = await h.app.inject({ url: '/verify' });
    assert.match(page.body, /<script src="\/assets\/verify\/verdict\.[0-9a-f]{12}\.js"><\/script>/, 'the page loads the verdict script the test ran');
  });

  it('formsign verify (compiled, DATA_DIR only): the same JSON, exit 0 exactly for the files that verify, 3 for the rest', async () => {
    // The server recorded the certificate it seals with (from SIGNING_CERT_P12) in its data directory.
    const record = fs.readFileSync(path.join(h.dataDir, 'signing', 'seal-certificate.pem'), 'utf8');
    assert.match(record, /BEGIN CERTIFICATE/);
    assert.doesNotMatch(record, /PRIVATE KEY/);
    const queue = [...manifest.files];
    const worker = async (): Promise<void> => {
      for (let e = queue.shift(); e; e = queue.shift()) {
        const r = await cli(['verify', path.join(DIR, e.file), '--json'], h.dataDir);
        assert.equal(r.code, e.verified ? 0 : 3, `${e.file}: exit ${r.code} ${r.err}`);
        assertVerdict(JSON.parse(r.out) as Verification, e, 'formsign verify --json');
      }
    };
    await Promise.all([worker(), worker()]);
  });

  it('formsign verify text: our honest seal "issued by this service: yes" from the data directory alone; an attack says what changed, on which page', async () => {
    const honest = await cli(['verify', path.join(DIR, 'honest-blta.pdf')], h.dataDir);
    assert.equal(honest.code, 0, honest.err);
    assert.match(honest.out, /: VERIFIED\n/);
    assert.match(honest.out, new RegExp(`issued by this service: yes \\(form ${manifest.form_id}\\)`));
    assert.match(honest.out, /changed after it: ltv_updates — /);
    const attack = await cli(['verify', path.join(DIR, 'dss-smuggled-content.pdf')], h.dataDir);
    assert.equal(attack.code, 3, attack.err);
    assert.match(attack.out, /NOT VERIFIED/);
    assert.match(attack.out, /modified after signing: yes/);
    assert.match(attack.out, /changed after it: other — .*page content on page 1 \(\d+ 0 R\)/);
    const foreign = await cli(['verify', path.join(DIR, 'pyhanko-blta.pdf')], h.dataDir);
    assert.equal(foreign.code, 0, foreign.err);
    assert.match(foreign.out, /: VERIFIED\n/);
    assert.match(foreign.out, /issued by this service: no\n/);
    assert.match(foreign.out, /signature "Signature1": valid/);
    assert.match(foreign.out, /changed after it: ltv_updates — /);
    assert.doesNotMatch(foreign.out, /changed after it: (none|form_filling|annotations|other)/);
    const revoked = await cli(['verify', path.join(DIR, 'revoked-signer.pdf')], h.dataDir);
    assert.equal(revoked.code, 3);
    assert.match(revoked.out, /why: The signer's certificate is revoked/);
  });
});
