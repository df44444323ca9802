import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { FakeClock, startSmtpSink } from '../outbox/support/sending.js';
import { pdfsigAndText } from '../shared/pdf-tools.js';
import { bombPng, SIGN_HEADERS, strokePng, twoSignerTemplate } from '../signing/support.js';
import { createAndSend, eventTypes, getForm, openLink, postDecline, postSign, signatureOf, tokenOf, untilSigned } from '../lifecycle/support.js';

// Issue 42, items 2–4 over the real paths: recipient roles (a signer, an approver and a cc in order;
// an approver's decline), the sender's message, subject and expiry, and the account's brand, read at
// the real SMTP sink, on the signing pages and in the sealed PDF, on both dialects.

const T0 = '2026-06-01T09:00:00.000Z';

type Rcp = { id: string; role: string; status: string; signing_url: string; approved_at: string | null; message: string | null; decline_reason: string | null };

function postApprove(h: Harness, token: string) {
  return h.app.inject({ method: 'POST', url: `/sign/${token}/approve`, headers: { 'content-type': 'application/json', 'user-agent': 'TestBrowser/1.0', ...SIGN_HEADERS }, payload: '{}' });
}

/** A signer, an approver (slot 3) and a cc (slot 4), by first name: `ann@example.com`, "Ann Signer"… */
function signerApproverCc(signer: string, approver: string, cc: string) {
  const at = (n: string) => `${n.toLowerCase()}@example.com`;
  return [
    { email: at(signer), channel: 'email', name: `${signer} Signer` },
    { email: at(approver), channel: 'email', name: `${approver} Approver`, role: 'approver', signer: 3 },
    { email: at(cc), channel: 'email', name: `${cc} Copy`, role: 'cc', signer: 4 },
  ];
}

