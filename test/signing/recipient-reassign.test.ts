import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { setNotifySettings } from '../../src/domain/accounts/notify-settings.js';
import { listDevOutbox } from '../../src/domain/sending/dev-outbox.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { FakeClock, startSmtpSink } from '../outbox/support/sending.js';
import { pdfsigAndText } from '../shared/pdf-tools.js';
import { SIGN_HEADERS, sampleTemplate, strokePng } from './support.js';
import { replaceRecipientLink } from '../../src/db/repositories/link-replacement.js';
import { AppError } from '../../src/domain/errors.js';
import { approveForm } from '../../src/domain/lifecycle/approve-form.js';
import { declineForm } from '../../src/domain/lifecycle/decline-form.js';
import { reassignFromSigningPage } from '../../src/domain/lifecycle/reassign-recipient.js';
import { saveDraft } from '../../src/domain/signing/drafts/signing-draft.js';
import { resolveSigningLink } from '../../src/domain/signing/resolve-link.js';
import { signForm } from '../../src/domain/signing/sign-form.js';

// Issue 38 items 5 and 7, on both dialects: the sender corrects a recipient who has not signed
// (PATCH …/recipients/{id}) and the signer passes a form on (`allow_reassign`): the old link answers
// 410 on every route at once (its page in the signer's language), the new link works, the invitation
// reaches the new address over SMTP, and the events and the audit trail keep both people. And the
// per-address limit on asking for codes, counted in the database (a second server counts with it).

const T0 = '2026-06-01T09:00:00.000Z';
const TOKEN = /\/sign\/([A-Za-z0-9_-]{43})$/;

type FormJson = { id: string; status: string; recipients: Array<{ id: string; name: string | null; email: string | null; status: string; signing_url: string }> };

