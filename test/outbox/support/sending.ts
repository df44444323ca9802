import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { insertMessage } from '../../../src/db/repositories/messages.js';
import type { Channel, FormRow, RecipientRow } from '../../../src/db/tables.js';
import type { Trx } from '../../../src/db/handles.js';
import type { DomainDeps } from '../../../src/domain/context.js';
import { createForm } from '../../../src/domain/forms/create-form.js';
import { composeMessage } from '../../../src/domain/sending/compose-message.js';
import type { Clock } from '../../../src/lib/clock.js';
import { newId } from '../../../src/lib/ids.js';
import type { Partition } from '../../../src/lib/partition.js';
import { enqueue } from '../../../src/outbox/enqueue.js';
import { messageDeliver } from '../../../src/outbox/jobs/message-deliver.job.js';

/** A clock tests move by hand, so backoff and leases are crossed without sleeping. */
export class FakeClock implements Clock {
  constructor(private t: number) {}
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(iso: string): void {
    this.t = Date.parse(iso);
  }
}

export interface ReceivedMail {
  envelopeTo: string[];
  raw: Buffer;
  parsed: ParsedMail;
  /** When the DATA end was acknowledged (performance.now()). */
  at: number;
}

/**
 * An in-process SMTP server that records what it accepts. `behaviour` decides each message's fate:
 * accept, refuse with a 5xx, or stall (to catch a worker mid-job).
 */
export async function startSmtpSink(opts: { auth?: { user: string; pass: string }; onData?: (n: number) => 'accept' | 'refuse' | Promise<'accept' | 'refuse'> } = {}) {
  const received: ReceivedMail[] = [];
  const logins: string[] = [];
  let count = 0;
  const options: SMTPServerOptions = {
    disabledCommands: opts.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !opts.auth,
    allowInsecureAuth: true,
    logger: false,
    disableReverseLookup: true,
    onAuth(auth, _session, cb) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) {
        logins.push(auth.username ?? '');
        return cb(null, { user: auth.username });
      }
      return cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        void (async () => {
          const n = count++;
          const fate = (await opts.onData?.(n)) ?? 'accept';
          if (fate === 'refuse') {
            const err = new Error('5.7.1 Message rejected by policy') as Error & { responseCode: number };
            err.responseCode = 554;
            return cb(err);
          }
          const raw = Buffer.concat(chunks);
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), raw, parsed: await simpleParser(raw), at: performance.now() });
          cb();
        })();
      });
    },
  };
  const server = new SMTPServer(options);
  // A client that dies mid-conversation (a SIGKILLed worker) resets its socket: expected here.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: opts.auth ? `smtp://${encodeURIComponent(opts.auth.user)}:${encodeURIComponent(opts.auth.pass)}@127.0.0.1:${port}` : `smtp://127.0.0.1:${port}`,
    received,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface SentFixture {
  form: FormRow;
  recipientId: string;
  messageId: string;
  jobId: string;
  signingUrl: string;
}

/**
 * What the send use case leaves behind, written directly: a sent form, one recipient, the composed
 * message and its delivery job, in one transaction.
 */
export async function seedSentMessage(
  deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links'>,
  p: Partition,
  templateId: string,
  r: { channel: Channel; to: string; name?: string; expiresAt?: string },
): Promise<SentFixture> {
  const { form } = await createForm(deps, p, { template_id: templateId, name: 'Lease <agreement> & annex' });
  const formId = (JSON.parse(form.json) as { id: string }).id;
  const now = deps.clock.now().toISOString();
  const expiresAt = r.expiresAt ?? new Date(deps.clock.now().getTime() + 30 * 86_400_000).toISOString();
  const recipientId = newId('recipient');
  const signingUrl = deps.links.url(recipientId);
  const messageId = newId('message');
  return deps.transact(async (trx: Trx) => {
    const row = await trx
      .updateTable('forms')
      .set({ status: 'sent', sent_at: now, expires_at: expiresAt, updated_at: now })
      .where('id', '=', formId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await insertRecipientRow(trx, p, { id: recipientId, form_id: formId, channel: r.channel, to: r.to, name: r.name ?? null, tokenHash: deps.links.tokenHash(deps.links.token(recipientId)), now });
    const composed = composeMessage({ channel: r.channel, to: r.to, recipientName: r.name ?? null, formName: row.name ?? '', accountName: 'Acme Rentals', signingUrl, expiresAt });
    await insertMessage(trx, p, { id: messageId, form_id: formId, recipient_id: recipientId, channel: r.channel, to_address: r.to, subject: composed.subject ?? null, text: composed.text, html: composed.html ?? null, created_at: now });
    const jobId = await enqueue(trx, p, messageDeliver, { message_id: messageId }, { now });
    return { form: row, recipientId, messageId, jobId, signingUrl };
  });
}

async function insertRecipientRow(trx: Trx, p: Partition, r: { id: string; form_id: string; channel: Channel; to: string; name: string | null; tokenHash: string; now: string }): Promise<void> {
  const row: RecipientRow = {
    id: r.id, account_id: p.accountId, mode: p.mode, form_id: r.form_id, position: 0, signer: 1, name: r.name,
    email: r.channel === 'email' ? r.to : null, phone: r.channel === 'sms' ? r.to : null, channel: r.channel,
    address_key: r.to.toLowerCase(), token_hash: r.tokenHash, status: 'sent', delivery_status: 'queued', delivery_error: null,
    sent_at: r.now, viewed_at: null, signed_at: null, viewed_ip: null, viewed_user_agent: null, signed_ip: null, signed_user_agent: null,
    created_at: r.now, updated_at: r.now, declined_at: null, decline_reason: null, last_reminded_at: null, meaning: null, link_generation: 0,
    locale: null, role: 'signer', message: null, subject: null, approved_at: null,
  };
  await trx.insertInto('recipients').values(row).execute();
}
