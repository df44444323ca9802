import { sql } from 'kysely';
import type { Partition } from '../../lib/partition.js';
import type { Db, Trx } from '../handles.js';
import type { Database, EventRow } from '../tables.js';

/**
 * What a purge does to each table (issue 40). Every table of the schema is named here (the type
 * refuses a table left out), and the integration test compares this list with the tables the
 * database has and greps every text column of every table for the purged form's personal values,
 * so a table or column added later without a rule here fails a test rather than keeping data.
 */
export const PURGE_PLAN = {
  forms: 'kept as the tombstone: values, metadata, name, own fields, void reason and sealing error emptied',
  recipients: "the form's rows deleted (names, addresses, IPs, user agents, decline reasons, the sender's messages)",
  signing_evidence: "the form's rows deleted (consent text as shown, UTC offset)",
  messages: "the form's rows deleted (addresses and bodies)",
  reminders: "the form's rows deleted",
  signatures: "the form's rows deleted; their images deleted from the file store",
  sealed_files: "the form's row deleted (its SHA-256 kept on the tombstone); the file deleted from the store",
  events: 'kept with their ids and types; the snapshot emptied of values, metadata, name and recipients’ personal data',
  webhook_deliveries: "the stored bodies of the form's events emptied (a pending one renders the emptied event)",
  idempotency_keys: 'stored answers that name the form deleted',
  outbox: "no personal data: jobs name the form's and its messages' ids only",
  purge_blobs: "the purge's own list of files still to delete",
  recipient_checks: "the form's rows deleted (the SMS number, code and access-code hashes)",
  recipient_check_log: "the form's rows deleted (masked destinations, IPs)",
  signer_sessions: "the form's rows deleted (IPs, user agents)",
  signing_drafts: "the form's rows deleted (values typed so far)",
  retired_links: "the form's rows deleted (replaced recipients' names, addresses and reasons)",
  code_request_windows: 'not form data: codes asked for per client address and hour, deleted as the next hour is counted',
  form_attachments: "the form's rows deleted (file names); the files deleted from the store",
  accounts: 'not form data', account_notify: 'not form data', api_keys: 'not form data', templates: 'not form data',
  template_versions: 'not form data', service_secrets: 'not form data', webhooks: 'not form data', account_usage: 'not form data',
  account_usage_daily: 'not form data', users: 'not form data', sessions: 'not form data', login_links: 'not form data',
  login_failures: 'not form data', embed_origins: 'not form data', event_counters: 'not form data: the next event number per partition',
  data_subject_requests: 'not form data: a person\'s export or erasure, the address kept as its SHA-256 only',
  // Issue 39: sign-in (single sign-on and two-factor), about accounts and users, not forms.
  account_sign_in: 'not form data', user_totp: 'not form data', sso_domains: 'not form data', sso_flows: 'not form data', recovery_codes: 'not form data',
  invitations: 'not form data: a dashboard member invited to the account', account_activity: 'not form data: who did what in the dashboard (members, keys, webhooks, settings, sign-ins)',
  bulk_sends: 'not form data: a bulk send\'s template and counters',
  bulk_send_rows: "a row's input (prefill values, recipients' addresses) is cleared when its form is sent or the row fails, before any purge can reach the form; the form id and the error stay",
  account_branding: 'not form data: the account\'s logo, accent colour and sender name (issue 42)',
  document_pages: 'a stored file\'s page sizes, numbers only (issue 43); the row of a file the purge deletes (a generated form\'s own file) deleted with it',
} as const satisfies Record<keyof Database, string>;

type PerFormTable = 'recipients' | 'signing_evidence' | 'messages' | 'reminders' | 'signatures' | 'sealed_files' | 'recipient_checks' | 'recipient_check_log' | 'signer_sessions' | 'signing_drafts' | 'retired_links' | 'form_attachments';
const DELETED_ROWS: readonly PerFormTable[] = ['signing_evidence', 'reminders', 'messages', 'signatures', 'sealed_files', 'recipient_check_log', 'recipient_checks', 'signer_sessions', 'signing_drafts', 'retired_links', 'form_attachments', 'recipients'];

/** What the purge needs to know before deleting: the stored files the rows name, and the counts the tombstone keeps. */
export interface PurgeInventory {
  blobKeys: string[];
  sealedSha256: string | null;
  counts: { recipients: number; signatures: number; events: number };
}

export async function purgeInventory(trx: Trx, p: Partition, formId: string): Promise<PurgeInventory> {
  const signatures = await trx.selectFrom('signatures').select('blob_key').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).execute();
  const sealed = await trx.selectFrom('sealed_files').select(['blob_key', 'sha256']).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).executeTakeFirst();
  const attached = await trx.selectFrom('form_attachments').select('blob_key').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).execute();
  const attachments = await trx.selectFrom('messages').select('attachment_key').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).where('attachment_key', 'is not', null).execute();
  const recipients = await trx.selectFrom('recipients').select(sql<number>`count(*)`.as('n')).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).executeTakeFirst();
  const events = await trx.selectFrom('events').select(sql<number>`count(*)`.as('n')).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).executeTakeFirst();
  const keys = new Set<string>([...signatures.map((s) => s.blob_key), ...(sealed ? [sealed.blob_key] : []), ...attachments.flatMap((m) => (m.attachment_key ? [m.attachment_key] : [])), ...attached.map((a) => a.blob_key)]);
  return {
    blobKeys: [...keys],
    sealedSha256: sealed?.sha256 ?? null,
    counts: { recipients: Number(recipients?.n ?? 0), signatures: signatures.length, events: Number(events?.n ?? 0) },
  };
}

