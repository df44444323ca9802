import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccount, setAccountLimits } from '../../src/domain/accounts/manage-accounts.js';
import { bulkSendRunHandler } from '../../src/domain/bulk/run-bulk-send.js';
import { createForm } from '../../src/domain/forms/create-form.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { DIALECTS, createHarness, errorOf, type Actor, type Harness } from '../harness.js';
import { multipart } from '../shared/multipart.js';
import { seedTemplate, SEED_FIELDS } from '../shared/seed.js';

// POST /api/v1/bulk-sends (issue 42 item 1): JSON rows and a CSV upload, every row checked as
// createForm and sendForm check it (a bad row reported by number, the others sent), the quota's 402,
// the forms made and sent by the job worker exactly once (also when two runs race for the same rows,
// or a run died after making a row's form), GET /bulk-sends/{id}, its rows and bulk_send.completed.

interface BulkSend { object: string; id: string; status: string; total: number; sent: number; failed: number; completed_at: string | null; row_errors?: Array<{ row: number; error: { code: string; message: string; param?: string } }> }
interface BulkRow { object: string; row: number; status: string; form_id: string | null; error: { code: string; message: string; param?: string } | null }
interface Form { id: string; status: string; name: string; fields: Array<{ name: string; value: unknown }>; recipients: Array<{ email: string | null; phone: string | null; name: string | null; channel: string; locale: string | null }> }

const FIELDS = [...SEED_FIELDS, { name: 'agree', type: 'checkbox' as const, required: false, signer: 1, page: 1, x: 72, y: 160, width: 20, height: 20 }];