const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40" onload="alert(1)"><script>alert(2)</script>
<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
<image href="https://tracker.example/p.png" width="1" height="1"/>
<rect width="120" height="40" rx="6" fill="#0b5cad" style="fill:u\\72 l(https://tracker.example/x)"/><text x="10" y="26" fill="#fff" font-size="18">ACME</text></svg>`;

/** A small PNG whose header is rewritten to claim `width`×`height` pixels (its CRC is not checked first). */
function claimingPng(width: number, height: number): Buffer {
  const png = Buffer.from(strokePng(160, 60).replace(/^data:image\/png;base64,/, ''), 'base64');
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}

for (const dialect of DIALECTS) {
  describe(`recipient roles, message and branding (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let templateId: string;

    before(async () => {
      sink = await startSmtpSink();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock, env: { SMTP_URL: sink.url, BASE_URL: 'https://sign.acme.test' } });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
    });
    after(async () => {
      await h.close();
      await sink.close();
    });

    it('a signer, an approver and a cc in order: the cc is told at once, the form completes only after the approver, the cc gets the copy', async () => {
      const as = h.actors.aTest;
      // An approver has no fields: on slot 2 (the landlord's fields) it is refused, naming the role.
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
      const formId = created.json<{ id: string }>().id;
      const refused = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients: [{ email: 'ann@example.com', channel: 'email' }, { email: 'apu@example.com', channel: 'email', role: 'approver' }] } });
      assert.deepEqual([refused.status, errorOf(refused).code, errorOf(refused).param], [400, 'parameter_invalid', 'recipients[1].role']);
      assert.match(errorOf(refused).message, /approver.*landlord_name/);

      const { form } = await createAndSend(h, as, templateId, {
        signing_order: 'sequential',
        recipients: signerApproverCc('Ann', 'Apu', 'Cat'),
      });
      const rs = form.recipients as unknown as Rcp[];
      assert.deepEqual(rs.map((r) => [r.role, r.status]), [['signer', 'sent'], ['approver', 'waiting'], ['cc', 'sent']]);
      const [ann, apu, cat] = rs.map((r) => tokenOf(r.signing_url)) as [string, string, string];
      await h.deps.worker.runDue();
      const subjects = (to: string) => sink.received.filter((m) => m.envelopeTo.includes(to)).map((m) => m.parsed.subject);
      assert.deepEqual(subjects('ann@example.com'), ['Account A asks you to sign "Residential lease"']);
      assert.deepEqual(subjects('cat@example.com'), ['Account A sent you a copy of "Residential lease"'], 'the cc is told at once, whatever the order');
      assert.deepEqual(subjects('apu@example.com'), [], 'the approver waits for the signer');
      assert.equal((await postApprove(h, apu)).statusCode, 409, 'not the approver\'s turn yet');

      // The cc's page: the document, nothing to do; a cc cannot decline.
      const ccPage = await openLink(h, cat);
      assert.equal(ccPage.statusCode, 200);
      assert.match(ccPage.body, /sent you this document for your information/);
      assert.doesNotMatch(ccPage.body, /id="approve"|id="sign-form"/);
      assert.equal((await postDecline(h, cat, { reason: 'no' })).statusCode, 400);

      clock.advance(60_000);
      const signed = await postSign(h, ann, signatureOf(1));
      assert.equal(signed.statusCode, 200, signed.body);
      assert.equal(JSON.parse(signed.body).complete, false, 'the approver still has to approve');
      await h.deps.worker.runDue();
      assert.deepEqual(subjects('apu@example.com'), ['Account A asks you to approve "Residential lease"']);
      assert.equal((await getForm(h, as, form.id)).status, 'viewed', 'not complete before the approver');

      const page = await openLink(h, apu);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /id="approve"/);
      assert.match(page.body, /id="decline-open"/);
      assert.doesNotMatch(page.body, /id="sign-form"/, 'an approver has no fields');
      assert.equal((await postSign(h, apu, {})).statusCode, 400, 'an approver cannot sign');
      clock.advance(60_000);
      const approved = await postApprove(h, apu);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(JSON.parse(approved.body).complete, true);
      const done = await untilSigned(h, as, form.id, clock);
      assert.equal(done.status, 'signed');
      const final = done.recipients as unknown as Rcp[];
      assert.equal(final[1]!.status, 'approved');
      assert.ok(final[1]!.approved_at);
      await h.deps.worker.runDue();
      assert.ok(subjects('cat@example.com').some((s) => /Residential lease/.test(s ?? '') && s !== 'Account A sent you a copy of "Residential lease"'), `the cc got the completed copy: ${subjects('cat@example.com').join(' | ')}`);

      // Events carry the Form, whose recipients name their role; the audit page names it too.
      const ev = await h.request({ url: `/api/v1/forms/${form.id}/events?limit=100`, as });
      const viewedByApprover = ev.json<{ data: Array<{ type: string; data: { object: { recipients: Rcp[] } } }> }>().data.find((e) => e.type === 'form.signed');
      assert.deepEqual(viewedByApprover?.data.object.recipients.map((r) => r.role), ['signer', 'approver', 'cc']);
      assert.ok((await eventTypes(h, as, form.id)).includes('form.signed'));
      const pdf = await h.request({ url: `/api/v1/forms/${form.id}/signed-pdf?format=base64`, as });
      const text = pdfsigAndText(Buffer.from(pdf.json<{ data: string }>().data, 'base64'));
      assert.match(text, /Apu Approver[\s\S]*Approver/);
      assert.match(text, /Cat Copy[\s\S]*Copy \(cc\)/);
      assert.match(text, /Approved/);
    });

    it('an approver declines with a reason: the form is declined, the reason recorded', async () => {
      const as = h.actors.aTest;
      const { form } = await createAndSend(h, as, templateId, { recipients: [{ email: 'sig@example.com', channel: 'email' }, { email: 'boss@example.com', channel: 'email', role: 'approver', signer: 3 }] });
      const boss = tokenOf((form.recipients as unknown as Rcp[])[1]!.signing_url);
      const res = await postDecline(h, boss, { reason: 'Clause 4 is wrong.' });
      assert.equal(res.statusCode, 200, res.body);
      const after = await getForm(h, as, form.id);
      assert.equal(after.status, 'declined');
      assert.equal((after.recipients as unknown as Rcp[])[1]!.decline_reason, 'Clause 4 is wrong.');
      const late = await postApprove(h, boss);
      assert.deepEqual([late.statusCode, JSON.parse(late.body).error.code], [409, 'form_not_sendable'], 'a declined form cannot be approved');
    });

    it('a reminder speaks to the role and quotes the sender\'s message again; a cc is never reminded', async () => {
      const as = h.actors.aTest;
      const { form } = await createAndSend(h, as, templateId, {
        message: 'Please look at <clause 4> first.',
        recipients: signerApproverCc('Rita', 'Remy', 'Rosa'),
      });
      const [signer, approver, cc] = form.recipients as unknown as [Rcp, Rcp, Rcp];
      await h.deps.worker.runDue();
      const ccRefused = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/remind`, as, json: { recipients: [cc.id] } });
      assert.deepEqual([ccRefused.status, errorOf(ccRefused).code, errorOf(ccRefused).param], [400, 'parameter_invalid', 'recipients[0]']);
      assert.match(errorOf(ccRefused).message, /is a cc/);
      const before = sink.received.length;
      const res = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/remind`, as, json: {} });
      assert.equal(res.status, 200, res.body);
      await h.deps.worker.runDue();
      const mails = sink.received.slice(before);
      const to = (addr: string) => mails.filter((m) => m.envelopeTo.includes(addr));
      assert.equal(to('rosa@example.com').length, 0, 'the cc is not reminded');
      const [remy] = to('remy@example.com');
      assert.ok(remy, 'the approver is reminded');
      assert.equal(remy.parsed.subject, 'Reminder: Account A asks you to approve "Residential lease"');
      assert.match(remy.parsed.text ?? '', /asks you to review "Residential lease" and approve or decline it/);
      assert.match(String(remy.parsed.html), /Review and approve/, 'the approver\'s button');
      assert.doesNotMatch(`${remy.parsed.subject} ${remy.parsed.text}`, /please sign|to sign/i);
      assert.match(remy.parsed.text ?? '', /Message from Account A:\n> Please look at <clause 4> first\./);
      assert.match(String(remy.parsed.html), /Please look at &lt;clause 4&gt; first\./);
      assert.ok(String(remy.parsed.html).includes(approver.signing_url), 'the same link');
      const [rita] = to('rita@example.com');
      assert.equal(rita?.parsed.subject, 'Reminder: Account A asks you to sign "Residential lease"');
      assert.match(rita?.parsed.text ?? '', /Message from Account A:\n> Please look at <clause 4> first\./, 'the signer\'s reminder quotes the message too');
      assert.ok(String(rita?.parsed.html).includes(signer.signing_url));
    });

    it('a PNG logo that claims huge dimensions or unpacks past them is refused with 400, the brand unchanged', async () => {
      const as = h.actors.aTest;
      const before = (await h.request({ url: '/api/v1/branding', as })).body;
      const huge = claimingPng(20_000, 20_000);
      assert.ok(huge.byteLength < 200 * 1024, 'small on the wire');
      const refused = await h.request({ method: 'PATCH', url: '/api/v1/branding', as, json: { logo: { content_type: 'image/png', data: huge.toString('base64') } } });
      assert.deepEqual([refused.status, errorOf(refused).code, errorOf(refused).param], [400, 'parameter_invalid', 'logo.data'], refused.body);
      assert.match(errorOf(refused).message, /20000×20000 pixels.*2000×2000/);
      const wide = await h.request({ method: 'PATCH', url: '/api/v1/branding', as, json: { logo: { content_type: 'image/png', data: claimingPng(2001, 10).toString('base64') } } });
      assert.deepEqual([wide.status, errorOf(wide).code], [400, 'parameter_invalid'], 'one side past 2000 is enough');
      // 160×60 declared, 30 MB of zeros in its data (about 30 KB deflated).
      const bomb = bombPng(160, 60, 30 * 1024 * 1024);
      assert.ok(bomb.byteLength < 200 * 1024, `${bomb.byteLength} bytes on the wire`);
      const unpacks = await h.request({ method: 'PATCH', url: '/api/v1/branding', as, json: { logo: { content_type: 'image/png', data: bomb.toString('base64') } } });
      assert.deepEqual([unpacks.status, errorOf(unpacks).code, errorOf(unpacks).param], [400, 'parameter_invalid', 'logo.data'], unpacks.body);
      assert.match(errorOf(unpacks).message, /does not unpack to its declared size/);
      assert.equal((await h.request({ url: '/api/v1/branding', as })).body, before, 'nothing was stored');
      const fine = await h.request({ method: 'PATCH', url: '/api/v1/branding', as, json: { logo: { content_type: 'image/png', data: strokePng(160, 60).replace(/^data:image\/png;base64,/, '') } } });
      assert.equal(fine.status, 200, fine.body);
      await h.request({ method: 'PATCH', url: '/api/v1/branding', as, json: { logo: null } });
    });

    it('the brand, the message and the language: at the SMTP sink, on the signing page; a hostile SVG is sanitised; a light accent is darkened', async () => {
      const as = h.actors.aTest;
      const set = await h.request({ method: 'PATCH', url: '/api/v1/branding', as, json: { sender_name: 'Acme Homes', accent_color: '#ffcc00', logo: { content_type: 'image/svg+xml', data: Buffer.from(HOSTILE_SVG).toString('base64') } } });
      assert.equal(set.status, 200, set.body);
      const brand = set.json<{ accent_color: string; accent_color_requested: string; accent_adjusted: boolean; accent_contrast: number; logo: { url: string; removed: string[] } }>();
      assert.equal(brand.accent_color_requested, '#ffcc00');
      assert.equal(brand.accent_adjusted, true);
      assert.ok(brand.accent_contrast >= 4.5, String(brand.accent_contrast));
      assert.notEqual(brand.accent_color, '#ffcc00');
      assert.ok(brand.logo.removed.some((x) => /onload/.test(x)), brand.logo.removed.join());
      assert.ok(brand.logo.removed.some((x) => /^style\b/.test(x)), `the style attribute is reported: ${brand.logo.removed.join()}`);
      const logo = await h.app.inject({ url: new URL(brand.logo.url).pathname });
      assert.equal(logo.statusCode, 200);
      assert.equal(logo.headers['content-type'], 'image/svg+xml');
      assert.doesNotMatch(logo.body, /script|onload|foreignObject|tracker\.example/);
      assert.match(logo.body, /ACME/);
      assert.match(String(logo.headers['content-security-policy']), /default-src 'none'/);
      const bad = await h.request({ method: 'PATCH', url: '/api/v1/branding', as, json: { logo: { content_type: 'image/png', data: Buffer.from(HOSTILE_SVG).toString('base64') } } });
      assert.deepEqual([bad.status, errorOf(bad).code, errorOf(bad).param], [400, 'parameter_invalid', 'logo.data']);
      const big = await h.request({ method: 'PATCH', url: '/api/v1/branding', as, json: { logo: { content_type: 'image/svg+xml', data: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(210 * 1024)}</svg>`).toString('base64') } } });
      assert.equal(big.status, 413, big.body);

      const tooLong = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
      const long = await h.request({ method: 'POST', url: `/api/v1/forms/${tooLong.json<{ id: string }>().id}/send`, as, json: { message: 'x'.repeat(1001), recipients: [{ email: 'x@example.com', channel: 'email' }] } });
      assert.deepEqual([long.status, errorOf(long).code], [400, 'parameter_invalid']);

      const before = sink.received.length;
      const { form } = await createAndSend(h, as, templateId, {
        message: 'Hallo <b>Dora</b>,\nbitte bis Freitag.', expires_in_days: 7,
        recipients: [{ email: 'dora@example.com', channel: 'email', name: 'Dora', locale: 'de' }],
      });
      assert.equal(form.recipients[0]!.status, 'sent');
      const sent = await getForm(h, as, form.id) as unknown as { expires_at: string; sent_at: string; recipients: Rcp[] };
      assert.equal(Date.parse(sent.expires_at) - Date.parse(sent.sent_at), 7 * 86_400_000, 'expires_in_days of the send');
      assert.equal(sent.recipients[0]!.message, 'Hallo <b>Dora</b>,\nbitte bis Freitag.');
      await h.deps.worker.runDue();
      const mail = sink.received.slice(before).find((m) => m.envelopeTo.includes('dora@example.com'));
      assert.ok(mail);
      assert.equal(mail.parsed.from?.value[0]?.name, 'Acme Homes via Formsign');
      assert.equal(mail.parsed.subject, 'Acme Homes bittet Sie, „Residential lease“ zu unterzeichnen');
      const html = String(mail.parsed.html);
      assert.match(html, /<html lang="de"/);
      assert.match(html, /Nachricht von Acme Homes:/);
      assert.match(html, /Hallo &lt;b&gt;Dora&lt;\/b&gt;,\nbitte bis Freitag\./);
      assert.ok(html.includes(`background:${brand.accent_color}`), 'the button is the adjusted accent');
      assert.ok(html.includes(`src="${brand.logo.url}"`), 'the logo');
      assert.match(mail.parsed.text ?? '', /> Hallo <b>Dora<\/b>,\n> bitte bis Freitag\./);

      const page = await openLink(h, tokenOf(form.recipients[0]!.signing_url));
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<html lang="de"/);
      assert.ok(page.body.includes(`href="/brand/accent/${brand.accent_color.slice(1)}.css"`), 'the accent stylesheet');
      assert.ok(page.body.includes(`src="${new URL(brand.logo.url).pathname}"`), 'the logo in the header');
      assert.match(page.body, /Acme Homes/);
      assert.match(page.body, /<blockquote dir="auto">Hallo &lt;b&gt;Dora&lt;\/b&gt;,\nbitte bis Freitag\.<\/blockquote>/);
      const css = await h.app.inject({ url: `/brand/accent/${brand.accent_color.slice(1)}.css` });
      assert.match(css.body, new RegExp(`--accent: ${brand.accent_color}`));

      // A PNG logo is drawn in the sealed PDF's audit header; the sender name is stated there.
      const png = strokePng(160, 60).replace(/^data:image\/png;base64,/, '');
      const withPng = await h.request({ method: 'PATCH', url: '/api/v1/branding', as, json: { logo: { content_type: 'image/png', data: png } } });
      assert.equal(withPng.status, 200, withPng.body);
      const read = await h.request({ url: '/api/v1/branding', as });
      assert.equal(read.json<{ sender_name: string; logo: { content_type: string } }>().logo.content_type, 'image/png');
      const one = await createAndSend(h, as, templateId, { recipients: [{ email: 'eli@example.com', channel: 'email' }] });
      assert.equal((await postSign(h, tokenOf(one.form.recipients[0]!.signing_url), signatureOf(1))).statusCode, 200);
      const sealed = await untilSigned(h, as, one.form.id, clock);
      assert.equal(sealed.status, 'signed');
      const pdf = await h.request({ url: `/api/v1/forms/${one.form.id}/signed-pdf?format=base64`, as });
      assert.match(pdfsigAndText(Buffer.from(pdf.json<{ data: string }>().data, 'base64')), /Acme Homes/);
      // Back to no brand: the parts can be removed.
      const cleared = await h.request({ method: 'PATCH', url: '/api/v1/branding', as, json: { logo: null, accent_color: null, sender_name: null } });
      assert.deepEqual(cleared.json<{ logo: null; accent_color: null; sender_name: null }>(), { ...cleared.json(), logo: null, accent_color: null, sender_name: null });
    });
  });
}
