import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DRAFT_SAVES_PER_MINUTE } from '../../src/domain/signing/drafts/signing-draft.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { SIGN_HEADERS, TINY_PNG, sendTo, twoSignerTemplate } from './support.js';

// Progress on the server (issue 43 item 5): PUT /sign/<token>/draft keeps a recipient's values so far,
// the link's page shows them in any browser, the draft goes with the state change that ends signing,
// and nothing of it is reachable before the signer check. On both dialects.

const JSON_HEADERS = { ...SIGN_HEADERS, 'content-type': 'application/json' };

for (const dialect of DIALECTS) {
  describe(`signing drafts (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    let now = Date.parse('2026-03-02T10:00:05.000Z');
    before(async () => {
      h = await createHarness(dialect, { clock: { now: () => new Date(now) } });
      templateId = await twoSignerTemplate(h, h.actors.aTest.partition);
    });
    after(() => h.close());

    const put = (token: string, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
      h.app.inject({ method: 'PUT', url: `/sign/${token}/draft`, headers, payload: typeof body === 'string' ? body : JSON.stringify(body) });
    const draftRows = async (formId: string) => h.deps.domain.db.selectFrom('signing_drafts').selectAll().where('form_id', '=', formId).execute();

    it('a saved draft fills the fields again when the link is opened in another browser', async () => {
      const { formId, tokens } = await sendTo(h, h.actors.aTest, templateId, ['ada@example.com', 'bo@example.com']);
      const saved = await put(tokens[0]!, { values: { tenant_name: 'Ada Lovelace-Draft' } });
      assert.equal(saved.statusCode, 200, saved.body);
      assert.deepEqual(saved.json(), { status: 'saved', saved_at: new Date(now).toISOString() });
      assert.equal(saved.headers['cache-control'], 'no-store');
      // A new "browser": no cookie, no storage; the page is served with the draft's value in the control.
      const page = await h.app.inject({ url: `/sign/${tokens[0]}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<input type="text" id="field-0" data-field="tenant_name"[^>]* value="Ada Lovelace-Draft"/);
      // The other signer's page shows none of it as theirs to edit, and their own draft is theirs alone.
      const other = await h.app.inject({ url: `/sign/${tokens[1]}` });
      assert.doesNotMatch(other.body, /value="Ada Lovelace-Draft"/);
      // A later save replaces the draft whole; null empties a field (a prefilled value cleared by the signer).
      assert.equal((await put(tokens[0]!, { values: { tenant_name: null } })).statusCode, 200);
      const rows = await draftRows(formId);
      assert.equal(rows.length, 1);
      assert.deepEqual(JSON.parse(rows[0]!.values), { tenant_name: null });
      const cleared = await h.app.inject({ url: `/sign/${tokens[0]}` });
      assert.match(cleared.body, /data-field="tenant_name"[^>]* value=""/);
    });

    it('a draft is checked by the value rules of signing: own fields only, no images, bounded', async () => {
      const { formId, tokens } = await sendTo(h, h.actors.aTest, templateId, ['rules@example.com', 'rules2@example.com']);
      const cases: Array<[unknown, number, string, string | undefined]> = [
        [{ values: { landlord_name: 'Not mine' } }, 400, 'parameter_invalid', 'values.landlord_name'],
        [{ values: { nope: 'x' } }, 400, 'parameter_unknown', 'values.nope'],
        [{ values: { tenant_signature: { image: TINY_PNG, method: 'drawn' } } }, 400, 'parameter_invalid', 'values.tenant_signature'],
        [{ values: { tenant_date: '2026-01-01' } }, 400, 'parameter_invalid', 'values.tenant_date'],
        [{ values: { tenant_name: 'x'.repeat(10_001) } }, 400, 'parameter_invalid', 'values.tenant_name'],
        [{ values: ['tenant_name'] }, 400, 'parameter_invalid', 'values'],
        [{ values: {}, extra: 1 }, 400, 'parameter_unknown', 'extra'],
        [{ values: {}, send_link: 'yes' }, 400, 'parameter_invalid', 'send_link'],
      ];
      for (const [body, status, code, param] of cases) {
        const res = await put(tokens[0]!, body);
        assert.equal(res.statusCode, status, `${JSON.stringify(body).slice(0, 80)} → ${res.body}`);
        assert.equal(res.json().error.code, code);
        assert.equal(res.json().error.param, param);
        assert.match(res.json().error.request_id, /^req_[0-9a-f]{32}$/);
      }
      const big = await put(tokens[0]!, JSON.stringify({ values: { tenant_name: 'y'.repeat(300 * 1024) } }));
      assert.equal(big.statusCode, 413);
      assert.equal(big.json().error.code, 'payload_too_large');
      assert.equal(big.json().error.message, 'A draft is at most 256 KiB of JSON.');
      // Only from the page: without its header a cross-site request is refused.
      const bare = await put(tokens[0]!, { values: {} }, { 'content-type': 'application/json' });
      assert.equal(bare.statusCode, 400);
      assert.deepEqual(await draftRows(formId), [], 'no refused save left a draft');
    });

    it('saves are rate-limited per recipient (429 rate_limited with Retry-After), refusals not counted', async () => {
      const { tokens } = await sendTo(h, h.actors.aTest, templateId, ['busy@example.com', 'busy2@example.com']);
      now = Date.parse('2026-03-02T10:01:05.000Z');
      for (let i = 0; i < DRAFT_SAVES_PER_MINUTE; i++) assert.equal((await put(tokens[0]!, { values: { tenant_name: `n${i}` } })).statusCode, 200);
      const refused = await put(tokens[0]!, { values: { tenant_name: 'too many' } });
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(refused.json().error.code, 'rate_limited');
      assert.equal(refused.headers['retry-after'], '55');
      // The other recipient's link has its own count; the next minute this one saves again.
      assert.equal((await put(tokens[1]!, { values: { landlord_name: 'Bo' } })).statusCode, 200);
      now = Date.parse('2026-03-02T10:02:00.000Z');
      assert.equal((await put(tokens[0]!, { values: { tenant_name: 'later' } })).statusCode, 200);
    });

    it('"Finish later" saves and sends the link again through the outbox, at most once in ten minutes', async () => {
      const { formId, tokens, recipientIds } = await sendTo(h, h.actors.aTest, templateId, ['later@example.com', 'later2@example.com']);
      now = Date.parse('2026-03-02T11:00:00.000Z');
      const first = await put(tokens[0]!, { values: { tenant_name: 'Ada' }, send_link: true });
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().link_sent, true);
      const messages = await h.deps.domain.db.selectFrom('messages').selectAll().where('form_id', '=', formId).where('kind', '=', 'resume_link').execute();
      assert.equal(messages.length, 1);
      assert.equal(messages[0]!.recipient_id, recipientIds[0]);
      assert.equal(messages[0]!.to_address, 'later@example.com');
      assert.ok(messages[0]!.text.includes(`/sign/${tokens[0]}`), 'the message carries the signing link');
      const jobs = await h.deps.domain.db.selectFrom('outbox').select('payload').where('payload', 'like', `%${messages[0]!.id}%`).execute();
      assert.equal(jobs.length, 1, 'a delivery job was written with the message');
      now += 60_000;
      const again = await put(tokens[0]!, { values: { tenant_name: 'Ada L' }, send_link: true });
      assert.equal(again.statusCode, 200);
      assert.deepEqual(again.json(), { status: 'saved', saved_at: '2026-03-02T11:01:00.000Z', link_sent: false, link_sent_at: '2026-03-02T11:00:00.000Z', link_retry_after: 540 });
      assert.deepEqual(JSON.parse((await draftRows(formId))[0]!.values), { tenant_name: 'Ada L' }, 'the throttled call still saved');
      now += 540_000;
      assert.equal((await put(tokens[0]!, { values: {}, send_link: true })).json().link_sent, true);
    });

    it('signing deletes the signer\'s draft in its transaction, and a closed link saves nothing', async () => {
      const { formId, tokens, recipientIds } = await sendTo(h, h.actors.aTest, templateId, ['signs@example.com', 'signs2@example.com']);
      assert.equal((await put(tokens[0]!, { values: { tenant_name: 'Ada' } })).statusCode, 200);
      assert.equal((await put(tokens[1]!, { values: { landlord_name: 'Bo' } })).statusCode, 200);
      const signed = await h.app.inject({ method: 'POST', url: `/sign/${tokens[0]}`, headers: JSON_HEADERS, payload: JSON.stringify({ values: { tenant_name: 'Ada', tenant_signature: { image: TINY_PNG, method: 'drawn' } }, consent: true }) });
      assert.equal(signed.statusCode, 200, signed.body);
      assert.deepEqual((await draftRows(formId)).map((r) => r.recipient_id), [recipientIds[1]], 'only the signer who has not signed keeps a draft');
      const late = await put(tokens[0]!, { values: { tenant_name: 'again' } });
      assert.equal(late.statusCode, 409);
      assert.equal(late.json().error.code, 'form_not_sendable');
      assert.equal((await draftRows(formId)).length, 1);
    });

    it('voiding, declining and expiring delete every draft of the form', async () => {
      for (const end of ['void', 'decline', 'expire'] as const) {
        const { formId, tokens } = await sendTo(h, h.actors.aTest, templateId, [`${end}@example.com`, `${end}2@example.com`]);
        assert.equal((await put(tokens[0]!, { values: { tenant_name: 'Ada' } })).statusCode, 200);
        assert.equal((await put(tokens[1]!, { values: { landlord_name: 'Bo' } })).statusCode, 200);
        assert.equal((await draftRows(formId)).length, 2);
        const status = end === 'decline'
          ? (await h.app.inject({ method: 'POST', url: `/sign/${tokens[1]}/decline`, headers: JSON_HEADERS, payload: '{}' })).statusCode
          : (await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/${end}`, as: h.actors.aTest, json: end === 'void' ? { reason: 'Wrong tenant' } : {} })).status;
        assert.equal(status, 200, end);
        assert.deepEqual(await draftRows(formId), [], `${end} deleted the drafts`);
        const after = await put(tokens[0]!, { values: { tenant_name: 'x' } });
        assert.ok([409, 410].includes(after.statusCode), after.body);
        assert.deepEqual(await draftRows(formId), []);
      }
    });

    it('before the signer check the draft route is refused (401 auth_required) and the page shows no draft', async () => {
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
      const formId = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: { recipients: [{ channel: 'email', email: 'checked@example.com', auth: { method: 'access_code', access_code: 'blue-harbour-42' } }] } });
      assert.equal(sent.status, 200, sent.body);
      const token = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients[0]!.signing_url)![1]!;
      const refused = await put(token, { values: { tenant_name: 'Sneaky' } });
      assert.equal(refused.statusCode, 401, refused.body);
      assert.equal(refused.json().error.code, 'auth_required');
      assert.deepEqual(await draftRows(formId), []);
      // Passed in one browser: that browser saves; another browser sees the code screen, not the draft.
      const verify = await h.app.inject({ method: 'POST', url: `/sign/${token}/auth/verify`, headers: JSON_HEADERS, payload: JSON.stringify({ code: 'blue-harbour-42' }) });
      const cookie = String(verify.headers['set-cookie']).split(';')[0]!;
      assert.equal((await put(token, { values: { tenant_name: 'Checked Ada' } }, { ...JSON_HEADERS, cookie })).statusCode, 200);
      const stranger = await h.app.inject({ url: `/sign/${token}` });
      assert.equal(stranger.statusCode, 401);
      assert.doesNotMatch(stranger.body, /Checked Ada/);
      const passed = await h.app.inject({ url: `/sign/${token}`, headers: { cookie } });
      assert.match(passed.body, /value="Checked Ada"/);
    });
  });
}
