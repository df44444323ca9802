import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { FakeClock, startSmtpSink } from '../outbox/support/sending.js';
import { startTwilioServer } from '../outbox/support/twilio.js';
import { pdfsigAndText } from '../shared/pdf-tools.js';
import { SIGN_HEADERS, TINY_PNG, sampleTemplate } from './support.js';

// Re-authentication at signing (issue 38, `auth.when: "sign"`), on both dialects: the link asks for the
// check when it is opened and again when the signer presses Finish, even in the browser that passed the
// first; the signature is refused (401 auth_required, param `finish`) until the second check passes,
// codes read from the SMTP conversation and the SMS gateway's wire. Both checks are in the check log.

const T0 = '2026-05-04T09:00:00.000Z';
const SID = 'AC0123456789abcdef0123456789abcdef';
const ACCESS = 'Harbour-Lights-2718';

for (const dialect of DIALECTS) {
  describe(`signer checks at Finish (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let templateId: string;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let twilio: Awaited<ReturnType<typeof startTwilioServer>>;

    before(async () => {
      sink = await startSmtpSink();
      twilio = await startTwilioServer();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, {
        clock,
        env: { SMTP_URL: sink.url, MAIL_FROM: 'Acme via Formsign <sign@acme.test>', SMS_PROVIDER_URL: twilio.url, SMS_ACCOUNT_SID: SID, SMS_AUTH_TOKEN: 'tok3n', SMS_FROM: '+15005550006' },
      });
      templateId = await sampleTemplate(h, h.actors.aTest.partition);
    });
    after(async () => {
      await h.close();
      await sink.close();
      await twilio.close();
    });

    async function send(recipient: Record<string, unknown>): Promise<{ formId: string; token: string; recipientId: string }> {
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
      const formId = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: { recipients: [recipient] } });
      assert.equal(sent.status, 200, sent.body);
      const r = sent.json<{ recipients: Array<{ id: string; signing_url: string }> }>().recipients[0]!;
      await h.deps.worker.runDue();
      return { formId, recipientId: r.id, token: /\/sign\/([A-Za-z0-9_-]{43})$/.exec(r.signing_url)![1]! };
    }
    const post = (token: string, route: string, body: unknown, cookie?: string) =>
      h.app.inject({ method: 'POST', url: `/sign/${token}${route}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, payload: JSON.stringify(body) });
    const cookieOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;
    const signature = { values: { full_name: 'Finn Signer', signature: { image: TINY_PNG, method: 'drawn' } }, consent: true };

    async function mailedCode(to: string): Promise<{ code: string; subject: string; text: string }> {
      await h.deps.worker.runDue();
      const mail = sink.received.filter((m) => m.envelopeTo.includes(to)).at(-1);
      assert.ok(mail, `an e-mail reached ${to}`);
      const code = /^(\d{6}) is your code/.exec(mail.parsed.subject ?? '')?.[1];
      assert.ok(code, mail.parsed.subject);
      return { code, subject: mail.parsed.subject ?? '', text: mail.parsed.text ?? '' };
    }
    async function textedCode(to: string): Promise<{ code: string; body: string }> {
      await h.deps.worker.runDue();
      const sms = twilio.requests.filter((r) => r.form['To'] === to).at(-1);
      assert.ok(sms, `the gateway was asked to text ${to}`);
      const code = /^(\d{6}) is your code/.exec(sms.form['Body'] ?? '')?.[1];
      assert.ok(code, sms.form['Body']);
      return { code, body: sms.form['Body']! };
    }

    it('email_code at sign: opened after a check, Finish asks again; the second code (over SMTP) lets the signature through', async () => {
      const { token, formId, recipientId } = await send({ channel: 'email', email: 'finn@example.com', name: 'Finn Signer', meaning: '  Approved   for release ', auth: { method: 'email_code', when: 'sign' } });
      // The first check, at opening.
      assert.equal((await h.app.inject({ url: `/sign/${token}` })).statusCode, 401);
      const first = await post(token, '/auth/start', {});
      assert.equal(first.json().purpose, 'open');
      const open = await mailedCode('finn@example.com');
      assert.match(open.subject, /is your code for/);
      assert.match(open.text, /to confirm it is you\./);
      const passed = await post(token, '/auth/verify', { code: open.code });
      assert.equal(passed.statusCode, 200, passed.body);
      assert.equal(passed.json().purpose, 'open');
      const cookie = cookieOf(passed);
      // The page opens, and carries the Finish dialog (the code screen's form, ids of its own).
      const page = await h.app.inject({ url: `/sign/${token}`, headers: { cookie } });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<dialog class="sig-dialog check" id="finish-check" data-check/);
      assert.match(page.body, /To finish signing, confirm it is you once more\. Enter the 6-digit code we send to <bdi dir="ltr">f•••@example\.com<\/bdi>\./);
      assert.match(page.body, /id="finish-check-code"/);
      // Finish without the second check: refused, nothing signed.
      clock.advance(2 * 60_000);
      const early = await post(token, '', signature, cookie);
      assert.equal(early.statusCode, 401, early.body);
      assert.deepEqual([early.json().error.code, early.json().error.param], ['auth_required', 'finish']);
      // The first code cannot serve twice, and the opening check's code is no Finish check.
      assert.equal((await post(token, '/auth/verify', { code: open.code }, cookie)).statusCode, 400);
      const again = await post(token, '/auth/start', {}, cookie);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().purpose, 'sign');
      const second = await mailedCode('finn@example.com');
      assert.notEqual(second.code, '');
      assert.match(second.text, /to confirm it is you and finish signing\./);
      const verified = await post(token, '/auth/verify', { code: second.code }, cookie);
      assert.equal(verified.statusCode, 200, verified.body);
      assert.equal(verified.json().purpose, 'sign');
      assert.equal(verified.headers['set-cookie'], undefined, 'the same session passes the second check');
      assert.match(page.body, /<p class="meaning" id="meaning">By signing, you sign as: <strong><bdi>Approved for release<\/bdi><\/strong>\./);
      const signedAt = clock.now().toISOString();
      const signed = await post(token, '', signature, cookie);
      assert.equal(signed.statusCode, 200, signed.body);
      assert.equal(signed.json().status, 'signed');
      await h.deps.worker.runDue();
      const form = await h.request({ method: 'GET', url: `/api/v1/forms/${formId}`, as: h.actors.aTest });
      assert.equal(form.json<{ status: string; recipients: Array<{ meaning: string | null }> }>().status, 'signed');
      assert.equal(form.json<{ recipients: Array<{ meaning: string | null }> }>().recipients[0]!.meaning, 'Approved for release');
      // The manifestation beside the signature, and the evidence on the audit page, read back with pdftotext.
      const pdf = await h.request({ method: 'GET', url: `/api/v1/forms/${formId}/signed-pdf?format=base64`, as: h.actors.aTest });
      assert.equal(pdf.status, 200, pdf.body);
      const text = pdfsigAndText(Buffer.from(pdf.json<{ data: string }>().data, 'base64')).split('\n---\n')[1]!;
      assert.match(text, new RegExp(`Approved for release · Finn Signer · ${signedAt.slice(0, 19).replace('T', ' ')} UTC`));
      const flat = text.replace(/\s+/g, ' ');
      assert.match(flat, /Meaning of signature Approved for release/);
      assert.match(flat, /Authentication One-time code by e-mail to f•••@example\.com; asked before the document opened and again at signing\. Codes sent: 2; wrong codes: 1; lockouts: 0/);
      assert.doesNotMatch(flat, /whoever opened it could sign/);
      // The trail in order: the opening check before the view, the Finish check (a wrong code first) around the signature.
      const rows = [...text.matchAll(/^ {3}(Sent|Viewed|Code sent|Verified|Wrong code|Signed) +(\S+ \S+) UTC +(?:127\.0\.0\.1 +)?(.*)$/gm)].map((m) => `${m[1]} ${m[2]!.slice(11)} ${m[3]!.trim()}`);
      assert.deepEqual(rows, [
        'Code sent 09:00:00 check at opening · to f•••@example.com', 'Verified 09:00:00 check at opening', 'Viewed 09:00:00 lightMyRequest',
        'Code sent 09:02:00 check at signing · to f•••@example.com', 'Wrong code 09:02:00 check at signing', 'Verified 09:02:00 check at signing', 'Signed 09:02:00 lightMyRequest',
      ]);
      // The form's events list: who passed which check (not the code), beside the form's own events.
      const events = await h.request({ method: 'GET', url: `/api/v1/forms/${formId}/events?limit=100`, as: h.actors.aTest });
      assert.equal(events.status, 200, events.body);
      const list = events.json<{ data: Array<{ type: string; data: { authentication?: unknown } }> }>().data;
      assert.deepEqual(list.filter((e) => e.type === 'recipient.authenticated').map((e) => e.data.authentication).reverse(), [
        { recipient_id: recipientId, method: 'email_code', purpose: 'open' }, { recipient_id: recipientId, method: 'email_code', purpose: 'sign' },
      ]);
      assert.ok(list.filter((e) => e.type !== 'recipient.authenticated').every((e) => e.data.authentication === undefined));
      assert.ok(!events.body.includes(open.code) && !events.body.includes(second.code), 'no code in the events');
      // Not a webhook type: a webhook cannot subscribe to it.
      const hook = await h.request({ method: 'POST', url: '/api/v1/webhooks', as: h.actors.aTest, json: { url: 'https://example.com/hooks', events: ['recipient.authenticated'] } });
      assert.equal(hook.status, 400, hook.body);
      const trail = await h.request({ method: 'GET', url: `/api/v1/forms/${formId}/audit-trail`, as: h.actors.aTest });
      assert.equal(trail.status, 200);
      const trailText = pdfsigAndText(trail.rawPayload).split('\n---\n')[1]!;
      assert.match(trailText, /Codes sent: 2; wrong codes: 1; lockouts: 0/);
      assert.match(trailText, /Meaning of signature\s+Approved for release/);
      // Both checks are in the check log, each with its purpose.
      const log = await h.deps.database.db.selectFrom('recipient_check_log').select(['kind', 'purpose', 'destination']).where('form_id', '=', formId).orderBy('at').execute();
      assert.deepEqual(log.filter((l) => l.kind !== 'failed').map((l) => `${l.kind}:${l.purpose}:${l.destination ?? ''}`), [
        'code_sent:open:f•••@example.com', 'verified:open:', 'code_sent:sign:f•••@example.com', 'verified:sign:',
      ]);
    });

    it('sms_code at sign: the Finish code goes over the gateway; a Finish check passed goes stale after 10 minutes', async () => {
      const { token } = await send({ channel: 'email', email: 'sana@example.com', auth: { method: 'sms_code', phone: '+1 415 555 0188', when: 'sign' } });
      await post(token, '/auth/start', {});
      const open = await textedCode('+14155550188');
      assert.match(open.body, /is your code to open "/);
      const cookie = cookieOf(await post(token, '/auth/verify', { code: open.code }));
      clock.advance(61_000);
      assert.equal((await post(token, '/auth/start', {}, cookie)).json().purpose, 'sign');
      const finish = await textedCode('+14155550188');
      assert.match(finish.body, /is your code to sign "/);
      assert.equal((await post(token, '/auth/verify', { code: finish.code }, cookie)).statusCode, 200);
      clock.advance(10 * 60_000 + 1000);
      const stale = await post(token, '', signature, cookie);
      assert.equal(stale.statusCode, 401);
      assert.equal(stale.json().error.param, 'finish');
    });

    it('access_code at sign: the same code is asked again at Finish; without the session cookie nothing is signed', async () => {
      const { token } = await send({ channel: 'email', email: 'ada@example.com', auth: { method: 'access_code', access_code: ACCESS, when: 'sign' } });
      const cookie = cookieOf(await post(token, '/auth/verify', { code: ACCESS }));
      assert.equal((await post(token, '', signature, cookie)).json().error.param, 'finish');
      // A bypass: the Finish check from a browser that never opened the link starts a session that
      // has passed only the Finish check, which is not the opening one.
      const stranger = await post(token, '/auth/verify', { code: ACCESS });
      assert.equal(stranger.statusCode, 200);
      assert.equal(stranger.json().purpose, 'open');
      const wrong = await post(token, '/auth/verify', { code: 'not-the-code' }, cookie);
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().error.code, 'auth_code_invalid');
      const right = await post(token, '/auth/verify', { code: ACCESS }, cookie);
      assert.equal(right.json().purpose, 'sign');
      const signed = await post(token, '', signature, cookie);
      assert.equal(signed.statusCode, 200, signed.body);
    });

    it('one address trying link after link is stopped after 20 wrong codes in 15 minutes (per-address limit), others are not', async () => {
      const links = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => send({ channel: 'email', email: `many-${i}@example.com`, auth: { method: 'email_code' } })));
      const from = (token: string, ip: string, code: string) =>
        h.app.inject({ method: 'POST', url: `/sign/${token}/auth/verify`, remoteAddress: ip, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: JSON.stringify({ code }) });
      for (const { token } of links.slice(0, 5)) {
        for (let i = 0; i < 4; i++) assert.equal((await from(token, '203.0.113.9', `guess-${i}`)).statusCode, 400);
      }
      const stopped = await from(links[5]!.token, '203.0.113.9', 'guess-x');
      assert.equal(stopped.statusCode, 429, stopped.body);
      assert.equal(stopped.json().error.code, 'rate_limited');
      assert.ok(Number(stopped.headers['retry-after']) > 0 && Number(stopped.headers['retry-after']) <= 900);
      // Refused before any code is compared; another address is not held back by it (its wrong code is just wrong).
      assert.equal((await from(links[5]!.token, '203.0.113.9', '123456')).statusCode, 429);
      const other = await from(links[5]!.token, '198.51.100.7', 'guess-y');
      assert.deepEqual([other.statusCode, other.json().error.code], [400, 'auth_code_invalid']);
      // After the window the address may try again.
      clock.advance(15 * 60_000 + 1000);
      assert.equal((await from(links[5]!.token, '203.0.113.9', 'guess-z')).json().error.code, 'auth_code_invalid');
    });
  });
}
