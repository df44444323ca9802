import { randomUUID } from 'node:crypto';
import { TINY_PNG } from '../signing/support.js';

// The cluster's load client: drives forms through their whole life over the public API and the
// signing page's own HTTP calls (create → send → view → sign; the signed PDF through its file link
// afterwards), each request to the next API process in turn. A request that fails (a killed process,
// an outage's 503) is tried again on the next process: the API's POSTs carry an Idempotency-Key, so a
// retry never makes a second form or a second send. Only what was answered 2xx is recorded: that is
// what the checks then hold the cluster to.

export interface LoadRecord {
  /** Forms answered 201. */
  created: string[];
  /** Sends answered 200: form id → recipient id. */
  sent: Map<string, string>;
  /** Signing-page views answered 200 (form ids). */
  viewed: string[];
  /** Signatures answered 200: form id → signing token. */
  signed: Map<string, string>;
  /** Every answer's status, counted (0: no answer: a reset, a refused connection, a timeout). */
  statuses: Map<number, number>;
  /** Answers the contract forbids (a 500, or an error without the contract's shape), with their bodies. */
  bad: string[];
  /** Forms given up on (a step failed past its time). */
  abandoned: number;
}

export interface LoadOptions {
  bases: string[];
  key: string;
  templateId: string;
  /** Forms driven at the same time. */
  concurrency: number;
  /** Stops starting new forms when this resolves or returns true. */
  stop: () => boolean;
  /** Per step: how long to keep retrying. */
  stepTimeoutMs?: number;
}

interface Answer { status: number; body: string; location: string | null }

export function newLoadRecord(): LoadRecord {
  return { created: [], sent: new Map(), viewed: [], signed: new Map(), statuses: new Map(), bad: [], abandoned: 0 };
}

export class LoadClient {
  readonly record = newLoadRecord();
  private next = 0;
  private n = 0;

  constructor(private readonly o: LoadOptions) {}

  /** Runs `concurrency` loops until stop() says so; each loop drives one form at a time. */
  async run(): Promise<void> {
    await Promise.all(Array.from({ length: this.o.concurrency }, () => this.loop()));
  }

  private async loop(): Promise<void> {
    while (!this.o.stop()) {
      const ok = await this.oneForm().catch(() => false);
      if (!ok) this.record.abandoned++;
    }
  }

  /** One request to the next API process; network failures answer status 0. */
  async request(method: string, path: string, opts: { key?: string; json?: unknown; headers?: Record<string, string>; base?: string } = {}): Promise<Answer> {
    const base = opts.base ?? this.o.bases[this.next++ % this.o.bases.length]!;
    const headers: Record<string, string> = { ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}), ...opts.headers };
    if (opts.json !== undefined) headers['content-type'] = 'application/json';
    let answer: Answer;
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers,
        redirect: 'manual',
        ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}),
        signal: AbortSignal.timeout(30_000),
      });
      answer = { status: res.status, body: await res.text(), location: res.headers.get('location') };
    } catch {
      answer = { status: 0, body: '', location: null };
    }
    this.record.statuses.set(answer.status, (this.record.statuses.get(answer.status) ?? 0) + 1);
    if (answer.status >= 500 && answer.status !== 503) this.record.bad.push(`${method} ${path} → ${answer.status} ${answer.body.slice(0, 300)}`);
    if (answer.status >= 400 && !/"error":\{"type":"[a-z_]+","code":"[a-z_]+"/.test(answer.body) && !path.startsWith('/sign/')) {
      this.record.bad.push(`${method} ${path} → ${answer.status} without the contract's error shape: ${answer.body.slice(0, 300)}`);
    }
    return answer;
  }

  /** Retries `step` (on the next process each time) until it answers one of `ok`, or the step's time is up. */
  private async until(step: () => Promise<Answer>, ok: (a: Answer) => boolean): Promise<Answer | undefined> {
    const deadline = Date.now() + (this.o.stepTimeoutMs ?? 45_000);
    for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
      const a = await step();
      if (ok(a)) return a;
      // A refusal other than "try again" (a 503, a 429, no answer) is final.
      if (a.status !== 0 && a.status !== 503 && a.status !== 429 && a.status !== 409) return undefined;
      if (Date.now() > deadline) return undefined;
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  private async oneForm(): Promise<boolean> {
    const i = this.n++;
    const { key, templateId } = this.o;
    const createKey = randomUUID();
    const created = await this.until(() => this.request('POST', '/api/v1/forms', { key, json: { template_id: templateId, name: `Cluster form ${i}` }, headers: { 'idempotency-key': createKey } }), (a) => a.status === 201);
    if (!created) return false;
    const formId = (JSON.parse(created.body) as { id: string }).id;
    this.record.created.push(formId);

    const sendKey = randomUUID();
    const sent = await this.until(
      () => this.request('POST', `/api/v1/forms/${formId}/send`, { key, json: { recipients: [{ channel: 'email', email: `signer${i}@cluster.example`, name: `Signer ${i}` }] }, headers: { 'idempotency-key': sendKey } }),
      (a) => a.status === 200,
    );
    if (!sent) return false;
    const recipient = (JSON.parse(sent.body) as { recipients: Array<{ id: string; signing_url: string }> }).recipients[0]!;
    this.record.sent.set(formId, recipient.id);
    // The link names the process that answered the send; any process serves it.
    const page = new URL(recipient.signing_url).pathname;

    const viewed = await this.until(() => this.request('GET', page), (a) => a.status === 200);
    if (!viewed) return false;
    this.record.viewed.push(formId);

    const body = { values: { full_name: `Signer ${i}`, signature: { image: TINY_PNG, method: 'drawn' } }, consent: true };
    const signed = await this.until(
      () => this.request('POST', page, { json: body, headers: { 'x-formsign-signing': '1' } }),
      // A retry after a lost answer finds the signature already there: 409 "already signed".
      (a) => a.status === 200 || (a.status === 409 && /already signed/.test(a.body)),
    );
    if (!signed) return false;
    this.record.signed.set(formId, page);
    return true;
  }

  /** The sealed PDF of a form through the API: GET …/signed-pdf answers a file link, then the link. */
  async signedPdf(formId: string): Promise<Buffer | undefined> {
    const link = await this.until(() => this.request('GET', `/api/v1/forms/${formId}/signed-pdf`, { key: this.o.key }), (a) => a.status === 302 && a.location !== null);
    if (!link) return undefined;
    const path = new URL(link.location!).pathname;
    for (let attempt = 0; attempt < 20; attempt++) {
      const base = this.o.bases[this.next++ % this.o.bases.length]!;
      const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(30_000) }).catch(() => undefined);
      if (res?.status === 200) return Buffer.from(await res.arrayBuffer());
      await new Promise((r) => setTimeout(r, 250));
    }
    return undefined;
  }
}