/** Deletes the form's rows of every per-form table that holds personal data (PURGE_PLAN). */
export async function deleteFormRows(trx: Trx, p: Partition, formId: string): Promise<void> {
  for (const t of DELETED_ROWS) {
    await trx.deleteFrom(t).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).execute();
  }
}

/** The form's events, to be rewritten without personal data. */
export function eventsOfForm(trx: Trx, p: Partition, formId: string): Promise<Array<Pick<EventRow, 'id' | 'form'>>> {
  return trx.selectFrom('events').select(['id', 'form']).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).execute();
}

export async function rewriteEventSnapshot(trx: Trx, p: Partition, eventId: string, form: string): Promise<void> {
  await trx.updateTable('events').set({ form }).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', eventId).execute();
}

/** Empties the stored bodies of deliveries of the form's events: a pending one renders the emptied event when it next goes out. */
export async function emptyDeliveryBodies(trx: Trx, p: Partition, formId: string): Promise<void> {
  const ids = trx.selectFrom('events').select('id').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId);
  await trx.updateTable('webhook_deliveries').set({ body: null }).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('event_id', 'in', ids).execute();
}

/** The events feed's filter for a removed draft (no row left): the form's created_at as its events keep it. */
export async function removedFormOfEvents(db: Db, p: Partition, formId: string): Promise<{ id: string; created_at: string } | undefined> {
  const row = await db.selectFrom('events').select('form_created_at').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).executeTakeFirst();
  return row ? { id: formId, created_at: row.form_created_at } : undefined;
}

/** Stored answers of idempotent requests that name the form (its create, send, void…: they hold the Form with its values). */
export async function deleteAnswersNaming(trx: Trx, p: Partition, formId: string): Promise<void> {
  await trx.deleteFrom('idempotency_keys').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('response_body', 'like', `%${formId}%`).execute();
}

export async function deleteFormRow(trx: Trx, p: Partition, formId: string): Promise<void> {
  await trx.deleteFrom('forms').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', formId).execute();
}

/** The form row becomes its tombstone: personal columns emptied, status `deleted`, files still to delete. */
export async function writeTombstone(trx: Trx, p: Partition, formId: string, t: { at: string; sealedSha256: string | null; tombstone: string }): Promise<void> {
  await trx
    .updateTable('forms')
    .set({
      status: 'deleted', deleted_at: t.at, updated_at: t.at, purge_state: 'blobs', sealed_sha256: t.sealedSha256, tombstone: t.tombstone,
      values: '{}', metadata: '{}', name: null, fields: '[]', void_reason: null, sealing_error: null,
    })
    .where('account_id', '=', p.accountId)
    .where('mode', '=', p.mode)
    .where('id', '=', formId)
    .execute();
}

/** Whether a template stores its PDF under `key` (a generated form saved as a template shares its file). */
export async function templateUsesFile(trx: Trx, p: Partition, key: string): Promise<boolean> {
  const row = await trx.selectFrom('templates').select('id').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('pdf_key', '=', key).executeTakeFirst();
  return row !== undefined;
}

/** Lists files for the purge to delete; a listed file's page sizes (document_pages) go now, with its form's rows. */
export async function addPurgeBlobs(trx: Trx, p: Partition, formId: string, keys: readonly string[], at: string): Promise<void> {
  if (keys.length === 0) return;
  await trx.deleteFrom('document_pages').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('pdf_key', 'in', [...keys]).execute();
  await trx
    .insertInto('purge_blobs')
    .values(keys.map((blob_key) => ({ account_id: p.accountId, mode: p.mode, form_id: formId, blob_key, created_at: at })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function listPurgeBlobs(db: Db, p: Partition, formId: string): Promise<string[]> {
  const rows = await db.selectFrom('purge_blobs').select('blob_key').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).execute();
  return rows.map((r) => r.blob_key);
}

export async function removePurgeBlob(trx: Trx, p: Partition, formId: string, key: string): Promise<void> {
  await trx.deleteFrom('purge_blobs').where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('form_id', '=', formId).where('blob_key', '=', key).execute();
}

/** Every file is gone: the tombstone says so (a removed draft has no row, and nothing happens). */
export async function markPurgeDone(trx: Trx, p: Partition, formId: string): Promise<void> {
  await trx.updateTable('forms').set({ purge_state: 'done' }).where('account_id', '=', p.accountId).where('mode', '=', p.mode).where('id', '=', formId).where('purge_state', '=', 'blobs').execute();
}

/** POST /verify: the tombstone of a purged form whose sealed PDF had this SHA-256, in any partition (the PDF is the credential). */
export async function findTombstoneBySha256(db: Db, sha256: string): Promise<{ id: string; deleted_at: string | null } | undefined> {
  return db.selectFrom('forms').select(['id', 'deleted_at']).where('sealed_sha256', '=', sha256).where('status', '=', 'deleted').executeTakeFirst();
}
