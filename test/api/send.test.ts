import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { resolveSigningLink } from '../../src/domain/signing/resolve-link.js';
import { DIALECTS, createHarness, errorOf, type Harness } from '../harness.js';
import { seedTemplate } from '../shared/seed.js';

// POST /api/v1/forms/{id}/send (CONTRACT.md Part A and Part B "Forms"): recipients, signing links,
// all-or-nothing, and the one transaction that records the send, its messages and its jobs.

interface Recipient {
  object: string;
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  channel: string;
  signer: number;
  status: string;
  delivery_status: string;
  delivery_error: string | null;
  signing_url: string;
  sent_at: string;
  viewed_at: string | null;
  signed_at: string | null;
}
interface Form { id: string; status: string; sent_at: string | null; expires_at: string | null; recipients: Recipient[] }
interface Event { id: string; type: string; data: { object: Form } }

const NOW = new Date('2026-03-01T10:00:00.000Z');

for (const dialect of DIALECTS) {
  describe(`send (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    let now = NOW;
    before(async () => {
      h = await createHarness(dialect, { clock: { now: () => now }, env: { BASE_URL: 'https://sign.example.com' } });
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', '2026-01-01T00:00:00.000Z');
    });
    after(() => h.close());

    const newForm = async (extra: Record<string, unknown> = {}, as = h.actors.aTest): Promise<Form> => {
      const res = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId, ...extra } });
      assert.equal(res.status, 201, res.body);
      return res.json<Form>();
    };
    const send = (formId: string, recipients: unknown[], as = h.actors.aTest) =>
      h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients } });
    const db = () => h.deps.database.db;
    const counts = async (formId: string) => ({
      recipients: (await db().selectFrom('recipients').select('id').where('form_id', '=', formId).execute()).length,
      messages: (await db().selectFrom('messages').select('id').where('form_id', '=', formId).execute()).length,
      jobs: (await db().selectFrom('outbox').select('payload').where('kind', '=', 'message.deliver').execute()).length,
      events: (await db().selectFrom('events').select('id').where('form_id', '=', formId).execute()).length,
    });

    it('sends to an e-mail recipient: form sent, a recipient with a signing link, one message and one job, one form.sent event', async () => {
      now = new Date(NOW.getTime() - 1000); // created a second before it is sent (events list by time)
      const form = await newForm({ expires_in_days: 14 });
      now = NOW;
      const jobsBefore = (await counts(form.id)).jobs;
      const res = await send(form.id, [{ email: 'Ada@Example.com', channel: 'email', name: 'Ada Lovelace' }]);
      assert.equal(res.status, 200, res.body);
      const sent = res.json<Form>();
      assert.equal(sent.status, 'sent');
      assert.equal(sent.sent_at, NOW.toISOString());
      assert.equal(sent.expires_at, new Date(NOW.getTime() + 14 * 86_400_000).toISOString());
      assert.equal(sent.recipients.length, 1);
      const r = sent.recipients[0]!;
      assert.match(r.id, /^rcp_[0-9A-Za-z]{24}$/);
      assert.deepEqual(
        { ...r, id: undefined, signing_url: undefined },
        { object: 'recipient', id: undefined, name: 'Ada Lovelace', email: 'Ada@Example.com', phone: null, channel: 'email', signer: 1, status: 'sent', delivery_status: 'queued', delivery_error: null, signing_url: undefined, sent_at: NOW.toISOString(), viewed_at: null, signed_at: null,
          // After sending (issue #23).
          declined_at: null, decline_reason: null, last_reminded_at: null, meaning: null, locale: null,
          // Issue 42: a recipient's role, the approval time and their own message.
          role: 'signer', approved_at: null, message: null },
      );
      const token = /^https:\/\/sign\.example\.com\/sign\/([A-Za-z0-9_-]{43})$/.exec(r.signing_url)?.[1];
      assert.ok(token, r.signing_url);

      // Only the token's SHA-256 is stored; the token itself appears in no column of any row.
      const row = await db().selectFrom('recipients').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow();
      assert.equal(row.token_hash, createHash('sha256').update(token).digest('hex'));
      assert.ok(!JSON.stringify(row).includes(token));
      const events = await db().selectFrom('events').selectAll().where('form_id', '=', form.id).execute();
      assert.ok(events.every((e) => !e.form.includes(token)), 'event snapshots keep no link');

      // The message, composed at send time, carries the link; its job is pending.
      const messages = await db().selectFrom('messages').selectAll().where('form_id', '=', form.id).execute();
      assert.equal(messages.length, 1);
      assert.equal(messages[0]!.to_address, 'Ada@Example.com');
      assert.equal(messages[0]!.recipient_id, r.id);
      assert.equal(messages[0]!.status, 'queued');
      assert.ok(messages[0]!.text.includes(r.signing_url), 'the text part holds the link');
      assert.ok(messages[0]!.html?.includes(r.signing_url), 'the HTML part holds the link');
      const jobs = await db().selectFrom('outbox').selectAll().where('kind', '=', 'message.deliver').execute();
      assert.equal(jobs.length, jobsBefore + 1);
      assert.ok(jobs.some((j) => (JSON.parse(j.payload) as { message_id: string }).message_id === messages[0]!.id && j.account_id === h.actors.aTest.partition.accountId));

      // The same Form everywhere: GET, the list, and the form.sent event (whose id is addressable).
      const got = await h.request({ url: `/api/v1/forms/${form.id}`, as: h.actors.aTest });
      assert.deepEqual(got.json<Form>(), sent);
      const list = await h.request({ url: '/api/v1/forms?status=sent', as: h.actors.aTest });
      assert.deepEqual(list.json<{ data: Form[] }>().data.find((f) => f.id === form.id), sent);
      const log = (await h.request({ url: `/api/v1/forms/${form.id}/events`, as: h.actors.aTest })).json<{ data: Event[] }>().data;
      assert.deepEqual(log.map((e) => e.type), ['form.sent', 'form.created']);
      assert.deepEqual(log[0]!.data.object, sent);
      assert.equal(log[1]!.data.object.recipients.length, 0, 'form.created shows the form as it was');
      const byId = await db().selectFrom('events').select('type').where('id', '=', log[0]!.id).execute();
      assert.deepEqual(byId, [{ type: 'form.sent' }]);
    });

    it('adds recipients to a sent form; slots follow the order first sent; an explicit signer is honoured and a taken one refused', async () => {
      const form = await newForm();
      assert.equal((await send(form.id, [{ email: 'a@example.com', channel: 'email', name: 'A' }])).status, 200);
      const first = (await h.request({ url: `/api/v1/forms/${form.id}`, as: h.actors.aTest })).json<Form>();
      now = new Date(NOW.getTime() + 3600_000);
      try {
        const res = await send(form.id, [
          { phone: '+44 20 7946 0958', channel: 'sms', name: 'B' },
          { email: 'c@example.com', channel: 'email', name: 'C', signer: 5 },
          { email: 'd@example.com', channel: 'email', name: 'D' },
        ]);
        assert.equal(res.status, 200, res.body);
        const f = res.json<Form>();
        assert.deepEqual(f.recipients.map((r) => [r.name, r.signer, r.channel, r.phone ?? r.email]), [
          ['A', 1, 'email', 'a@example.com'],
          ['B', 2, 'sms', '+442079460958'],
          ['C', 5, 'email', 'c@example.com'],
          ['D', 3, 'email', 'd@example.com'],
        ]);
        assert.equal(f.sent_at, first.sent_at, 'sent_at is the first send');
        assert.equal(f.expires_at, first.expires_at, 'expiry counts from the first send');
        const taken = await send(form.id, [{ email: 'e@example.com', channel: 'email', name: 'E', signer: 2 }]);
        assert.equal(taken.status, 400);
        assert.equal(errorOf(taken).param, 'recipients[0].signer');
      } finally {
        now = NOW;
      }
    });

    it('the same recipient again is form_already_sent (e-mail in another case, phone in another format), and the whole call changes nothing', async () => {
      const form = await newForm();
      assert.equal((await send(form.id, [{ email: 'Grace@Example.com', channel: 'email', name: 'Grace' }, { phone: '+14155550123', channel: 'sms', name: 'Ann' }])).status, 200);
      const before = await counts(form.id);
      const mixed = await send(form.id, [{ email: 'new@example.com', channel: 'email', name: 'New' }, { email: 'grace@EXAMPLE.com', channel: 'email', name: 'Grace again' }]);
      assert.equal(mixed.status, 409, mixed.body);
      assert.deepEqual({ code: errorOf(mixed).code, type: errorOf(mixed).type, param: errorOf(mixed).param }, { code: 'form_already_sent', type: 'conflict_error', param: 'recipients[1]' });
      const phone = await send(form.id, [{ phone: '+1 (415) 555-0123', channel: 'sms', name: 'Ann again' }]);
      assert.equal(phone.status, 409);
      assert.equal(errorOf(phone).param, 'recipients[0]');
      assert.deepEqual(await counts(form.id), before, 'no recipient, message, job or event was added');
      // The same address on the other channel is another recipient.
      assert.equal((await send(form.id, [{ email: 'new@example.com', channel: 'email', name: 'New' }])).status, 200);
    });

    it('refuses bad recipients with 400 and the parameter', async () => {
      const form = await newForm();
      const cases: Array<[unknown[], number, string, string]> = [
        [[], 400, 'parameter_invalid', 'recipients'],
        [[{ channel: 'email', name: 'No address' }], 400, 'parameter_missing', 'recipients[0].email'],
        [[{ channel: 'sms', name: 'No phone', email: 'x@example.com' }], 400, 'parameter_missing', 'recipients[0].phone'],
        [[{ channel: 'sms', name: 'National', phone: '(415) 555-0123' }], 400, 'parameter_invalid', 'recipients[0].phone'],
        [[{ channel: 'sms', name: 'Too short', phone: '+1 415' }], 400, 'parameter_invalid', 'recipients[0].phone'],
        [[{ channel: 'email', name: 'Bad', email: 'not-an-address' }], 400, 'parameter_invalid', 'recipients[0].email'],
        // What a mail library would read as a display name, or as two addresses.
        [[{ channel: 'email', name: 'Bob', email: 'bob<bob@x.com>' }], 400, 'parameter_invalid', 'recipients[0].email'],
        [[{ channel: 'email', name: 'Bob', email: 'x,bob@x.com' }], 400, 'parameter_invalid', 'recipients[0].email'],
        [[{ channel: 'fax', name: 'Fax', email: 'x@example.com' }], 400, 'parameter_invalid', 'recipients[0].channel'],
        [[{ channel: 'email', name: 'X', email: 'x@example.com', cc: 'y@example.com' }], 400, 'parameter_unknown', 'recipients[0].cc'],
        [[{ channel: 'email', name: 'X', email: 'x@example.com' }, { channel: 'email', name: 'Y', email: 'X@example.com' }], 400, 'parameter_invalid', 'recipients[1]'],
        [Array.from({ length: 21 }, (_, i) => ({ channel: 'email', name: `R${i}`, email: `r${i}@example.com` })), 400, 'parameter_invalid', 'recipients'],
      ];
      for (const [recipients, status, code, param] of cases) {
        const res = await send(form.id, recipients);
        assert.equal(res.status, status, `${JSON.stringify(recipients).slice(0, 120)} → ${res.body}`);
        assert.equal(errorOf(res).code, code, res.body);
        assert.equal(errorOf(res).param, param, res.body);
      }
      const unknownTop = await h.request({ method: 'POST', url: `/api/v1/forms/${form.id}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', name: 'X', email: 'x@example.com' }], bcc: true } });
      assert.equal(errorOf(unknownTop).code, 'parameter_unknown');
      assert.deepEqual(await counts(form.id), { ...(await counts(form.id)), recipients: 0, messages: 0 });
      assert.equal((await h.request({ url: `/api/v1/forms/${form.id}`, as: h.actors.aTest })).json<Form>().status, 'draft');
    });

    it('caps a form at 100 recipients', async () => {
      const form = await newForm();
      for (let call = 0; call < 5; call++) {
        const batch = Array.from({ length: 20 }, (_, i) => ({ channel: 'email', name: `P${call}-${i}`, email: `p${call}-${i}@example.com` }));
        assert.equal((await send(form.id, batch)).status, 200);
      }
      const over = await send(form.id, [{ channel: 'email', name: 'One more', email: 'more@example.com' }]);
      assert.equal(over.status, 400);
      assert.equal(errorOf(over).param, 'recipients');
      assert.match(errorOf(over).message, /at most 100 recipients/);
      assert.equal((await counts(form.id)).recipients, 100);
    });

    it('a signed or expired form is form_not_sendable; a form past expires_at is form_expired', async () => {
      for (const status of ['signed', 'expired'] as const) {
        const form = await newForm();
        await h.deps.database.db.updateTable('forms').set({ status }).where('id', '=', form.id).execute();
        const res = await send(form.id, [{ channel: 'email', name: 'Late', email: 'late@example.com' }]);
        assert.equal(res.status, 409);
        assert.equal(errorOf(res).code, 'form_not_sendable');
        assert.match(errorOf(res).message, new RegExp(status));
      }
      const form = await newForm({ expires_in_days: 1 });
      assert.equal((await send(form.id, [{ channel: 'email', name: 'On time', email: 'ontime@example.com' }])).status, 200);
      now = new Date(NOW.getTime() + 2 * 86_400_000);
      try {
        const res = await send(form.id, [{ channel: 'email', name: 'Late', email: 'late@example.com' }]);
        assert.equal(res.status, 409);
        assert.equal(errorOf(res).code, 'form_expired');
      } finally {
        now = NOW;
      }
    });

    it('a signing link opens its own form and recipient; a tampered link opens nothing; past expiry it is expired', async () => {
      const form = await newForm({ expires_in_days: 3 });
      const sent = (await send(form.id, [{ email: 'x@example.com', channel: 'email', name: 'X' }, { email: 'y@example.com', channel: 'email', name: 'Y' }])).json<Form>();
      for (const r of sent.recipients) {
        const token = r.signing_url.split('/sign/')[1]!;
        const link = await resolveSigningLink(h.deps.domain, token);
        assert.equal(link?.state, 'open');
        assert.equal(link?.form.id, form.id);
        assert.equal(link?.recipient.id, r.id);
        assert.deepEqual(link?.partition, h.actors.aTest.partition);
        const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
        assert.equal(await resolveSigningLink(h.deps.domain, tampered), undefined);
      }
      assert.equal(await resolveSigningLink(h.deps.domain, 'not-a-token'), undefined);
      now = new Date(NOW.getTime() + 4 * 86_400_000);
      try {
        const token = sent.recipients[0]!.signing_url.split('/sign/')[1]!;
        assert.equal((await resolveSigningLink(h.deps.domain, token))?.state, 'expired');
      } finally {
        now = NOW;
      }
    });

    it("another partition's form is not found, and nothing is sent", async () => {
      const form = await newForm();
      for (const as of [h.actors.aLive, h.actors.bTest]) {
        const res = await send(form.id, [{ channel: 'email', name: 'Eve', email: 'eve@example.com' }], as);
        assert.equal(res.status, 404);
        assert.equal(errorOf(res).code, 'resource_not_found');
      }
      assert.equal((await counts(form.id)).recipients, 0);
    });

    it('concurrent sends of one recipient: exactly one succeeds', async () => {
      const form = await newForm();
      const results = await Promise.all(range(6).map(() => send(form.id, [{ channel: 'email', name: 'Race', email: 'race@example.com' }])));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409]);
      const c = await counts(form.id);
      assert.equal(c.recipients, 1);
      assert.equal(c.messages, 1);
      assert.equal((await db().selectFrom('events').select('id').where('form_id', '=', form.id).where('type', '=', 'form.sent').execute()).length, 1);
    });
  });
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
