import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { DIALECTS, errorOf, type Harness } from '../harness.js';
import { harnessWithWorker } from '../shared/worker-harness.js';
import { CONSENT_TEXT } from '../../src/domain/signing/consent.js';
import { setAccountLocale } from '../../src/domain/accounts/set-account-locale.js';
import { t } from '../../src/lib/i18n/index.js';
import { sealedTwoSignerForm, type SealedForm } from './support.js';

// The fuller audit page of a two-signer form, in the sealed PDF and alone (GET …/audit-trail), read
// back with poppler (pdftotext, pdfinfo, pdfimages) and rendered with pdftoppm; the signed PDF's
// /Title is the form's name and its /Producer names Formsign.

function withFile<T>(pdf: Buffer, run: (file: string, dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-audit-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    fs.writeFileSync(file, pdf);
    return run(file, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const tool = (cmd: string, args: string[]): string => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `${cmd}: ${r.stderr}`);
  return r.stdout;
};
// pdftotext breaks long lines where the page wraps them: compare with whitespace collapsed.
const flat = (s: string): string => s.replace(/\s+/g, ' ');

for (const dialect of DIALECTS) {
  describe(`audit trail of a two-signer form (${dialect})`, () => {
    const harness = harnessWithWorker(dialect);
    let h: Harness;
    let sealed: SealedForm;
    before(async () => {
      h = harness();
      sealed = await sealedTwoSignerForm(h, { tzOffset: [120, -330] });
    });

    it('the sealed PDF: title is the form name, producer Formsign; its audit page has signatures, consent, authentication, time zones, sender and completion', () => {
      withFile(sealed.pdf, (file) => {
        const info = tool('pdfinfo', [file]);
        assert.match(info, /^Title:\s+Residential lease$/m);
        assert.match(info, /^Producer:\s+Formsign$/m);
        const text = flat(tool('pdftotext', ['-layout', file, '-']));
        assert.match(text, /Sent by Account A/);
        assert.match(text, /Signing link sent by e-mail to tenant@example\.com/);
        assert.match(text, /Signing link sent by e-mail to landlord@example\.com/);
        assert.match(text, /Time zone at signing UTC\+02:00/);
        assert.match(text, /Time zone at signing UTC-05:30/);
        assert.ok(text.includes(flat(`"${CONSENT_TEXT}"`)), 'the consent as agreed, quoted');
        assert.match(text, /Agreed \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
        assert.match(text, /Signature \(drawn\)/);
        assert.match(text, /Signature \(typed\)/);
        assert.match(text, /COMPLETED Completed \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC: all 2 recipients signed/);
        // Filled and sealed in one parse (issue 36): no filled file exists, so no hash of one is claimed.
        assert.match(text, /Original template SHA-256 [0-9a-f]{64}/);
        assert.doesNotMatch(text, /Final document SHA-256/);
        // Both signature images are drawn in the fields and again on the audit page.
        const images = tool('pdfimages', ['-list', file]).trim().split('\n').slice(2);
        assert.ok(images.length >= 4, `images: ${images.length}`);
      });
    });

    it('GET …/audit-trail: the audit page alone as a PDF, stating the sealed file\'s SHA-256 and the same template SHA-256', async () => {
      const res = await h.request({ url: `/api/v1/forms/${sealed.formId}/audit-trail`, as: h.actors.aTest });
      assert.equal(res.status, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(res.headers['content-disposition'], `attachment; filename="${sealed.formId}-audit-trail.pdf"`);
      const alone = flat(withFile(res.rawPayload, (file) => tool('pdftotext', ['-layout', file, '-'])));
      const inSeal = flat(withFile(sealed.pdf, (file) => tool('pdftotext', ['-layout', file, '-'])));
      const templateSha = (t: string) => /Original template SHA-256 ([0-9a-f]{64})/.exec(t)?.[1];
      assert.ok(templateSha(alone));
      assert.equal(templateSha(alone), templateSha(inSeal), 'the same hash as the sealed page states');
      assert.ok(!alone.includes('Final document SHA-256') && !inSeal.includes('Final document SHA-256'), 'neither claims a filled-document hash');
      assert.ok(alone.includes(`Signed PDF SHA-256 ${createHash('sha256').update(sealed.pdf).digest('hex')}`));
      assert.match(alone, /not signed itself/);
      assert.match(alone, /Signing link sent by e-mail to landlord@example\.com/);
      if (process.env.AUDIT_PNG_DIR) {
        withFile(res.rawPayload, (file) => tool('pdftoppm', ['-png', '-r', '60', file, path.join(process.env.AUDIT_PNG_DIR!, `audit-${dialect}`)]));
        withFile(sealed.pdf, (file) => tool('pdftoppm', ['-png', '-r', '60', file, path.join(process.env.AUDIT_PNG_DIR!, `sealed-${dialect}`)]));
      }
    });

    it('GET …/audit-trail keeps the language the seal drew its pages in, after the account\'s default changes', async () => {
      const accountId = h.actors.aTest.partition.accountId;
      await setAccountLocale(h.deps.domain, accountId, 'de');
      try {
        const res = await h.request({ url: `/api/v1/forms/${sealed.formId}/audit-trail`, as: h.actors.aTest });
        assert.equal(res.status, 200, res.body);
        const alone = flat(withFile(res.rawPayload, (file) => tool('pdftotext', ['-layout', file, '-'])));
        assert.match(alone, /Original template SHA-256 [0-9a-f]{64}/, 'drawn in English, as the sealed pages were');
        assert.ok(!alone.includes(t('de', 'audit.title')), 'not in the account\'s new default');
      } finally {
        await setAccountLocale(h.deps.domain, accountId, 'default');
      }
    });

    it('a form that has not ended: 409 form_not_signed; another partition: 404', async () => {
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: (await h.request({ url: `/api/v1/forms/${sealed.formId}`, as: h.actors.aTest })).json<{ template_id: string }>().template_id } });
      assert.equal(created.status, 201, created.body);
      const draft = await h.request({ url: `/api/v1/forms/${created.json<{ id: string }>().id}/audit-trail`, as: h.actors.aTest });
      assert.equal(draft.status, 409);
      assert.equal(errorOf(draft).code, 'form_not_signed');
      const other = await h.request({ url: `/api/v1/forms/${sealed.formId}/audit-trail`, as: h.actors.aLive });
      assert.equal(other.status, 404);
    });
  });
}
