import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setAccountLocale } from '../../src/domain/accounts/set-account-locale.js';
import { t } from '../../src/lib/i18n/index.js';
import { createHarness, DIALECTS, type Harness } from '../harness.js';
import { SIGN_HEADERS, sendTo, strokePng, twoSignerTemplate } from '../signing/support.js';

// GET /api/v1/forms/{id}/audit-trail of forms that ended without a seal (issue 25): a declined form
// names who declined, their reason and when; a voided one who withdrew it and why — read back with
// pdftotext. The same trail in the account's language (issue 29): Arabic (right to left, shaped) and
// Japanese are found by pdftotext and drawn with embedded fonts; the consent is quoted as the signer
// was shown it (German here), its language named.

function pdfTool(cmd: string, args: string[], pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-ended-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    fs.writeFileSync(file, pdf);
    const r = spawnSync(cmd, [...args.map((a) => (a === '{file}' ? file : a))], { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(r.status, 0, `${cmd}: ${r.stderr}`);
    if (process.env.AUDIT_PNG_DIR && cmd === 'pdftotext') spawnSync('pdftoppm', ['-png', '-r', '70', file, path.join(process.env.AUDIT_PNG_DIR, `ended-${Date.now()}`)]);
    return r.stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
// pdftotext marks right-to-left runs with bidi controls and breaks lines where the page wraps them.
const text = (pdf: Buffer): string => pdfTool('pdftotext', ['{file}', '-'], pdf).replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/\s+/g, ' ');
const TIME = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/;

for (const dialect of DIALECTS) {
  describe(`audit trail of declined and voided forms (${dialect})`, () => {
    let h: Harness;
    let declinedId: string;
    let voidedId: string;
    before(async () => {
      h = await createHarness(dialect);
      const as = h.actors.aTest;
      const templateId = await twoSignerTemplate(h, as.partition);
      // Declined: the first signer signs (on a German page), the second declines with a reason.
      const d = await sendTo(h, as, templateId, ['tenant@example.com', 'landlord@example.com']);
      declinedId = d.formId;
      const signed = await h.app.inject({
        method: 'POST', url: `/sign/${d.tokens[0]}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' },
        payload: JSON.stringify({ values: { tenant_name: 'Ada Lovelace', tenant_signature: { image: strokePng(), method: 'drawn' } }, consent: true, locale: 'de', utc_offset_minutes: 60 }),
      });
      assert.equal(signed.statusCode, 200, signed.body);
      const declined = await h.app.inject({
        method: 'POST', url: `/sign/${d.tokens[1]}/decline`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' },
        payload: JSON.stringify({ reason: 'The rent in clause 4 is wrong' }),
      });
      assert.equal(declined.statusCode, 200, declined.body);
      // Voided: sent, then withdrawn by the account with a reason.
      const v = await sendTo(h, as, templateId, ['a@example.com', 'b@example.com']);
      voidedId = v.formId;
      const voided = await h.request({ method: 'POST', url: `/api/v1/forms/${voidedId}/void`, as, json: { reason: 'Sent to the wrong tenant' } });
      assert.equal(voided.status, 200, voided.body);
    });
    after(() => h.close());

    const auditTrail = async (formId: string): Promise<Buffer> => {
      const res = await h.request({ url: `/api/v1/forms/${formId}/audit-trail`, as: h.actors.aTest });
      assert.equal(res.status, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/pdf');
      return res.rawPayload;
    };

    it('declined: who declined, the reason and when; the signer before them with the consent they were shown (German); no seal', async () => {
      const s = text(await auditTrail(declinedId));
      assert.match(s, new RegExp(`Ended ${TIME.source}: Signer 2 declined to sign; the form was not completed\\.`));
      assert.match(s, /Reason for declining The rent in clause 4 is wrong/);
      assert.match(s, new RegExp(`Declined ${TIME.source}`), 'the decline in the recipient\'s events, with its time');
      assert.ok(s.includes(`"${t('de', 'sign.consent')}"`.replace(/\s+/g, ' ')), 'the consent quoted in German, as shown');
      assert.match(s, new RegExp(`Agreed ${TIME.source}, as shown in German`));
      assert.match(s, /Time zone at signing UTC\+01:00/);
      assert.match(s, /Sealed by not sealed/);
      assert.match(s, /Final document SHA-256 none: the form ended without being completed/);
      assert.match(s, /ended without being completed; it is not signed itself/);
    });

    it('voided: who withdrew it and why', async () => {
      const s = text(await auditTrail(voidedId));
      assert.match(s, new RegExp(`Ended ${TIME.source}: Account A withdrew \\(voided\\) the form; it was not completed\\.`));
      assert.match(s, /Reason for withdrawing Sent to the wrong tenant/);
      assert.doesNotMatch(s, /Declined \d/);
    });

    it('in the account\'s language: Arabic (shaped, right to left) and Japanese are found by pdftotext, in embedded fonts', async () => {
      const accountId = h.actors.aTest.partition.accountId;
      try {
        await setAccountLocale(h.deps.domain, accountId, 'ar');
        const ar = await auditTrail(voidedId);
        const s = text(ar);
        // Words without the lam-alef ligature, which poppler reads back with its letters swapped.
        for (const word of ['سجل التدقيق', 'المستند', 'سبب السحب', 'Sent to the wrong tenant', 'Account A']) assert.ok(s.includes(word), `${word} in ${s.slice(0, 400)}`);
        assert.match(pdfTool('pdffonts', ['{file}'], ar), /DejaVuSans\S*\s+CID TrueType\s+Identity-H\s+yes\s+\S+\s+yes/);
        await setAccountLocale(h.deps.domain, accountId, 'ja');
        const ja = await auditTrail(declinedId);
        const j = text(ja);
        for (const word of ['監査証跡', '辞退の理由', 'The rent in clause 4 is wrong', '（ドイツ語で表示）']) assert.ok(j.includes(word), `${word} in ${j.slice(0, 400)}`);
        assert.match(pdfTool('pdffonts', ['{file}'], ja), /NotoSansJP\S*\s+CID TrueType\s+Identity-H\s+yes\s+\S+\s+yes/);
      } finally {
        await setAccountLocale(h.deps.domain, accountId, 'default');
      }
    });

    it('a page that names a language it was not shown in is refused (400 parameter_invalid), nothing recorded', async () => {
      const f = await sendTo(h, h.actors.aTest, await twoSignerTemplate(h, h.actors.aTest.partition), ['x@example.com', 'y@example.com']);
      const res = await h.app.inject({
        method: 'POST', url: `/sign/${f.tokens[0]}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' },
        payload: JSON.stringify({ values: { tenant_name: 'X', tenant_signature: { image: strokePng(), method: 'drawn' } }, consent: true, locale: 'xx' }),
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json<{ error: { code: string; param?: string } }>().error.code, 'parameter_invalid');
      const form = (await h.request({ url: `/api/v1/forms/${f.formId}`, as: h.actors.aTest })).json<{ recipients: Array<{ status: string }> }>();
      assert.equal(form.recipients[0]!.status, 'sent');
    });
  });
}
