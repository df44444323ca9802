import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { FakeClock, startSmtpSink } from '../outbox/support/sending.js';
import { startTwilioServer } from '../outbox/support/twilio.js';
import { SIGN_HEADERS, sampleTemplate } from './support.js';

// Signer checks end to end (issue 38), on both dialects: e-mail codes read from a real SMTP
// conversation, SMS codes from the Twilio-compatible gateway's wire, access codes; wrong codes to the
// lock and back (the lock held by the database, so a second server sees it), expiry, the resend limits,
// and the secrets nowhere they should not be (tables, log lines, events).

const T0 = '2026-05-04T09:00:00.000Z';
const SID = 'AC0123456789abcdef0123456789abcdef';
const ACCESS = 'Harbour-Lights-2718';

for (const dialect of DIALECTS) {
  describe(`signer checks (${dialect})`, () => {
    let h: Harness;
    let clock: FakeClock;
    let templateId: string;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;
    let twilio: Awaited<ReturnType<typeof startTwilioServer>>;
    const logLines: string[] = [];

    before(async () => {
      sink = await startSmtpSink();
      twilio = await startTwilioServer();
      clock = new FakeClock(Date.parse(T0));
      h = await createHarness(dialect, {
        clock,
        logStream: { write: (line: string) => void logLines.push(line) },
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
    const post = (token: string, route: string, body: unknown, app: FastifyInstance = h.app, cookie?: string) =>
      app.inject({ method: 'POST', url: `/sign/${token}/${route}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, payload: JSON.stringify(body) });
    const cookieOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;
    /** The code of the last e-mail to `to`, read from the SMTP conversation. */
    async function mailedCode(to: string): Promise<string> {
      await h.deps.worker.runDue();
      const mail = sink.received.filter((m) => m.envelopeTo.includes(to)).at(-1);
      assert.ok(mail, `an e-mail reached ${to}`);
      const code = /^(\d{6}) is your code/.exec(mail.parsed.subject ?? '')?.[1];
      assert.ok(code, mail.parsed.subject);
      assert.match(mail.parsed.text ?? '', new RegExp(`Enter ${code} on the signing page`));
      assert.doesNotMatch(mail.parsed.text ?? '', /\/sign\//, 'the code message carries no link');
      return code;
    }

    it('email_code: the page names the masked address, the code comes over SMTP, works once, and binds this browser', async () => {
      const { token, formId } = await send({ channel: 'email', email: 'eve.signer@example.com', name: 'Eve', auth: { method: 'email_code' } });
      const page = await h.app.inject({ url: `/sign/${token}` });
      assert.equal(page.statusCode, 401);
      assert.match(page.body, /the 6-digit code we send to <bdi dir="ltr">e•••@example\.com<\/bdi>/);
      const start = await post(token, 'auth/start', {});
      assert.equal(start.statusCode, 200, start.body);
      assert.deepEqual(start.json(), { status: 'started', method: 'email_code', purpose: 'open', destination: 'e•••@example.com', expires_at: '2026-05-04T09:10:00.000Z', resend_at: '2026-05-04T09:01:00.000Z' });
      const code = await mailedCode('eve.signer@example.com');
      const wrong = await post(token, 'auth/verify', { code: code === '000000' ? '111111' : '000000' });
      assert.equal(wrong.statusCode, 400);
      assert.deepEqual([wrong.json().error.code, wrong.json().error.param, wrong.json().error.message], ['auth_code_invalid', 'code', 'That code is not right (or has expired). 4 tries left.']);
      const right = await post(token, 'auth/verify', { code: `${code.slice(0, 3)} ${code.slice(3)}` });
      assert.equal(right.statusCode, 200, right.body);
      const cookie = cookieOf(right);
      const opened = await h.app.inject({ url: `/sign/${token}`, headers: { cookie } });
      assert.equal(opened.statusCode, 200);
      assert.match(opened.body, /id="signing"/);
      // Single use: the same code in another browser is wrong.
      const again = await post(token, 'auth/verify', { code });
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().error.code, 'auth_code_invalid');
      // The code is in the message and nowhere else: not in a log line, an event, the check log.
      assert.ok(logLines.length > 0);
      assert.equal(logLines.filter((l) => l.includes(code)).length, 0, 'no log line has the code');
      assert.equal(logLines.filter((l) => l.includes(token)).length, 0, 'no log line has the link token');
      const events = await h.deps.database.db.selectFrom('events').select('form').where('form_id', '=', formId).execute();
      assert.ok(events.every((e) => !e.form.includes(code)));
      const log = await h.deps.database.db.selectFrom('recipient_check_log').selectAll().where('form_id', '=', formId).orderBy('at').orderBy('kind').execute();
      assert.deepEqual(log.map((e) => [e.kind, e.purpose, e.method, e.destination]), [
        ['code_sent', 'open', 'email_code', 'e•••@example.com'], ['failed', 'open', 'email_code', null], ['failed', 'open', 'email_code', null], ['verified', 'open', 'email_code', null],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)).sort((a, b) => (a[0] === 'code_sent' ? -1 : b[0] === 'code_sent' ? 1 : 0)));
      assert.ok(JSON.stringify(log).indexOf(code) === -1);
    });

    it('sms_code: the code goes to auth.phone over the gateway, the page names the masked number', async () => {
      const { token } = await send({ channel: 'email', email: 'sam@example.com', auth: { method: 'sms_code', phone: '+1 415 555 0123' } });
      const page = await h.app.inject({ url: `/sign/${token}` });
      assert.match(page.body, /by text message to <bdi dir="ltr">\+1•••••0123<\/bdi>/);
      const start = await post(token, 'auth/start', {});
      assert.equal(start.json().destination, '+1•••••0123');
      await h.deps.worker.runDue();
      const sms = twilio.requests.filter((r) => r.form['To'] === '+14155550123').at(-1);
      assert.ok(sms, 'the gateway was asked to text the number');
      const code = /^(\d{6}) is your code/.exec(sms.form['Body'] ?? '')?.[1];
      assert.ok(code, sms.form['Body']);
      const right = await post(token, 'auth/verify', { code });
      assert.equal(right.statusCode, 200, right.body);
      assert.equal((await h.app.inject({ url: `/sign/${token}/document.pdf`, headers: { cookie: cookieOf(right) } })).statusCode, 200);
    });

    it('sms_code without a number for an e-mail recipient is refused at send', async () => {
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
      const formId = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', email: 'x@example.com', auth: { method: 'sms_code' } }] } });
      assert.equal(sent.status, 400);
      assert.deepEqual([sent.json<{ error: { code: string; param: string } }>().error.code, sent.json<{ error: { param: string } }>().error.param], ['parameter_missing', 'recipients[0].auth.phone']);
      const finish = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', email: 'x@example.com', auth: { method: 'email_code', when: 'later' } }] } });
      assert.equal(finish.status, 400);
      assert.equal(finish.json<{ error: { param: string } }>().error.param, 'recipients[0].auth.when');
      const short = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', email: 'x@example.com', auth: { method: 'access_code', access_code: '12345' } }] } });
      assert.equal(short.status, 400);
      assert.equal(short.json<{ error: { param: string } }>().error.param, 'recipients[0].auth.access_code');
    });

    it('5 wrong codes lock the link for 15 minutes, on every server, and the page says how long; then it opens', async () => {
      const { token } = await send({ channel: 'email', email: 'lock@example.com', auth: { method: 'access_code', access_code: ACCESS } });
      const second = await buildApp(h.deps.http, { logger: false });
      try {
        // The tries are counted in the database: the two servers share one count, even at once.
        const tries = await Promise.all([0, 1, 2, 3].map((i) => post(token, 'auth/verify', { code: `wrong-${i}` }, i % 2 === 0 ? h.app : second)));
        assert.deepEqual(tries.map((t) => t.statusCode), [400, 400, 400, 400]);
        assert.deepEqual(tries.map((t) => /(\d) tr/.exec(t.json().error.message)?.[1]).sort(), ['1', '2', '3', '4']);
        const fifth = await post(token, 'auth/verify', { code: 'wrong-5' }, second);
        assert.equal(fifth.statusCode, 429);
        assert.equal(fifth.json().error.code, 'auth_locked');
        assert.equal(fifth.headers['retry-after'], '900');
        // Locked: even the right code is refused, on either server, and no code can be asked for.
        for (const app of [h.app, second]) {
          const right = await post(token, 'auth/verify', { code: ACCESS }, app);
          assert.equal(right.statusCode, 429);
          assert.equal(right.json().error.code, 'auth_locked');
        }
        clock.advance(5 * 60_000);
        const page = await second.inject({ url: `/sign/${token}` });
        assert.equal(page.statusCode, 401);
        assert.match(page.body, /This link is locked for 10 more minutes/);
        const later = await post(token, 'auth/verify', { code: ACCESS });
        assert.equal(later.headers['retry-after'], '600');
        clock.advance(10 * 60_000);
        const open = await post(token, 'auth/verify', { code: ACCESS }, second);
        assert.equal(open.statusCode, 200, open.body);
        const lockedLog = await h.deps.database.db.selectFrom('recipient_check_log').select('kind').where('kind', '=', 'locked').where('recipient_id', '=', (await h.deps.database.db.selectFrom('recipient_checks').select('recipient_id').where('locked_until', 'is not', null).executeTakeFirstOrThrow()).recipient_id).execute();
        assert.equal(lockedLog.length, 1, 'one lock, although two servers counted');
      } finally {
        await second.close();
      }
    });

    it('a code expires after 10 minutes; a new one may be asked for once a minute and 5 times an hour', async () => {
      const { token } = await send({ channel: 'email', email: 'slow@example.com', auth: { method: 'email_code' } });
      assert.equal((await post(token, 'auth/start', {})).statusCode, 200);
      const code = await mailedCode('slow@example.com');
      const soon = await post(token, 'auth/start', {});
      assert.equal(soon.statusCode, 429);
      assert.equal(soon.json().error.code, 'rate_limited');
      assert.equal(soon.headers['retry-after'], '60');
      clock.advance(10 * 60_000 + 1000);
      const expired = await post(token, 'auth/verify', { code });
      assert.equal(expired.statusCode, 400);
      assert.equal(expired.json().error.code, 'auth_code_invalid');
      // Four more within the hour (five in all), a minute apart; the sixth waits for the first to age out.
      for (let i = 0; i < 4; i++) {
        const res = await post(token, 'auth/start', {});
        assert.equal(res.statusCode, 200, res.body);
        await h.deps.worker.runDue();
        clock.advance(61_000);
      }
      const sixth = await post(token, 'auth/start', {});
      assert.equal(sixth.statusCode, 429);
      assert.match(sixth.json().error.message, /5 codes were sent in the last hour/);
      // The first went out at 09:xx:00 of this test; it leaves the hour 3600 s after it.
      const wait = Number(sixth.headers['retry-after']);
      assert.ok(wait > 0 && wait <= 3600 - 10 * 60 - 4 * 61, String(wait));
      clock.advance(wait * 1000);
      const fresh = await post(token, 'auth/start', {});
      assert.equal(fresh.statusCode, 200, fresh.body);
      const latest = await mailedCode('slow@example.com');
      // Only the newest code works.
      const ok = await post(token, 'auth/verify', { code: latest });
      assert.equal(ok.statusCode, 200, ok.body);
    });

    it('the access code is never stored in clear: not in any table, not in the database file', async () => {
      const secret = 'Plain-Secret-Access-9931';
      const { token } = await send({ channel: 'email', email: 'vault@example.com', auth: { method: 'access_code', access_code: secret } });
      assert.equal((await post(token, 'auth/verify', { code: secret })).statusCode, 200);
      const db = h.deps.database.db;
      // PostgreSQL: this harness's schema only (the database holds other tests' schemas too).
      const schema = dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s : undefined;
      const tables = (await db.introspection.getTables()).filter((t) => schema === undefined || t.schema === schema);
      assert.ok(tables.some((t) => t.name === 'recipient_checks'));
      for (const t of tables) {
        const rows = await db.selectFrom(t.name as 'forms').selectAll().execute();
        assert.equal(JSON.stringify(rows).includes(secret), false, `table ${t.name} holds the access code`);
      }
      const stored = await db.selectFrom('recipient_checks').select('access_code_hash').where('access_code_hash', 'is not', null).execute();
      assert.ok(stored.every((r) => /^scrypt\$/.test(r.access_code_hash!)));
      if (dialect === 'sqlite') {
        for (const f of fs.readdirSync(h.dataDir).filter((n) => n.startsWith('formsign.sqlite'))) {
          assert.equal(fs.readFileSync(path.join(h.dataDir, f)).includes(secret), false, `${f} holds the access code`);
        }
      }
    });
  });
}
