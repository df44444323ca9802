import assert from 'node:assert/strict';
import type { Actor, Harness } from '../harness.js';
import { SIGN_HEADERS, strokePng } from '../signing/support.js';
import type { ReceivedMail } from '../outbox/support/sending.js';

// Forms taken to completion through the API and the signing page's calls, for the message tests.

export interface Recipient {
  channel: 'email' | 'sms';
  email?: string;
  phone?: string;
  name?: string;
}

export interface Completed {
  formId: string;
  recipientIds: string[];
  tokens: string[];
}

/** Creates a form from the two-signer template and sends it (with `notify` when given). */
export async function sendForm(h: Harness, as: Actor, templateId: string, recipients: Recipient[], notify?: { completed_copy: boolean }): Promise<Completed> {
  const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
  assert.equal(created.status, 201, created.body);
  const formId = created.json<{ id: string }>().id;
  const sent = await h.request({ method: 'POST', url: `/api/v1/forms/${formId}/send`, as, json: { recipients, ...(notify ? { notify } : {}) } });
  assert.equal(sent.status, 200, sent.body);
  const rs = sent.json<{ recipients: Array<{ id: string; signing_url: string }> }>().recipients;
  return { formId, recipientIds: rs.map((r) => r.id), tokens: rs.map((r) => /\/sign\/([A-Za-z0-9_-]{43})$/.exec(r.signing_url)?.[1] ?? assert.fail(r.signing_url)) };
}

export const openLink = (h: Harness, token: string) => h.app.inject({ method: 'GET', url: `/sign/${token}`, headers: { 'user-agent': 'MessagesTest/1.0' } });

/** Both signers of the two-signer template sign (tenant first, then landlord). */
export async function signBoth(h: Harness, f: Completed): Promise<void> {
  const values = [
    { tenant_name: 'Ada Lovelace', tenant_signature: { image: strokePng(), method: 'drawn' } },
    { landlord_name: 'Charles Babbage', landlord_signature: { image: strokePng(), method: 'typed' } },
  ];
  for (const [i, token] of f.tokens.entries()) {
    const res = await h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { ...SIGN_HEADERS, 'content-type': 'application/json', 'user-agent': 'MessagesTest/1.0' }, payload: JSON.stringify({ values: values[i], consent: true }) });
    assert.equal(res.statusCode, 200, res.body);
  }
}

/** Runs the worker until nothing is due: the seal, then the messages it enqueued. */
export async function drain(h: Harness): Promise<void> {
  for (let i = 0; i < 20; i++) if ((await h.deps.worker.runDue()) === 0) return;
  assert.fail('the worker still had due jobs after 20 rounds');
}

export function mailsTo(received: readonly ReceivedMail[], address: string): ReceivedMail[] {
  return received.filter((m) => m.envelopeTo.includes(address));
}

export async function signedPdfBytes(h: Harness, as: Actor, formId: string): Promise<Buffer> {
  const res = await h.request({ url: `/api/v1/forms/${formId}/signed-pdf?format=base64`, as });
  assert.equal(res.status, 200, res.body);
  return Buffer.from(res.json<{ data: string }>().data, 'base64');
}
