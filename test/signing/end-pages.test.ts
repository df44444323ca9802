import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { upsertAccountNotify } from '../../src/db/repositories/notify-settings.js';
import { DIALECTS, createHarness, type Harness } from '../harness.js';
import { SIGN_HEADERS, twoSignerTemplate } from './support.js';

// The end pages of a signing link (issue 43 item 9): the voided page carries the sender's reason and
// reply address, the declined page the reply address, the waiting page who signs now by role and
// position (never a name or an address) — in the page's language. On both dialects.

for (const dialect of DIALECTS) {
  describe(`signing end pages (${dialect})`, () => {
    let h: Harness;
    let templateId: string;
    before(async () => {
      h = await createHarness(dialect);
      const p = h.actors.aTest.partition;
      templateId = await twoSignerTemplate(h, p);
      await h.deps.database.transact(async (trx) => {
        await trx.updateTable('templates').set({ signers: JSON.stringify([{ slot: 1, role: 'Tenant' }, { slot: 2, role: 'Landlord' }]) }).where('id', '=', templateId).execute();
        await upsertAccountNotify(trx, { account_id: p.accountId, notify_email: 'office@acme.example', notify_viewed: 0, updated_at: new Date().toISOString() });
      });
    });
    after(() => h.close());

    async function send(body: Record<string, unknown>): Promise<{ formId: string; tokens: string[] }> {
      const created = await h.request({ method: 'POST', url: '/api/v1/forms', as: h.actors.aTest, json: { template_id: templateId } });
      const formId = created.json<{ id: string }>().id;
      const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as: h.actors.aTest, json: body });
      assert.equal(sent.status, 200, sent.body);
      return { formId, tokens: sent.json<{ recipients: Array<{ signing_url: string }> }>().recipients.map((r) => r.signing_url.split('/sign/')[1]!) };
    }
    const recipients = [{ email: 'tina.tenant@example.com', channel: 'email', name: 'Tina Tenant' }, { email: 'lou.landlord@example.com', channel: 'email', name: 'Lou Landlord' }];

    it('voided: the sender\'s reason and reply address, in the page\'s language', async () => {
      const { formId, tokens } = await send({ recipients });
      assert.equal((await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/void`, as: h.actors.aTest, json: { reason: 'Wrong unit <b>4B</b>' } })).status, 200);
      const page = await h.app.inject({ url: `/sign/${tokens[0]}` });
      assert.equal(page.statusCode, 410);
      assert.match(page.body, /<p class="reason">Their reason: <bdi>Wrong unit &lt;b&gt;4B&lt;\/b&gt;<\/bdi><\/p>/);
      assert.match(page.body, /<p class="contact">Contact <bdi>Account A<\/bdi> at <a href="mailto:office@acme.example" dir="ltr">office@acme.example<\/a>\.<\/p>/);
      const german = await h.app.inject({ url: `/sign/${tokens[0]}?lang=de` });
      assert.match(german.body, /Begründung: <bdi>Wrong unit/);
      const arabic = await h.app.inject({ url: `/sign/${tokens[0]}?lang=ar` });
      assert.match(arabic.body, /السبب: <bdi>Wrong unit/);
    });

    it('voided without a reason shows no reason line; declined shows the reply address', async () => {
      const a = await send({ recipients });
      await h.request({ method: 'POST', url: `/api/v1/forms/${a.formId}/void`, as: h.actors.aTest, json: {} });
      const voided = await h.app.inject({ url: `/sign/${a.tokens[1]}` });
      assert.doesNotMatch(voided.body, /class="reason"/);
      assert.match(voided.body, /mailto:office@acme\.example/);
      const b = await send({ recipients });
      const declined = await h.app.inject({ method: 'POST', url: `/sign/${b.tokens[0]}/decline`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json' }, payload: '{}' });
      assert.equal(declined.statusCode, 200, declined.body);
      const page = await h.app.inject({ url: `/sign/${b.tokens[1]}` });
      assert.equal(page.statusCode, 410);
      assert.match(page.body, /Contact <bdi>Account A<\/bdi> at <a href="mailto:office@acme\.example"/);
    });

    it('waiting: who signs now by role and position, never a name or an address', async () => {
      const { tokens } = await send({ recipients, signing_order: 'sequential' });
      const page = await h.app.inject({ url: `/sign/${tokens[1]}` });
      assert.equal(page.statusCode, 409);
      assert.match(page.body, /<p class="turn">Now signing: <bdi>Tenant<\/bdi> \(signer 1 of 2\)\. You are signer 2\.<\/p>/);
      assert.doesNotMatch(page.body, /Tina|tina\.tenant/);
      const french = await h.app.inject({ url: `/sign/${tokens[1]}?lang=fr` });
      assert.match(french.body, /Signe en ce moment : <bdi>Tenant<\/bdi> \(signataire 1 sur 2\)\. Vous êtes le signataire 2\./);
    });
  });
}
