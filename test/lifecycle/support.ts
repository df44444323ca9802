import assert from 'node:assert/strict';
import type { Actor, Harness, TestResponse } from '../harness.js';
import { SIGN_HEADERS, TINY_PNG } from '../signing/support.js';

// The life of a form after sending (issue #23), through the calls a client and the signing page make.

export interface RecipientView {
  id: string;
  status: string;
  signing_url: string;
  sent_at: string;
  last_reminded_at: string | null;
  declined_at: string | null;
  decline_reason: string | null;
  email: string | null;
}

export interface FormBody {
  id: string;
  status: string;
  signing_order: string;
  reminders: { every_days: number; max: number } | null;
  voided_at: string | null;
  void_reason: string | null;
  recipients: RecipientView[];
}

export function tokenOf(signingUrl: string): string {
  const token = /\/sign\/([A-Za-z0-9_-]{43})$/.exec(signingUrl)?.[1];
  assert.ok(token, signingUrl);
  return token;
}

/** Creates a form from the template and sends it with `body` (recipients and the rest); answers the send's response. */
export async function createAndSend(h: Harness, as: Actor, templateId: string, body: Record<string, unknown>): Promise<{ res: TestResponse; form: FormBody }> {
  const created = await h.request({ method: 'POST', url: '/api/v1/forms', as, json: { template_id: templateId } });
  assert.equal(created.status, 201, created.body);
  const id = created.json<{ id: string }>().id;
  const res = await h.request({ method: 'POST', url: `/api/v1/forms/${id}/send`, as, json: body });
  assert.equal(res.status, 200, res.body);
  return { res, form: res.json<FormBody>() };
}

export async function getForm(h: Harness, as: Actor, id: string): Promise<FormBody> {
  const res = await h.request({ url: `/api/v1/forms/${id}`, as });
  assert.equal(res.status, 200, res.body);
  return res.json<FormBody>();
}

/** What the signing page posts for signer 1 or 2 of TWO_SIGNER_FIELDS, or a recipient on an added signature page. */
export function signatureOf(slot: number): Record<string, unknown> {
  const image = { image: TINY_PNG, method: 'drawn' };
  if (slot === 1) return { tenant_name: 'Ada Tenant', tenant_signature: image };
  if (slot === 2) return { landlord_name: 'Lin Landlord', landlord_signature: image };
  return { _signature: image };
}

export function postSign(h: Harness, token: string, values: Record<string, unknown>) {
  return h.app.inject({ method: 'POST', url: `/sign/${token}`, headers: { 'content-type': 'application/json', 'user-agent': 'TestBrowser/1.0', ...SIGN_HEADERS }, payload: JSON.stringify({ values, consent: true }) });
}

export function postDecline(h: Harness, token: string, body: Record<string, unknown>) {
  return h.app.inject({ method: 'POST', url: `/sign/${token}/decline`, headers: { 'content-type': 'application/json', 'user-agent': 'TestBrowser/1.0', ...SIGN_HEADERS }, payload: JSON.stringify(body) });
}

export function openLink(h: Harness, token: string) {
  return h.app.inject({ method: 'GET', url: `/sign/${token}`, headers: { 'user-agent': 'TestBrowser/1.0', accept: 'text/html' } });
}

/** The form's event types, oldest first. */
export async function eventTypes(h: Harness, as: Actor, formId: string): Promise<string[]> {
  const res = await h.request({ url: `/api/v1/forms/${formId}/events?limit=100`, as });
  assert.equal(res.status, 200, res.body);
  return res.json<{ data: Array<{ type: string }> }>().data.map((e) => e.type).reverse();
}

/** Text of an HTML page with tags dropped and whitespace collapsed. */
export function pageText(body: string): string {
  return body.replace(/<script[\s\S]*?<\/script>/g, ' ').replace(/<[^>]+>/g, ' ').replace(/&ldquo;|&rdquo;|“|”/g, '"').replace(/\s+/g, ' ').trim();
}

/**
 * Runs the worker until the form is sealed (`signed`): sealing is PDF work in the pool, and on a
 * loaded machine an attempt can fail and be retried (the clock moves on so the retry is due).
 */
export async function untilSigned(h: Harness, as: Actor, formId: string, clock: { advance(ms: number): void }): Promise<FormBody> {
  let form = await getForm(h, as, formId);
  for (let i = 0; i < 120 && form.status !== 'signed'; i++) {
    await h.deps.worker.runDue();
    form = await getForm(h, as, formId);
    if (form.status === 'signed') break;
    await new Promise((r) => setTimeout(r, 500));
    clock.advance(60_000);
  }
  return form;
}