for (const dialect of DIALECTS) {
  describe(`recipient reassignment (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let templateId: string;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;

    before(async () => {
      sink = await startSmtpSink();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, { clock, env: { SMTP_URL: sink.url, MAIL_FROM: 'Acme via Formsign <sign@acme.test>' } });
      templateId = await sampleTemplate(h, h.actors.aTest.partition);
    });
    after(async () => {
      await h.close();
      await sink.close();
    });

    async function send(recipients: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}): Promise<{ formId: string; ids: string[]; tokens: string[] }> {
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
      const formId = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: { recipients, ...extra } });
      assert.equal(sent.status, 200, sent.body);
      const rs = sent.json<FormJson>().recipients;
      await h.deps.worker.runDue();
      return { formId, ids: rs.map((r) => r.id), tokens: rs.map((r) => TOKEN.exec(r.signing_url)![1]!) };
    }
    const patch = (formId: string, recipientId: string, json: unknown) => h.request({ method: 'PATCH', url: `/api/v1/forms/${formId}/recipients/${recipientId}`, as: h.actors.aTest, json });
    const post = (token: string, route: string, body: unknown, o: { app?: FastifyInstance; cookie?: string; ip?: string } = {}) =>
      (o.app ?? h.app).inject({
        method: 'POST', url: `/sign/${token}${route}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json', ...(o.cookie ? { cookie: o.cookie } : {}) }, payload: JSON.stringify(body),
        ...(o.ip ? { remoteAddress: o.ip } : {}),
      });
    /** The last invitation that reached `to` over SMTP, and the signing token in it. */
    async function invitationTo(to: string): Promise<{ text: string; token: string }> {
      await h.deps.worker.runDue();
      const mail = sink.received.filter((m) => m.envelopeTo.includes(to)).at(-1);
      assert.ok(mail, `an e-mail reached ${to}`);
      const token = /\/sign\/([A-Za-z0-9_-]{43})/.exec(mail.parsed.text ?? '')?.[1];
      assert.ok(token, mail.parsed.text);
      return { text: mail.parsed.text ?? '', token };
    }
    /** Every route of a link: all answer 410 link_replaced once it is replaced. */
    async function assertReplaced(token: string, own: RegExp = /This link no longer works[\s\S]*ask the sender to send you the new link/): Promise<void> {
      // In the language of the person the link was sent to (their locale, else their browser's).
      const page = await h.app.inject({ url: `/sign/${token}` });
      assert.equal(page.statusCode, 410);
      assert.match(page.body, own);
      const arabic = await h.app.inject({ url: `/sign/${token}?lang=ar` });
      assert.equal(arabic.statusCode, 410);
      assert.match(arabic.body, /<html lang="ar" dir="rtl">/);
      assert.match(arabic.body, /لم يعد هذا الرابط يعمل/);
      const german = await h.app.inject({ url: `/sign/${token}?lang=de` });
      assert.match(german.body, /Dieser Link funktioniert nicht mehr/);
      const reassignPage = await h.app.inject({ url: `/sign/${token}/reassign` });
      assert.equal(reassignPage.statusCode, 410);
      const pdf = await h.app.inject({ url: `/sign/${token}/document.pdf` });
      assert.equal(pdf.statusCode, 410);
      assert.match(pdf.body, /This signing link was replaced/);
      const pdfApi = await h.app.inject({ url: `/sign/${token}/document.pdf`, headers: { accept: 'application/json' } });
      assert.equal(pdfApi.statusCode, 410);
      const draft = await h.app.inject({ method: 'PUT', url: `/sign/${token}/draft`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ values: { full_name: 'X' } }) });
      assert.equal(draft.statusCode, 410);
      assert.equal(draft.json().error.code, 'link_replaced');
      const sign = await post(token, '', { values: { full_name: 'Mallory', signature: { image: strokePng(), method: 'drawn' } }, consent: true });
      assert.equal(sign.statusCode, 410);
      assert.equal(sign.json().error.code, 'link_replaced');
      const decline = await post(token, '/decline', {});
      assert.equal(decline.statusCode, 410);
      const reassign = await post(token, '/reassign', { email: 'x@example.com', reason: 'r' });
      assert.equal(reassign.statusCode, 410);
      const start = await post(token, '/auth/start', {});
      assert.equal(start.statusCode, 410);
    }

    it('PATCH: the old link is 410 everywhere at once, the new one opens, the invitation reaches the new address, the audit keeps both', async () => {
      const { formId, ids, tokens } = await send([{ channel: 'email', email: 'bob@example.com', name: 'Bob' }, { channel: 'email', email: 'cat@example.com', name: 'Cat' }]);
      // Bob opened it first (viewed): the new person starts as sent, not viewed.
      assert.equal((await h.app.inject({ url: `/sign/${tokens[0]}` })).statusCode, 200);
      clock.advance(60_000);
      const changed = await patch(formId, ids[0]!, { email: 'robert@example.com', name: 'Robert' });
      assert.equal(changed.status, 200, changed.body);
      const form = changed.json<FormJson>();
      const robert = form.recipients[0]!;
      assert.deepEqual([robert.id, robert.name, robert.email, robert.status], [ids[0], 'Robert', 'robert@example.com', 'sent']);
      const newToken = TOKEN.exec(robert.signing_url)![1]!;
      assert.notEqual(newToken, tokens[0]);
      // Cat's link is untouched.
      assert.equal(TOKEN.exec(form.recipients[1]!.signing_url)![1], tokens[1]);
      await assertReplaced(tokens[0]!);
      const browserArabic = await h.app.inject({ url: `/sign/${tokens[0]}`, headers: { 'accept-language': 'ar' } });
      assert.match(browserArabic.body, /<html lang="ar" dir="rtl">[\s\S]*لم يعد هذا الرابط يعمل/);
      const invite = await invitationTo('robert@example.com');
      assert.equal(invite.token, newToken);
      // Generation 0 is the original derivation (links sent before generations existed stay valid); the
      // dev outbox shows each invitation with the link it carried.
      assert.equal(h.deps.domain.links.token(ids[0]!), tokens[0]);
      assert.equal(h.deps.domain.links.token(ids[0]!, 1), newToken);
      const outbox = await listDevOutbox(h.deps.domain, h.actors.aTest.partition, { email: true, sms: true }, { email: 'nobody@example.com' });
      const invites = outbox.data.filter((m) => m.recipient_id === ids[0] && m.kind === 'invite').map((m) => [m.to, TOKEN.exec(m.signing_url ?? '')?.[1]]);
      assert.deepEqual(invites.sort(), [['bob@example.com', tokens[0]], ['robert@example.com', newToken]]);
      const opened = await h.app.inject({ url: `/sign/${newToken}` });
      assert.equal(opened.statusCode, 200);
      assert.match(opened.body, /id="signing"/);
      // The new person signs with the new link.
      const signed = await post(newToken, '', { values: { full_name: 'Robert Roe', signature: { image: strokePng(), method: 'drawn' } }, consent: true });
      assert.equal(signed.statusCode, 200, signed.body);
      // A signed recipient cannot be changed; an unknown one is 404; Cat's address is taken.
      const late = await patch(formId, ids[0]!, { name: 'Rob' });
      assert.equal(late.status, 409);
      assert.equal(late.json<{ error: { code: string } }>().error.code, 'form_not_sendable');
      assert.equal((await patch(formId, 'rcp_000000000000000000000000', { name: 'X' })).status, 404);
      const taken = await patch(formId, ids[1]!, { email: 'ROBERT@example.com' });
      assert.equal(taken.status, 409);
      assert.deepEqual([taken.json<{ error: { code: string; param: string } }>().error.code, taken.json<{ error: { param: string } }>().error.param], ['form_already_sent', 'email']);
      const bad = await patch(formId, ids[1]!, { email: 'not-an-address' });
      assert.equal(bad.status, 400);
      assert.equal(bad.json<{ error: { param: string } }>().error.param, 'email');
      assert.equal((await patch(formId, ids[1]!, {})).status, 400);
      // The events: form.reassigned, saying whose link and who replaced it; the form as it is now.
      const events = await h.request({ url: `/api/v1/forms/${formId}/events`, as: h.actors.aTest });
      const reassigned = events.json<{ data: Array<{ type: string; data: { reassignment?: unknown; object: FormJson } }> }>().data.filter((e) => e.type === 'form.reassigned');
      assert.equal(reassigned.length, 1);
      assert.deepEqual(reassigned[0]!.data.reassignment, { recipient_id: ids[0], replaced_by: 'sender' });
      assert.equal(reassigned[0]!.data.object.recipients[0]!.email, 'robert@example.com');
      // The audit trail (of a form that has ended) names both: Robert as the recipient, Bob as the one he replaced.
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/void`, as: h.actors.aTest, json: {} })).status, 200);
      const audit = await h.request({ url: `/api/v1/forms/${formId}/audit-trail`, as: h.actors.aTest });
      assert.equal(audit.status, 200);
      const text = pdfsigAndText(new Uint8Array(audit.rawPayload)).replace(/\s+/g, ' ');
      assert.match(text, /Robert/);
      assert.match(text, /Earlier recipients/);
      assert.match(text, /Bob \(bob@example\.com\), replaced by the sender/);
    });

    it('PATCH with auth: the new check is asked of the new link; auth null removes it; the old lock does not follow', async () => {
      const { formId, ids, tokens } = await send([{ channel: 'email', email: 'dan@example.com', auth: { method: 'access_code', access_code: 'Old-Code-1234' } }]);
      for (let i = 0; i < 5; i++) await post(tokens[0]!, '/auth/verify', { code: 'wrong-code' });
      const locked = await post(tokens[0]!, '/auth/verify', { code: 'Old-Code-1234' });
      assert.equal(locked.statusCode, 429);
      const changed = await patch(formId, ids[0]!, { email: 'dana@example.com', auth: { method: 'access_code', access_code: 'New-Code-5678' } });
      assert.equal(changed.status, 200, changed.body);
      const token = TOKEN.exec(changed.json<FormJson>().recipients[0]!.signing_url)![1]!;
      assert.equal((await h.app.inject({ url: `/sign/${token}` })).statusCode, 401, 'the new link asks for the check');
      assert.equal((await post(token, '/auth/verify', { code: 'Old-Code-1234' })).statusCode, 400, 'the old access code is not the new one');
      const right = await post(token, '/auth/verify', { code: 'New-Code-5678' });
      assert.equal(right.statusCode, 200, right.body);
      const rows = await h.deps.database.db.selectFrom('recipient_checks').selectAll().where('recipient_id', '=', ids[0]!).execute();
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes('New-Code-5678'), 'only the hash is stored');
      const removed = await patch(formId, ids[0]!, { auth: null });
      assert.equal(removed.status, 200, removed.body);
      const open = TOKEN.exec(removed.json<FormJson>().recipients[0]!.signing_url)![1]!;
      assert.equal((await h.app.inject({ url: `/sign/${open}` })).statusCode, 200);
    });

    it('sequential: a waiting recipient changed gets no invitation until their turn, then the new link', async () => {
      const { formId, ids, tokens } = await send([{ channel: 'email', email: 'first@example.com', signer: 1 }, { channel: 'email', email: 'second@example.com', signer: 2 }], { signing_order: 'sequential' });
      const changed = await patch(formId, ids[1]!, { email: 'second.new@example.com' });
      assert.equal(changed.status, 200, changed.body);
      const waiting = changed.json<FormJson>().recipients[1]!;
      assert.equal(waiting.status, 'waiting');
      const newToken = TOKEN.exec(waiting.signing_url)![1]!;
      await h.deps.worker.runDue();
      assert.equal(sink.received.filter((m) => m.envelopeTo.includes('second.new@example.com')).length, 0, 'not their turn yet');
      assert.equal((await h.app.inject({ url: `/sign/${tokens[1]}` })).statusCode, 410);
      const signed = await post(tokens[0]!, '', { values: { full_name: 'First', signature: { image: strokePng(), method: 'drawn' } }, consent: true });
      assert.equal(signed.statusCode, 200, signed.body);
      assert.equal((await invitationTo('second.new@example.com')).token, newToken);
    });

    it('the new invitation wears the account\'s brand, as every invitation does (issue 42)', async () => {
      const brand = await h.request({ method: 'PATCH', url: '/api/v1/branding', as: h.actors.aTest, json: { sender_name: 'Acme Homes', accent_color: '#7a1f5c' } });
      assert.equal(brand.status, 200, brand.body);
      try {
        const { formId, ids } = await send([{ channel: 'email', email: 'dan@example.com', name: 'Dan' }]);
        const changed = await patch(formId, ids[0]!, { email: 'dana@example.com', name: 'Dana' });
        assert.equal(changed.status, 200, changed.body);
        await invitationTo('dana@example.com');
        const mail = sink.received.filter((m) => m.envelopeTo.includes('dana@example.com')).at(-1)!;
        assert.match(mail.parsed.from?.text ?? '', /Acme Homes/);
        // The accent is drawn into the message itself when it is composed (the sender name is added at delivery).
        assert.match(String(mail.parsed.html), /#7a1f5c/i);
      } finally {
        await h.request({ method: 'PATCH', url: '/api/v1/branding', as: h.actors.aTest, json: { sender_name: null, accent_color: null } });
      }
    });

    it('allow_reassign off: the page says the sender did not allow it, and the post is refused', async () => {
      const { tokens } = await send([{ channel: 'email', email: 'eve@example.com' }]);
      const view = await h.app.inject({ url: `/sign/${tokens[0]}` });
      // No link to the reassign page (the menu's words travel in the page's script text either way).
      assert.doesNotMatch(view.body, /href="[^"]*\/reassign"/);
      assert.doesNotMatch(view.body, /id="reassign-link"/);
      const page = await h.app.inject({ url: `/sign/${tokens[0]}/reassign` });
      assert.equal(page.statusCode, 409);
      assert.match(page.body, /The sender did not allow this document to be passed to someone else/);
      const refused = await post(tokens[0]!, '/reassign', { email: 'fay@example.com', reason: 'On leave' });
      assert.equal(refused.statusCode, 409);
      assert.equal(refused.json().error.code, 'form_not_sendable');
      assert.equal((await h.app.inject({ url: `/sign/${tokens[0]}` })).statusCode, 200, 'the link still works');
    });

    it('allow_reassign on: the signer passes it on with a reason; the old link dies, the new person is invited, the sender hears of it', async () => {
      await setNotifySettings(h.deps.domain, h.actors.aTest.partition.accountId, { notify_email: 'sender@acme.test' });
      const { formId, ids, tokens } = await send([{ channel: 'email', email: 'gus@example.com', name: 'Gus', locale: 'fr' }], { allow_reassign: true });
      const view = await h.app.inject({ url: `/sign/${tokens[0]}` });
      assert.match(view.body, new RegExp(`href="/sign/${tokens[0]}/reassign"`));
      const page = await h.app.inject({ url: `/sign/${tokens[0]}/reassign` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<html lang="fr"/);
      assert.match(page.body, /Confier à quelqu’un d’autre/);
      assert.match(page.body, /id="reassign-email"/);
      const noReason = await post(tokens[0]!, '/reassign', { email: 'hal@example.com' });
      assert.equal(noReason.statusCode, 400);
      assert.equal(noReason.json().error.param, 'reason');
      const noEmail = await post(tokens[0]!, '/reassign', { reason: 'x' });
      assert.equal(noEmail.statusCode, 400);
      const crossSite = await h.app.inject({ method: 'POST', url: `/sign/${tokens[0]}/reassign`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'hal@example.com', reason: 'x' }) });
      assert.equal(crossSite.statusCode, 400, 'a post without the page header is refused');
      const done = await post(tokens[0]!, '/reassign', { email: 'hal@example.com', name: 'Hal', reason: 'Hal signs for the team while I am away' });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal(done.json().status, 'reassigned');
      await assertReplaced(tokens[0]!, /<html lang="fr"[\s\S]*Ce lien ne fonctionne plus/);
      const invite = await invitationTo('hal@example.com');
      assert.equal((await h.app.inject({ url: `/sign/${invite.token}` })).statusCode, 200);
      // The sender's notification address is told who passed it to whom, and why.
      const notice = sink.received.filter((m) => m.envelopeTo.includes('sender@acme.test')).at(-1);
      assert.ok(notice, 'the sender was told');
      assert.equal(notice.parsed.subject, 'Reassigned: Gus passed "Sample agreement" to Hal');
      assert.match(notice.parsed.text ?? '', /Their reason: "Hal signs for the team while I am away"/);
      const form = await h.request({ url: `/api/v1/forms/${formId}`, as: h.actors.aTest });
      assert.deepEqual([form.json<FormJson>().recipients[0]!.email, form.json<FormJson>().recipients[0]!.name], ['hal@example.com', 'Hal']);
      const events = await h.request({ url: `/api/v1/forms/${formId}/events`, as: h.actors.aTest });
      const e = events.json<{ data: Array<{ type: string; data: { reassignment?: unknown } }> }>().data.find((x) => x.type === 'form.reassigned');
      assert.deepEqual(e?.data.reassignment, { recipient_id: ids[0], replaced_by: 'signer' });
      const retired = await h.deps.database.db.selectFrom('retired_links').selectAll().where('form_id', '=', formId).execute();
      assert.deepEqual(retired.map((r) => [r.email, r.name, r.replaced_by, r.reason]), [['gus@example.com', 'Gus', 'signer', 'Hal signs for the team while I am away']]);
    });

    it('a recipient who approved, signed or declined is no longer changed: 409, and the answer stays with who gave it', async () => {
      const { formId, ids, tokens } = await send([{ channel: 'email', email: 'sig1@example.com', name: 'Sig' }, { channel: 'email', email: 'appr@example.com', name: 'Appr', role: 'approver', signer: 2 }]);
      const approved = await post(tokens[1]!, '/approve', {});
      assert.equal(approved.statusCode, 200, approved.body);
      const refused = await patch(formId, ids[1]!, { email: 'other@example.com', name: 'Other' });
      assert.equal(refused.status, 409, refused.body);
      assert.equal(refused.json<{ error: { code: string } }>().error.code, 'form_not_sendable');
      const form = (await h.request({ url: `/api/v1/forms/${formId}`, as: h.actors.aTest })).json<FormJson>();
      assert.deepEqual([form.recipients[1]!.email, form.recipients[1]!.name, form.recipients[1]!.status], ['appr@example.com', 'Appr', 'approved']);
      assert.equal((await h.deps.database.db.selectFrom('retired_links').selectAll().where('form_id', '=', formId).execute()).length, 0);
      // The row's own update refuses a finished recipient even when handed the status it has.
      const row = await h.deps.database.db.selectFrom('recipients').selectAll().where('id', '=', ids[1]!).executeTakeFirstOrThrow();
      const moved = await h.deps.database.transact((trx) => replaceRecipientLink(trx, h.actors.aTest.partition, row, {
        name: 'X', email: 'x@example.com', phone: null, channel: 'email', address_key: 'x@example.com', token_hash: 'h', link_generation: row.link_generation + 1,
      }, T0));
      assert.equal(moved, undefined);
    });

    it('a link resolved before a reassignment acts for nobody after it: sign, approve, decline, pass on, draft and file are 410 link_replaced', async () => {
      const { formId, ids, tokens } = await send([{ channel: 'email', email: 'ola@example.com', name: 'Ola' }, { channel: 'email', email: 'pia@example.com', name: 'Pia', role: 'approver', signer: 2 }], { allow_reassign: true });
      const d = h.deps.domain;
      const signerLink = await resolveSigningLink(d, tokens[0]!);
      const approverLink = await resolveSigningLink(d, tokens[1]!);
      assert.ok(signerLink && approverLink);
      assert.equal((await patch(formId, ids[0]!, { email: 'quinn@example.com', name: 'Quinn' })).status, 200);
      assert.equal((await patch(formId, ids[1]!, { email: 'rae@example.com', name: 'Rae' })).status, 200);
      const client = { ip: '192.0.2.1', userAgent: 'stale' };
      const attempts: Array<[string, () => Promise<unknown>]> = [
        ['sign', () => signForm(d, signerLink, { values: { full_name: 'Ola', signature: { image: strokePng(), method: 'drawn' } }, consent: true }, client)],
        ['approve', () => approveForm(d, approverLink, client)],
        ['decline', () => declineForm(d, signerLink, { reason: 'no' })],
        ['decline (approver)', () => declineForm(d, approverLink, { reason: 'no' })],
        ['pass on', () => reassignFromSigningPage(d, signerLink, { email: 'sam@example.com', reason: 'away' })],
        ['draft', () => saveDraft(d, signerLink, { values: { full_name: 'Ola' }, sendLink: undefined })],
      ];
      for (const [what, attempt] of attempts) {
        await assert.rejects(attempt, (err: unknown) => err instanceof AppError && err.code === 'link_replaced', what);
      }
      const form = (await h.request({ url: `/api/v1/forms/${formId}`, as: h.actors.aTest })).json<FormJson>();
      assert.equal(form.status, 'sent');
      assert.deepEqual(form.recipients.map((r) => [r.email, r.status]), [['quinn@example.com', 'sent'], ['rae@example.com', 'sent']]);
      const db = h.deps.database.db;
      assert.equal((await db.selectFrom('signing_drafts').selectAll().where('recipient_id', 'in', ids).execute()).length, 0);
      assert.equal((await db.selectFrom('signatures').selectAll().where('form_id', '=', formId).execute()).length, 0);
      assert.equal((await db.selectFrom('retired_links').selectAll().where('form_id', '=', formId).execute()).length, 2, 'no third link retired by the stale pass-on');
    });

    it('the reassign page is behind the gate: a link with a check sends an unverified browser to the code screen', async () => {
      const { tokens } = await send([{ channel: 'email', email: 'ida@example.com', auth: { method: 'access_code', access_code: 'Ida-Code-0001' } }], { allow_reassign: true });
      const page = await h.app.inject({ url: `/sign/${tokens[0]}/reassign` });
      assert.equal(page.statusCode, 303);
      assert.equal(page.headers.location, `/sign/${tokens[0]}`);
      const refused = await post(tokens[0]!, '/reassign', { email: 'jo@example.com', reason: 'x' });
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().error.code, 'auth_required');
      const verified = await post(tokens[0]!, '/auth/verify', { code: 'Ida-Code-0001' });
      const cookie = String(verified.headers['set-cookie']).split(';')[0]!;
      assert.equal((await h.app.inject({ url: `/sign/${tokens[0]}/reassign`, headers: { cookie } })).statusCode, 200);
    });

    it('per address: at most 20 codes an hour across an account\'s links, counted once by two servers, in the database', async () => {
      clock.set('2026-06-02T10:05:00.000Z');
      const many = Array.from({ length: 11 }, (_, i) => ({ channel: 'email', email: `ip${i}@example.com`, auth: { method: 'email_code' } }));
      const a = await send(many);
      const b = await send(many.map((r, i) => ({ ...r, email: `ip-b${i}@example.com` })));
      const tokens = [...a.tokens, ...b.tokens];
      const second = await buildApp(h.deps.http, { logger: false });
      try {
        const ip = '203.0.113.77';
        for (let i = 0; i < 20; i++) {
          const res = await post(tokens[i]!, '/auth/start', {}, { ip, app: i % 2 === 0 ? h.app : second });
          assert.equal(res.statusCode, 200, `request ${i + 1}: ${res.body}`);
        }
        const refused = await post(tokens[20]!, '/auth/start', {}, { ip, app: second });
        assert.equal(refused.statusCode, 429);
        assert.equal(refused.json().error.code, 'rate_limited');
        assert.equal(refused.headers['retry-after'], String(55 * 60));
        assert.equal((await post(tokens[21]!, '/auth/start', {}, { ip })).statusCode, 429);
        // Another address is not held back, and the count is a stored row (a restart keeps it).
        assert.equal((await post(tokens[21]!, '/auth/start', {}, { ip: '198.51.100.9' })).statusCode, 200);
        const row = await h.deps.database.db.selectFrom('code_request_windows').selectAll().where('ip', '=', ip).executeTakeFirstOrThrow();
        assert.deepEqual([Number(row.count), row.window_start], [20, '2026-06-02T10:00:00.000Z']);
        // The next hour counts afresh.
        clock.set('2026-06-02T11:00:00.000Z');
        assert.equal((await post(tokens[20]!, '/auth/start', {}, { ip })).statusCode, 200);
      } finally {
        await second.close();
      }
    });
  });
}
