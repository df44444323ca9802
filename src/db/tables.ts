import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Mode } from '../lib/partition.js';

// Column types shared by SQLite and PostgreSQL: timestamps are fixed-width RFC 3339 text and JSON is
// text, so one set of queries and migrations behaves identically on both.

export type Plan = 'trial' | 'paid';

export interface AccountsTable {
  id: string;
  name: string;
  email: string | null;
  plan: Plan;
  monthly_limit: number | null;
  per_minute_limit: number | null;
  /**
   * BCP 47: the signers' language when neither recipient nor browser names one we have (migration
   * 0019). Optional: absent on insert is null, the default, so creating an account need not name it.
   */
  locale?: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  mode: Mode;
  label: string | null;
  /** `fk_test_` or `fk_live_` plus the last four characters: enough for a person to recognise it. */
  prefix: string;
  last4: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface TemplatesTable {
  id: string;
  account_id: string;
  mode: Mode;
  name: string;
  page_count: number;
  fields: string;
  signer_count: number;
  warnings: string;
  pdf_key: string;
  pdf_sha256: string;
  created_at: string;
  updated_at: string;
  /** Counts field edits, 1 at import; the fields of earlier versions are in template_versions (0009). */
  version: Generated<number>;
  /** Set when deleted: the row stays for the forms made from it, the API no longer finds it (0009). */
  deleted_at: string | null;
}

/** The fields of a version a template has moved past, kept for the forms made from it (0009). */
export interface TemplateVersionsTable {
  template_id: string;
  version: number;
  account_id: string;
  mode: Mode;
  fields: string;
  created_at: string;
}

export interface FormsTable {
  id: string;
  account_id: string;
  mode: Mode;
  status: 'draft' | 'sent' | 'viewed' | 'signed' | 'expired';
  name: string | null;
  template_id: string | null;
  /** The form's own field definitions; null when they are its template's (templates are immutable). */
  fields: string | null;
  /** The template version whose fields the form has (0009); null for forms made before 0009 (version 1). */
  template_version: number | null;
  values: string;
  metadata: string;
  pdf_key: string;
  expires_in_days: number;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  completed_at: string | null;
  expires_at: string | null;
  /** 0 when a send said `notify: {completed_copy: false}`: recipients get no sealed copy (0014). */
  completed_copy: Generated<number>;
}

export interface EventsTable {
  id: string;
  account_id: string;
  mode: Mode;
  type: string;
  form_id: string;
  /** The form's created_at: events are indexed by it first, so a new form's events append to the index. */
  form_created_at: string;
  /**
   * JSON snapshot of the form (its head, values and metadata) as it was when the event happened. With
   * the form's immutable field definitions it renders the delivered body (snapshotJson in present-form.ts).
   */
  form: string;
  created_at: string;
  /** Null until the publisher has fanned the event out to its webhooks: the event is its own outbox entry. */
  published_at: string | null;
}

export type JobStatus = 'pending' | 'running' | 'done' | 'failed' | 'dead';

export interface OutboxTable {
  id: string;
  account_id: string;
  mode: Mode;
  /** The job definition's name (outbox/registry.ts). */
  kind: string;
  /** The definition's version the payload was written for. */
  version: Generated<number>;
  payload: string;
  /** `failed`: an attempt failed and another is scheduled at run_at; `dead`: no attempts left. */
  status: JobStatus;
  attempts: Generated<number>;
  run_at: string;
  locked_until: string | null;
  /** The worker that holds the lease, or last held it (0004). */
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string | null;
}

export type RecipientStatus = 'sent' | 'viewed' | 'signed';
export type DeliveryStatus = 'queued' | 'delivered' | 'failed';
export type Channel = 'email' | 'sms';

export interface RecipientsTable {
  id: string;
  account_id: string;
  mode: Mode;
  form_id: string;
  /** Order in which recipients were first sent the form (0-based). */
  position: number;
  /** The signer slot (1-based) whose fields this recipient fills. */
  signer: number;
  name: string | null;
  email: string | null;
  /** E.164. */
  phone: string | null;
  channel: Channel;
  /** Lower-cased e-mail or E.164 phone: "the same recipient" is the same (form, channel, address_key). */
  address_key: string;
  /** SHA-256 (hex) of the signing token; the token itself is never stored. */
  token_hash: string;
  status: RecipientStatus;
  delivery_status: DeliveryStatus;
  delivery_error: string | null;
  sent_at: string;
  viewed_at: string | null;
  signed_at: string | null;
  viewed_ip: string | null;
  viewed_user_agent: string | null;
  signed_ip: string | null;
  signed_user_agent: string | null;
  /** BCP 47, canonical, as given at send; null: the browser's or the account's language (migration 0019). */
  locale: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * What a message is for (0014): the signing invitation, the sealed copy a recipient gets, and the
 * notices the account's notify_email gets.
 */
export type MessageKind = 'invite' | 'completed_copy' | 'notice_completed' | 'notice_declined' | 'notice_viewed';

export interface MessagesTable {
  id: string;
  account_id: string;
  mode: Mode;
  form_id: string;
  /** Null for a notice to the account's notify_email (0014). */
  recipient_id: string | null;
  channel: Channel;
  to_address: string;
  /** E-mail only. */
  subject: string | null;
  text: string;
  /** E-mail only. */
  html: string | null;
  /** How it went out: 'smtp', 'sms' (the gateway) or 'dev' (kept in the dev outbox); null until it did. */
  transport: string | null;
  status: DeliveryStatus;
  provider_message_id: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
  kind: Generated<MessageKind>;
  /** A blob sent along (the sealed PDF), read from the store when the message is sent (0014). */
  attachment_key: string | null;
  attachment_name: string | null;
}

export interface SealedFilesTable {
  form_id: string;
  account_id: string;
  mode: Mode;
  blob_key: string;
  sha256: string;
  size: number;
  created_at: string;
}

/**
 * An account's notice settings (0014), a row only once set: where its notices go (completed,
 * declined, and viewed when `notify_viewed` is 1), which is also the Reply-To of its messages.
 */
export interface AccountNotifyTable {
  account_id: string;
  notify_email: string | null;
  notify_viewed: number;
  updated_at: string;
}

/** A signature or initials image a recipient submitted (0005); the PNG is in the blob store. */
export interface SignaturesTable {
  account_id: string;
  mode: Mode;
  form_id: string;
  recipient_id: string;
  field_name: string;
  kind: 'signature' | 'initials';
  /** How the signer made it: drawn on the pad, or typed and rendered in the script font. */
  method: 'drawn' | 'typed';
  blob_key: string;
  /** SHA-256 (hex) of the PNG bytes. */
  sha256: string;
  /** Pixels of the PNG. */
  width: number;
  height: number;
  created_at: string;
}

export interface WebhooksTable {
  id: string;
  account_id: string;
  mode: Mode;
  url: string;
  /** JSON array of the subscribed event types. */
  events: string;
  status: 'enabled' | 'disabled';
  description: string | null;
  /** The signing secret (`whsec_…`), the HMAC key as returned to the user. */
  secret: string;
  /** The secret a rotation replaced; deliveries are signed with it too until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: string | null;
  /** The first failed attempt of the current run of failures; null after a success. */
  failing_since: string | null;
  /** Why the service disabled it ('gone', 'failing'); null when enabled or disabled by the user. */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  mode: Mode;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The exact bytes POSTed (UTF-8 JSON), stored at the first attempt so every attempt sends the same. */
  body: string | null;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  last_status_code: number | null;
  next_attempt_at: string | null;
  /** JSON array of attempts (see domain/webhooks/attempt-log.ts). */
  attempt_log: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** API calls of an account in one UTC calendar month (migration 0008). */
export interface AccountUsageTable {
  account_id: string;
  /** 'YYYY-MM' (UTC). */
  month: string;
  calls: number;
  updated_at: string;
}

export interface ServiceSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** A person who signs in to an account's dashboard (0010). */
export interface UsersTable {
  id: string;
  account_id: string;
  /** Lower-cased; unique across accounts (the sign-in name). */
  email: string;
  /** `scrypt$N$r$p$salt$hash` (base64url), or null until the user sets one (link-only sign-in). */
  password_hash: string | null;
  created_at: string;
  updated_at: string;
}

/** A dashboard sign-in (0010); the cookie carries the token, the store its SHA-256. */
export interface SessionsTable {
  token_hash: string;
  user_id: string;
  account_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** A one-time dashboard sign-in link (0010). */
export interface LoginLinksTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Failed sign-ins counted per subject (`email:…` or `ip:…`) in a fixed window (0010). */
export interface LoginFailuresTable {
  subject: string;
  failures: number;
  window_start: string;
}

export interface Database {
  accounts: AccountsTable;
  account_notify: AccountNotifyTable;
  api_keys: ApiKeysTable;
  templates: TemplatesTable;
  template_versions: TemplateVersionsTable;
  forms: FormsTable;
  events: EventsTable;
  outbox: OutboxTable;
  recipients: RecipientsTable;
  messages: MessagesTable;
  service_secrets: ServiceSecretsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  signatures: SignaturesTable;
  sealed_files: SealedFilesTable;
  account_usage: AccountUsageTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_links: LoginLinksTable;
  login_failures: LoginFailuresTable;
}

export type AccountRow = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type TemplateRow = Selectable<TemplatesTable>;
export type NewTemplateRow = Insertable<TemplatesTable>;
export type FormRow = Selectable<FormsTable>;
export type NewFormRow = Insertable<FormsTable>;
export type FormUpdate = Updateable<FormsTable>;
export type EventRow = Selectable<EventsTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type RecipientRow = Selectable<RecipientsTable>;
export type MessageRow = Selectable<MessagesTable>;
export type SignatureRow = Selectable<SignaturesTable>;
export type SealedFileRow = Selectable<SealedFilesTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type AccountNotifyRow = Selectable<AccountNotifyTable>;