for (const dialect of DIALECTS) {
  describe(`bulk send (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect);
      templateId = await seedTemplate(h, h.actors.aTest.partition, 'Lease', new Date().toISOString(), FIELDS);
    });
    after(() => h.close());

    const post = (json: unknown, as: Actor = h.actors.aTest) => h.request({ method: 'POST', url: '/api/v1/bulk-sends', as, json });
    const postCsv = (csv: string, as: Actor = h.actors.aTest, tmpl = templateId) => {
      const m = multipart([{ name: 'template_id', value: tmpl }, { name: 'file', value: csv, filename: 'rows.csv', type: 'text/csv' }]);
      return h.request({ method: 'POST', url: '/api/v1/bulk-sends', as, payload: m.payload, headers: m.headers });
    };
    const get = async <T>(url: string, as: Actor = h.actors.aTest): Promise<T> => {
      const res = await h.request({ url, as });
      assert.equal(res.status, 200, res.body);
      return res.json<T>();
    };
    const rowsOf = async (id: string) => (await get<{ data: BulkRow[]; has_more: boolean }>(`/api/v1/bulk-sends/${id}/rows?limit=100`)).data;
    const formOf = (id: string) => get<Form>(`/api/v1/forms/${id}`);
    const value = (f: Form, name: string) => f.fields.find((x) => x.name === name)?.value;
    const messagesTo = (address: string) => h.deps.database.db.selectFrom('messages').select(['form_id', 'kind']).where('to_address', '=', address).execute();

    it('JSON: bad rows are reported by number with the single calls’ errors; the others are created and sent by the worker', async () => {
      const res = await post({
        template_id: templateId,
        rows: [
          { prefill: { full_name: 'Ada Lovelace', email: 'ada@example.com', agree: true }, recipients: [{ channel: 'email', email: 'ada@example.com', name: 'Ada' }], name: 'Lease for Ada' },
          { prefill: { full_name: 'Bad Prefill', email: 'not-an-address' }, recipients: [{ channel: 'email', email: 'bad1@example.com' }] },
          { prefill: { full_name: 'Bad Recipient' }, recipients: [{ channel: 'email', email: 'nobody' }] },
          { prefill: { full_name: 'Grace Hopper' }, recipients: [{ channel: 'sms', phone: '+14155550123', locale: 'de' }] },
          { prefill: { full_name: 'Unknown key' }, recipients: [{ channel: 'email', email: 'x@example.com' }], colour: 'blue' },
        ],
      });
      assert.equal(res.status, 202, res.body);
      const bulk = res.json<BulkSend>();
      assert.match(bulk.id, /^bulk_[0-9A-Za-z]{24}$/);
      assert.deepEqual([bulk.object, bulk.status, bulk.total, bulk.sent, bulk.failed], ['bulk_send', 'processing', 5, 0, 3]);
      assert.deepEqual(bulk.row_errors?.map((e) => [e.row, e.error.code, e.error.param]), [
        [2, 'parameter_invalid', 'prefill.email'],
        [3, 'parameter_invalid', 'recipients[0].email'],
        [5, 'parameter_unknown', 'colour'],
      ]);
      // The same words as createForm answers for that value.
      const single = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId, prefill: { email: 'not-an-address' } } });
      assert.equal(bulk.row_errors?.[0]?.error.message, errorOf(single).message);
      assert.equal((await messagesTo('ada@example.com')).length, 0, 'nothing is sent before the worker runs');

      await h.deps.worker.runDue();
      const done = await get<BulkSend>(`/api/v1/bulk-sends/${bulk.id}`);
      assert.deepEqual([done.status, done.total, done.sent, done.failed], ['completed', 5, 2, 3]);
      assert.ok(done.completed_at);
      assert.equal(done.row_errors, undefined, 'row_errors belong to the create answer');
      const rows = await rowsOf(bulk.id);
      assert.deepEqual(rows.map((r) => [r.row, r.status, r.form_id !== null, r.error?.param ?? null]), [
        [1, 'sent', true, null], [2, 'failed', false, 'prefill.email'], [3, 'failed', false, 'recipients[0].email'], [4, 'sent', true, null], [5, 'failed', false, 'colour'],
      ]);
      const ada = await formOf(rows[0]!.form_id!);
      assert.deepEqual([ada.status, ada.name, value(ada, 'full_name'), value(ada, 'agree')], ['sent', 'Lease for Ada', 'Ada Lovelace', true]);
      assert.deepEqual(ada.recipients.map((r) => [r.channel, r.email, r.name]), [['email', 'ada@example.com', 'Ada']]);
      const grace = await formOf(rows[3]!.form_id!);
      assert.deepEqual([grace.name, grace.recipients[0]!.phone, grace.recipients[0]!.locale], ['Lease', '+14155550123', 'de']);
      assert.deepEqual((await messagesTo('ada@example.com')).map((m) => [m.form_id, m.kind]), [[ada.id, 'invite']]);
      // Paged like the other lists.
      const page = await get<{ data: BulkRow[]; has_more: boolean }>(`/api/v1/bulk-sends/${bulk.id}/rows?limit=2&starting_after=2`);
      assert.deepEqual([page.data.map((r) => r.row), page.has_more], [[3, 4], true]);
      const failed = await get<{ data: BulkRow[] }>(`/api/v1/bulk-sends/${bulk.id}/rows?status=failed`);
      assert.deepEqual(failed.data.map((r) => r.row), [2, 3, 5]);
      // One bulk_send.completed, whose object is the bulk send as it ended.
      const events = await get<{ data: Array<{ type: string; data: { object: BulkSend } }> }>('/api/v1/events?type=bulk_send.completed');
      const mine = events.data.filter((e) => e.data.object.id === bulk.id);
      assert.equal(mine.length, 1);
      assert.deepEqual([mine[0]!.data.object.object, mine[0]!.data.object.status, mine[0]!.data.object.sent, mine[0]!.data.object.failed], ['bulk_send', 'completed', 2, 3]);
      // Another partition sees none of it.
      assert.equal((await h.request({ url: `/api/v1/bulk-sends/${bulk.id}`, as: h.actors.aLive })).status, 404);
    });

    it('CSV: columns map to prefill and recipients (e-mail or SMS), checkboxes read true/false, bad lines reported by number', async () => {
      const csv = [
        'name,prefill.full_name,prefill.email,prefill.agree,recipient.1.email,recipient.1.name,recipient.1.locale,recipient.2.phone',
        'Lease one,"Lovelace, Ada",ada.csv@example.com,yes,ada.csv@example.com,Ada,fr,',
        ',Grace Hopper,,false,grace.csv@example.com,,,+14155550199',
        ',Bad Number,,,edsger.csv@example.com,,,12345',
        ',Bad Box,,maybe,alan.csv@example.com,,,',
        ',Phone Only,,,,,,+14155550177',
      ].join('\r\n');
      const res = await postCsv(`\uFEFF${csv}\r\n`);
      assert.equal(res.status, 202, res.body);
      const bulk = res.json<BulkSend>();
      assert.deepEqual([bulk.total, bulk.failed], [5, 2]);
      assert.deepEqual(bulk.row_errors?.map((e) => [e.row, e.error.param]), [[3, 'recipients[1].phone'], [4, 'prefill.agree']]);
      await h.deps.worker.runDue();
      const rows = await rowsOf(bulk.id);
      assert.deepEqual(rows.map((r) => r.status), ['sent', 'sent', 'failed', 'failed', 'sent']);
      const one = await formOf(rows[0]!.form_id!);
      assert.deepEqual([one.name, value(one, 'full_name'), value(one, 'agree')], ['Lease one', 'Lovelace, Ada', true]);
      assert.deepEqual(one.recipients.map((r) => [r.email, r.name, r.locale]), [['ada.csv@example.com', 'Ada', 'fr']]);
      const two = await formOf(rows[1]!.form_id!);
      assert.deepEqual(two.recipients.map((r) => [r.channel, r.email ?? r.phone]), [['email', 'grace.csv@example.com'], ['sms', '+14155550199']]);
      assert.equal(value(two, 'agree'), false);
      const five = await formOf(rows[4]!.form_id!);
      assert.deepEqual(five.recipients.map((r) => [r.channel, r.phone]), [['sms', '+14155550177']]);
      assert.equal((await get<BulkSend>(`/api/v1/bulk-sends/${bulk.id}`)).status, 'completed');
    });

    it('CSV: an unknown column, an unreadable file or a missing template is the whole request’s 400/404; too many rows are refused', async () => {
      const unknown = await postCsv('prefill.full_name,recipient.1.mail\nAda,ada@example.com\n');
      assert.equal(unknown.status, 400);
      assert.deepEqual([errorOf(unknown).code, errorOf(unknown).param], ['parameter_invalid', 'file']);
      assert.match(errorOf(unknown).message, /recipient\.1\.mail/);
      const broken = await postCsv('prefill.full_name,recipient.1.email\n"Ada,ada@example.com\n');
      assert.deepEqual([broken.status, errorOf(broken).param], [400, 'file']);
      const missing = await postCsv('prefill.full_name,recipient.1.email\nAda,ada@example.com\n', h.actors.aTest, 'tmpl_000000000000000000000000');
      assert.deepEqual([missing.status, errorOf(missing).param], [404, 'template_id']);
      const max = dialect === 'postgres' ? 5000 : 1000;
      const lines = Array.from({ length: max + 1 }, (_, i) => `N${i},n${i}@example.com`);
      const tooMany = await postCsv(`prefill.full_name,recipient.1.email\n${lines.join('\n')}\n`);
      assert.equal(tooMany.status, 400);
      assert.match(errorOf(tooMany).message, new RegExp(`at most ${max.toLocaleString('en-US')} rows`));
      assert.equal((await h.deps.database.db.selectFrom('bulk_sends').select('id').where('total', '>', max).execute()).length, 0);
    });

    it('a non-signer (approver, cc, viewer) on a slot with fields is refused up front with its row number and sendForm’s error; no form is left behind', async () => {
      const p = h.actors.aTest.partition;
      const formCount = async () => (await h.deps.database.db.selectFrom('forms').select('id').where('account_id', '=', p.accountId).where('mode', '=', p.mode).execute()).length;
      const formsBefore = await formCount();
      const res = await post({
        template_id: templateId,
        rows: [
          { prefill: { full_name: 'Signer' }, recipients: [{ channel: 'email', email: 'nonsigner.ok@example.com' }] },
          { prefill: { full_name: 'Approver' }, recipients: [{ channel: 'email', email: 'nonsigner.approver@example.com', role: 'approver' }] },
          { prefill: { full_name: 'Cc' }, recipients: [{ channel: 'email', email: 'nonsigner.cc@example.com', role: 'cc' }] },
        ],
      });
      assert.equal(res.status, 202, res.body);
      const bulk = res.json<BulkSend>();
      assert.deepEqual(bulk.row_errors?.map((e) => [e.row, e.error.code, e.error.param]), [[2, 'parameter_invalid', 'recipients[0].role'], [3, 'parameter_invalid', 'recipients[0].role']]);
      // The same words as sendForm answers for that recipient.
      const draft = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId, prefill: { full_name: 'Approver' } } });
      assert.equal(draft.status, 201, draft.body);
      const single = await h.request({ method: 'POST', url: `/api/v1/forms/${draft.json<Form>().id}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', email: 'nonsigner.approver@example.com', role: 'approver' }] } });
      assert.equal(single.status, 400, single.body);
      assert.equal(bulk.row_errors?.[0]?.error.message, errorOf(single).message);
      assert.match(errorOf(single).message, /only a signer fills fields/);
      await h.deps.worker.runDue();
      const rows = await rowsOf(bulk.id);
      assert.deepEqual(rows.map((r) => [r.row, r.status, r.form_id !== null]), [[1, 'sent', true], [2, 'failed', false], [3, 'failed', false]]);
      assert.equal(await formCount(), formsBefore + 2, 'one form for the good row and the single call’s draft; none for the refused rows');
    });

    it('an access code is refused in a bulk row, naming the row, and never stored in plain text', async () => {
      const code = 'Sesame-4711-bulk';
      const res = await post({
        template_id: templateId,
        rows: [
          { prefill: { full_name: 'Plain' }, recipients: [{ channel: 'email', email: 'code.plain@example.com', auth: { method: 'email_code' } }] },
          { prefill: { full_name: 'Coded' }, recipients: [{ channel: 'email', email: 'code.first@example.com' }, { channel: 'email', email: 'code.coded@example.com', signer: 1, auth: { method: 'access_code', access_code: code } }] },
        ],
      });
      assert.equal(res.status, 202, res.body);
      const bulk = res.json<BulkSend>();
      assert.deepEqual(bulk.row_errors?.map((e) => [e.row, e.error.code, e.error.param]), [[2, 'parameter_invalid', 'recipients[1].auth.access_code']]);
      assert.match(bulk.row_errors?.[0]?.error.message ?? '', /bulk send takes no access_code/);
      assert.ok(!res.body.includes(code));
      const stored = await h.deps.database.db.selectFrom('bulk_send_rows').selectAll().where('bulk_id', '=', bulk.id).execute();
      assert.equal(stored.length, 2);
      assert.ok(!JSON.stringify(stored).includes(code), 'the code is nowhere in the stored rows');
      const jobs = await h.deps.database.db.selectFrom('outbox').selectAll().execute();
      assert.ok(!JSON.stringify(jobs).includes(code), 'nor in a job');
      await h.deps.worker.runDue();
      assert.deepEqual((await rowsOf(bulk.id)).map((r) => r.status), ['sent', 'failed']);
    });

    it('quota: refused up front with 402 quota_exceeded naming how many rows fit; a bulk send that fits is counted two calls a row', async () => {
      const account = await createAccount(h.deps.domain, { name: 'Quota Ltd', plan: 'paid' });
      await setAccountLimits(h.deps.domain, account.id, { monthly: 10, perMinute: 1_000_000 });
      const key = await createApiKey(h.deps.domain, { accountId: account.id, mode: 'test' });
      const as: Actor = { key: key.key, keyId: key.id, partition: { accountId: account.id, mode: 'test' } };
      const tmpl = await seedTemplate(h, as.partition, 'Quota lease', new Date().toISOString());
      const row = (i: number) => ({ prefill: { full_name: `Q${i}` }, recipients: [{ channel: 'email', email: `q${i}@example.com` }] });
      // 10 calls: this one is the first, so 9 are left and 4 rows fit; one bad row costs nothing.
      const refused = await post({ template_id: tmpl, rows: [row(1), row(2), row(3), row(4), row(5), { recipients: [] }] }, as);
      assert.equal(refused.status, 402, refused.body);
      assert.deepEqual([errorOf(refused).code, errorOf(refused).param], ['quota_exceeded', 'rows']);
      assert.match(errorOf(refused).message, /so 4 of the 5 valid rows fit/);
      assert.equal((await h.deps.database.db.selectFrom('bulk_sends').select('id').where('account_id', '=', account.id).execute()).length, 0, 'nothing was written');
      // 8 left after the refused call: 3 rows cost 6, and the quota says so on the next answer.
      const ok = await post({ template_id: tmpl, rows: [row(1), row(2), row(3)] }, as);
      assert.equal(ok.status, 202, ok.body);
      const next = await h.request({ url: `/api/v1/bulk-sends/${ok.json<BulkSend>().id}`, as });
      assert.equal(next.headers['x-ratelimit-monthly-remaining'], '1', '10 − 2 bulk calls − 6 row calls − this read');
    });

    it('exactly once: two runs racing over the same rows, and a run that died after making a row’s form, still give one form and one message per row', async () => {
      const p = h.actors.aTest.partition;
      const formCount = async () => (await h.deps.database.db.selectFrom('forms').select('id').where('account_id', '=', p.accountId).where('mode', '=', p.mode).execute()).length;
      const formsBefore = await formCount();
      const rows = Array.from({ length: 12 }, (_, i) => ({ prefill: { full_name: `Race ${i}` }, recipients: [{ channel: 'email', email: `race${i}@example.com` }] }));
      const res = await post({ template_id: templateId, rows });
      assert.equal(res.status, 202, res.body);
      const bulk = res.json<BulkSend>();
      // As if a run made row 1's form and was killed before sending it.
      const { form } = await createForm(h.deps.domain, p, { template_id: templateId, prefill: { full_name: 'Race 0' } });
      const early = JSON.parse(form.json) as { id: string };
      await h.deps.database.transact((trx) => trx.updateTable('bulk_send_rows').set({ form_id: early.id }).where('bulk_id', '=', bulk.id).where('row', '=', 1).execute());
      // Two runners of the same job at once (a lease taken over from a worker thought dead).
      const handler = bulkSendRunHandler(h.deps.domain);
      const ctx = { jobId: 'job_test', partition: p, attempt: 1, maxAttempts: 1, startedAt: new Date(), signal: new AbortController().signal };
      await Promise.all([handler.run({ bulk_id: bulk.id }, ctx), handler.run({ bulk_id: bulk.id }, ctx)]);
      const after = await get<BulkSend>(`/api/v1/bulk-sends/${bulk.id}`);
      assert.deepEqual([after.status, after.sent, after.failed], ['completed', 12, 0]);
      const settled = await rowsOf(bulk.id);
      assert.equal(settled[0]!.form_id, early.id, 'the form made before the crash is the one sent');
      assert.equal(new Set(settled.map((r) => r.form_id)).size, 12);
      for (let i = 0; i < 12; i++) {
        const m = await messagesTo(`race${i}@example.com`);
        assert.deepEqual(m.map((x) => x.form_id), [settled[i]!.form_id], `race${i}: one invitation, for the row's form`);
      }
      assert.equal(await formCount(), formsBefore + 12, 'no form made twice (a losing runner’s form is rolled back)');
      const events = await h.deps.database.db.selectFrom('events').select('id').where('type', '=', 'bulk_send.completed').where('form_id', '=', bulk.id).execute();
      assert.equal(events.length, 1, 'completed once');
    });
  });
}
