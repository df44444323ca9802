// test-runner: own-process — it replaces process.stdout.write to read what the CLI prints
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NOTIFY_COMMANDS } from '../../src/cli/notify-commands.js';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { getNotifySettings, setNotifySettings } from '../../src/domain/accounts/notify-settings.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { enqueueSenderNotice } from '../../src/domain/sending/sender-notice.js';
import { DIALECTS, createHarness, type Actor, type Harness } from '../harness.js';
import { errorCode, signedUp } from '../dashboard/support.js';
import { startSmtpSink } from '../outbox/support/sending.js';
import { twoSignerTemplate } from '../signing/support.js';
import { drain, mailsTo, openLink, sendForm } from './support.js';

// The account's notice settings (CLI, dashboard API) and the notices they cause; who a message says
// it is from whatever the account is called.

async function captureStdout(fn: () => Promise<void>): Promise<string> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  // Only the command's own text: the test runner's reports to its parent are bytes, passed through.
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof chunk !== 'string') return (write as (c: Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    out += chunk;
    return true;
  }) as typeof process.stdout.write;
  try {
    await fn();
  } finally {
    process.stdout.write = write;
  }
  return out;
}

for (const dialect of DIALECTS) {
  describe(`notice settings and notices (${dialect})`, () => {
    let h: Harness;
    let sink: Awaited<ReturnType<typeof startSmtpSink>>;

    before(async () => {
      sink = await startSmtpSink();
      h = await createHarness(dialect, { env: { SMTP_URL: sink.url, MAIL_FROM: 'sign@formsign.test', BASE_URL: 'https://sign.acme.test' } });
    });
    after(async () => {
      await h.close();
      await sink.close();
    });

    async function account(name: string): Promise<Actor> {
      const a = await createAccount(h.deps.domain, { name, plan: 'paid' });
      const k = await createApiKey(h.deps.domain, { accountId: a.id, mode: 'test' });
      return { key: k.key, keyId: k.id, partition: { accountId: a.id, mode: 'test' } };
    }

    it('`accounts set-notify ID EMAIL --viewed on` sets the address and the opt-in; `none` clears it; a bad address is refused by the recipients\' e-mail rule', async () => {
      const id = h.actors.bTest.partition.accountId;
      const set = JSON.parse(await captureStdout(() => NOTIFY_COMMANDS['accounts set-notify']!(h.deps, [id, ' Notices@Acme.test ', '--viewed', 'on', '--json'], true))) as unknown;
      assert.deepEqual(set, { object: 'notification_settings', account_id: id, notify_email: 'Notices@Acme.test', notify_viewed: true });
      const human = await captureStdout(() => NOTIFY_COMMANDS['accounts set-notify']!(h.deps, [id, 'other@acme.test'], false));
      assert.equal(human, `Account ${id}: notices go to other@acme.test (completed with the PDF, declined, viewed); replies to the account's messages go there too.\n`);
      assert.deepEqual(await getNotifySettings(h.deps.domain, id), { object: 'notification_settings', account_id: id, notify_email: 'other@acme.test', notify_viewed: true });
      for (const bad of ['Ada <ada@example.com>', 'a@example.com, b@example.com', 'not-an-address']) {
        await assert.rejects(NOTIFY_COMMANDS['accounts set-notify']!(h.deps, [id, bad], false), (e: Error & { code?: string }) => e.code === 'parameter_invalid' && /notify_email must be one e-mail address/.test(e.message));
      }
      await assert.rejects(NOTIFY_COMMANDS['accounts set-notify']!(h.deps, [id, 'x@acme.test', '--viewed', 'maybe'], false), /--viewed must be on or off/);
      await assert.rejects(NOTIFY_COMMANDS['accounts set-notify']!(h.deps, ['acct_nope', 'x@acme.test'], false), (e: Error & { code?: string }) => e.code === 'resource_not_found');
      await captureStdout(() => NOTIFY_COMMANDS['accounts set-notify']!(h.deps, [id, 'none', '--viewed', 'off'], false));
      assert.deepEqual(await getNotifySettings(h.deps.domain, id), { object: 'notification_settings', account_id: id, notify_email: null, notify_viewed: false });
    });

    it('dashboard settings: GET and PATCH /dashboard/api/settings/notifications, CSRF-checked, partial updates, the same e-mail rule', async () => {
      const v = await signedUp(h);
      const initial = await v.call('GET', '/dashboard/api/settings/notifications');
      assert.equal(initial.status, 200, initial.body);
      assert.deepEqual(initial.json(), { object: 'notification_settings', account_id: v.accountId, notify_email: null, notify_viewed: false });
      const noCsrf = await v.call('PATCH', '/dashboard/api/settings/notifications', { json: { notify_email: 'ops@acme.test' }, csrf: false });
      assert.equal(noCsrf.status, 403);
      assert.equal(errorCode(noCsrf), 'csrf_token_invalid');
      const set = await v.call('PATCH', '/dashboard/api/settings/notifications', { json: { notify_email: 'ops@acme.test', notify_viewed: true } });
      assert.equal(set.status, 200, set.body);
      assert.deepEqual(set.json(), { object: 'notification_settings', account_id: v.accountId, notify_email: 'ops@acme.test', notify_viewed: true });
      const viewedOff = await v.call('PATCH', '/dashboard/api/settings/notifications', { json: { notify_viewed: false } });
      assert.deepEqual(viewedOff.json(), { object: 'notification_settings', account_id: v.accountId, notify_email: 'ops@acme.test', notify_viewed: false });
      const bad = await v.call('PATCH', '/dashboard/api/settings/notifications', { json: { notify_email: 'ops@acme.test, boss@acme.test' } });
      assert.equal(bad.status, 400);
      assert.equal(errorCode(bad), 'parameter_invalid');
      assert.equal(bad.json<{ error: { param: string } }>().error.param, 'notify_email');
      const unknown = await v.call('PATCH', '/dashboard/api/settings/notifications', { json: { notify_sms: '+1' } });
      assert.equal(errorCode(unknown), 'parameter_unknown');
      const wrongType = await v.call('PATCH', '/dashboard/api/settings/notifications', { json: { notify_viewed: 'yes' } });
      assert.equal(errorCode(wrongType), 'parameter_invalid');
      const cleared = await v.call('PATCH', '/dashboard/api/settings/notifications', { json: { notify_email: null } });
      assert.equal(cleared.json<{ notify_email: string | null }>().notify_email, null);
      const anonymous = await h.app.inject({ method: 'GET', url: '/dashboard/api/settings/notifications' });
      assert.equal(anonymous.statusCode, 401);
    });

    it('From is "<account name> via Formsign" at MAIL_FROM\'s address, quoted whatever the name holds; no Reply-To without a notify_email; no notices then', async () => {
      const name = 'Smith, "Jones" & Co <boss@evil.test>';
      const as = await account(name);
      const tmpl = await twoSignerTemplate(h, as.partition);
      const f = await sendForm(h, as, tmpl, [{ channel: 'email', email: 'quoted1@example.com' }, { channel: 'email', email: 'quoted2@example.com' }]);
      await drain(h);
      const [mail] = mailsTo(sink.received, 'quoted1@example.com');
      assert.ok(mail);
      assert.deepEqual(mail.parsed.from?.value, [{ name: `${name} via Formsign`, address: 'sign@formsign.test' }]);
      assert.equal(mail.parsed.replyTo, undefined);
      assert.deepEqual(mail.envelopeTo, ['quoted1@example.com']);
      assert.match(mail.parsed.text ?? '', /You received this e-mail because Smith, "Jones" & Co <boss@evil\.test> sent "Residential lease" to quoted1@example\.com through Formsign\./);
      await openLink(h, f.tokens[0]!);
      await drain(h);
      const notices = await h.deps.database.db.selectFrom('messages').select('kind').where('form_id', '=', f.formId).where('kind', 'in', ['notice_completed', 'notice_declined', 'notice_viewed']).execute();
      assert.deepEqual(notices, [], 'no notify_email: no notices');
    });

    it('viewed notices only when opted in; the declined notice (the call the decline makes) carries who, when and the reason', async () => {
      const as = await account('Acme Rentals');
      await setNotifySettings(h.deps.domain, as.partition.accountId, { notify_email: 'landlord-office@acme.test' });
      const tmpl = await twoSignerTemplate(h, as.partition);
      const f = await sendForm(h, as, tmpl, [{ channel: 'email', email: 'decl1@example.com', name: 'Grace Hopper' }, { channel: 'email', email: 'decl2@example.com' }]);
      await openLink(h, f.tokens[0]!);
      await drain(h);
      assert.deepEqual(mailsTo(sink.received, 'landlord-office@acme.test'), [], 'viewed is opt-in');

      const db = h.deps.database.db;
      const form = await db.selectFrom('forms').selectAll().where('id', '=', f.formId).executeTakeFirstOrThrow();
      const recipient = await db.selectFrom('recipients').selectAll().where('id', '=', f.recipientIds[0]!).executeTakeFirstOrThrow();
      const at = '2026-01-15T10:15:00.000Z'; // in the past: the notice's job is due at once
      const id = await h.deps.domain.transact((trx) => enqueueSenderNotice(trx, { partition: as.partition, now: at }, form, { kind: 'declined', recipient, reason: 'The rent is wrong.\nCall me.' }));
      assert.match(id ?? '', /^msg_/);
      await drain(h);
      const [notice] = mailsTo(sink.received, 'landlord-office@acme.test');
      assert.ok(notice);
      assert.equal(notice.parsed.subject, 'Declined: Grace Hopper declined to sign "Residential lease"');
      assert.deepEqual(notice.parsed.from?.value, [{ name: 'Acme Rentals via Formsign', address: 'sign@formsign.test' }]);
      assert.deepEqual(notice.parsed.replyTo?.value.map((v) => v.address), ['landlord-office@acme.test']);
      const text = notice.parsed.text ?? '';
      assert.match(text, /Grace Hopper declined to sign "Residential lease" on 15 January 2026, 10:15 UTC\./);
      assert.match(text, /Their reason: "The rent is wrong\. Call me\."/);
      assert.ok(String(notice.parsed.html).includes('Their reason: &quot;The rent is wrong. Call me.&quot;'));
      assert.deepEqual(notice.parsed.attachments, []);
      const row = await db.selectFrom('messages').select(['kind', 'recipient_id', 'status']).where('id', '=', id!).executeTakeFirstOrThrow();
      assert.deepEqual(row, { kind: 'notice_declined', recipient_id: f.recipientIds[0], status: 'delivered' });
      // The recipient's delivery_status is about their invitation, not about notices that name them.
      const r = await db.selectFrom('recipients').select('delivery_status').where('id', '=', f.recipientIds[0]!).executeTakeFirstOrThrow();
      assert.equal(r.delivery_status, 'delivered');

      await setNotifySettings(h.deps.domain, as.partition.accountId, { notify_viewed: true });
      await openLink(h, f.tokens[1]!);
      await drain(h);
      const viewed = mailsTo(sink.received, 'landlord-office@acme.test').filter((m) => m.parsed.subject?.startsWith('Viewed:'));
      assert.deepEqual(viewed.map((m) => m.parsed.subject), ['Viewed: decl2@example.com opened "Residential lease"'], 'a recipient without a name is named by address');
    });
  });
}
