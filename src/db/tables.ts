import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ActivityKind } from '../lib/activity-kinds.js';
import type { Role } from '../lib/member-roles.js';
import type { MessageKind } from '../lib/message-kinds.js';
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
  /** 1: no monthly quota (migration 0045: the first-start account and operator-made ones); absent on insert is 0. */
  unmetered?: number;
  created_at: string;
  updated_at: string;
  /** Days after a form finishes until the retention job purges it; null (the default): kept (0036). */
  retention_days?: number | null;
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
  /** The address of the member who made it (0070); null for an operator's key. Absent on insert is null. */
  created_by?: string | null;
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
  /** The named signer slots, JSON `[{slot, role}]` ordered by slot; '[]' when none is named (0021). */
  signers: Generated<string>;
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

/** `declined` and `voided` are terminal, like `signed` and `expired` (0013). */
export type FormStatus = 'draft' | 'sent' | 'viewed' | 'signed' | 'expired' | 'declined' | 'voided' | 'deleted';
export type SigningOrder = 'parallel' | 'sequential';

export interface FormsTable {
  id: string;
  account_id: string;
  mode: Mode;
  status: FormStatus;
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
  /**
   * Sealing (0015): null until the last signature; then pending → sealed, or failed after the last
   * attempt. Column defaults (null, 0), so the hot form insert leaves them out.
   */
  sealing_status: Generated<SealingStatus | null>;
  sealing_attempts: Generated<number>;
  sealing_error: Generated<string | null>;
  sealing_next_at: Generated<string | null>;
  /** 0 when a send said `notify: {completed_copy: false}`: recipients get no sealed copy (0014). */
  completed_copy: Generated<number>;
  /** Fixed by the first send; null before it (0013). */
  signing_order: SigningOrder | null;
  /** The reminder schedule the first send asked for; both null when none (0013). */
  reminder_every_days: number | null;
  reminder_max: number | null;
  /** Set when the sender withdrew the form (0013). */
  voided_at: string | null;
  void_reason: string | null;
  /**
   * The tombstone of a purged form (0035): when, the sealed PDF's SHA-256, JSON counts, and whether its
   * stored files are still being deleted (`blobs`) or gone (`done`). Column defaults (null).
   */
  deleted_at: Generated<string | null>;
  purge_state: Generated<'blobs' | 'done' | null>;
  sealed_sha256: Generated<string | null>;
  tombstone: Generated<string | null>;
  /** A legal hold (0036): no purge, by retention or DELETE, while `hold_at` is set. Who: the key id or the dashboard user. */
  hold_reason: Generated<string | null>;
  hold_by: Generated<string | null>;
  hold_at: Generated<string | null>;
  /** 1 when the send said `allow_reassign: true`: the signer may pass the form to someone else (0090). */
  allow_reassign: Generated<number>;
}

/** A stored file of a purged form still to delete (0035); the row goes once the file is gone. */
export interface PurgeBlobsTable {
  account_id: string;
  mode: Mode;
  form_id: string;
  blob_key: string;
  created_at: string;
}

export type SealingStatus = 'pending' | 'sealed' | 'failed';

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
  /**
   * The order of the events API (0025), commit order within the partition. SQLite: max + 1, computed by
   * the insert under the write lock. PostgreSQL: null until the last statement of the writing
   * transaction numbers it (db/event-order.ts). A bigint: a string from PostgreSQL, a number from SQLite.
   */
  seq: Generated<number | string | null>;
}

/** PostgreSQL (0025): the last `seq` given to an event of each partition. */
export interface EventCountersTable {
  account_id: string;
  mode: Mode;
  value: number | string;
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

/** `waiting`: sequential order, not messaged yet; `declined`: refused to sign (0013). */
export type RecipientStatus = 'waiting' | 'sent' | 'viewed' | 'signed' | 'approved' | 'declined';
/** What a recipient does (issue 42; the list is recipient-roles.ts's RECIPIENT_ROLES). */
export type RecipientRole = 'signer' | 'approver' | 'cc' | 'viewer';
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
  /** The recipient declined to sign, with their optional reason (0013). */
  declined_at: string | null;
  decline_reason: string | null;
  /** The last reminder sent to the recipient, scheduled or manual (0013). */
  last_reminded_at: string | null;
  /** What their signature means ("Approved"; ≤ 80 characters), as the send gave it; null when none (0055). */
  meaning: string | null;
  /** signer | approver | cc | viewer (0085); the default, `signer`, is what every earlier recipient was (and an insert without one). */
  role: Generated<RecipientRole>;
  /** The sender's words to this recipient (≤ 1,000 characters) and their invitation's subject; null: none (0085). */
  message: string | null;
  subject: string | null;
  /** When an approver approved (0085). */
  approved_at: string | null;
  /** Which of the recipient's links is live (0090): bumped when the link is replaced (lib/signing-links.ts). */
  link_generation: Generated<number>;
}

/** One reminder sent (0013): the audit's record; `seq` numbers a scheduled one (unique per recipient). */
export interface RemindersTable {
  id: string;
  account_id: string;
  mode: Mode;
  form_id: string;
  recipient_id: string;
  seq: number | null;
  kind: 'scheduled' | 'manual';
  message_id: string;
  created_at: string;
}

/**
 * What a signature adds to the audit trail besides time, address and browser (migration 0016), one row
 * per signed recipient, written in the transaction that marks them signed: the consent text agreed to
 * as it was shown (the wording may change later; what was agreed must not), and the signer's UTC offset
 * in minutes east as their browser reported it (null when the client sent none).
 */
export interface SigningEvidenceTable {
  recipient_id: string;
  account_id: string;
  mode: Mode;
  form_id: string;
  consent_text: string;
  /** The language the consent was shown in (a catalogue code); null before 0023, when it was English. */
  consent_locale: string | null;
  utc_offset_minutes: number | null;
  created_at: string;
}

/** What a message is for (0014): one list, in lib/message-kinds.ts. */
export type { MessageKind } from '../lib/message-kinds.js';

export interface MessagesTable {
  id: string;
  account_id: string;
  mode: Mode;
  /** Null for an e-mail about a user's access to the dashboard: a sign-in link, a reset (0050). */
  form_id: string | null;
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
  /** SHA-256 of the filled document the seal started from, as its audit page states it (0016; null before). */
  filled_sha256?: string | null;
  /** The language the seal drew the audit pages in (0024; null before). */
  audit_locale?: string | null;
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

/** Dashboard (issue 24): an account's counted API calls and 429s in one UTC day (migration 0020). */
export interface AccountUsageDailyTable {
  account_id: string;
  /** 'YYYY-MM-DD' (UTC). */
  day: string;
  calls: number;
  limited: number;
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
  /** What the member may do in the dashboard (0070; src/lib/member-roles.ts). */
  role: Role;
  /** When the member last signed in (0070); null until then. Absent on insert is null. */
  last_sign_in_at?: string | null;
  created_at: string;
  updated_at: string;
}

/** An invitation to join an account's dashboard with a role (0070): e-mailed, 7 days, used once. */
export interface InvitationsTable {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  token_hash: string;
  /** The inviting member's address (kept as text: it still reads after they are removed). */
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

/** One entry of an account's activity log (0070): who did what, to what, from where, when. */
export interface AccountActivityTable {
  id: string;
  account_id: string;
  /** The member's user id; null for the operator (CLI) or someone not signed in. */
  actor_id: string | null;
  actor_email: string | null;
  kind: ActivityKind;
  /** What it was done to, as a person reads it: a member's address, a key's display, a webhook's URL. */
  target: string | null;
  ip: string | null;
  /** JSON object of further facts (a role change's from/to, which setting). */
  detail: string | null;
  created_at: string;
}

/** What is left to do before a session is a full one (0075): a TOTP code, or enrolling one. */
export type PendingStep = 'code' | 'enrol';

/** A dashboard sign-in (0010); the cookie carries the token, the store its SHA-256. */
export interface SessionsTable {
  token_hash: string;
  user_id: string;
  account_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The member's role when the session was issued (0070); a different role now rotates the session. */
  role?: Role | null;
  /** Null: a full session; otherwise the second factor it still waits for (0075). */
  pending_step?: PendingStep | null;
}

/** What a one-time link is for (0050). */
export type LoginLinkPurpose = 'sign_in' | 'reset';

/** A one-time dashboard sign-in link (0010). */
export interface LoginLinksTable {
  token_hash: string;
  user_id: string;
  /** What the link may do (0050): sign in, or set a new password (then sign in). */
  purpose: LoginLinkPurpose;
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

/** An `Idempotency-Key` of a partition and what it answered (0017); see migrations/0017 and domain/idempotency. */
export interface IdempotencyKeysTable {
  account_id: string;
  mode: Mode;
  key: string;
  /** SHA-256 (hex) of the method, path and body of the request that first used the key. */
  request_hash: string;
  status: 'in_flight' | 'done';
  /** The request id of the request that holds (or held) the key. */
  owner: string;
  /** When the owner took the key; an `in_flight` row past its lease may be taken over. */
  locked_at: string;
  response_status: number | null;
  /** JSON object of the stored headers (lower-case names). */
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
}
/** Origins allowed to frame a partition's signing pages (migration 0018). */
export interface EmbedOriginsTable {
  account_id: string;
  mode: Mode;
  /** Canonical: lower-case scheme and host, the port only when not the scheme's default. */
  origin: string;
  created_at: string;
}
export type EmbedOriginRow = Selectable<EmbedOriginsTable>;

/** How a signer proves who they are before the document opens (issue 38). */
export type CheckMethod = 'email_code' | 'sms_code' | 'access_code';
/** `open`: before the document is shown; `sign`: then again when the signer presses Finish. */
export type CheckWhen = 'open' | 'sign';
export type CheckPurpose = 'open' | 'sign';
export type CheckLogKind = 'code_sent' | 'verified' | 'failed' | 'locked';

/** The check a recipient must pass, and its state (0030). */
export interface RecipientChecksTable {
  recipient_id: string;
  account_id: string;
  mode: Mode;
  form_id: string;
  method: CheckMethod;
  check_when: CheckWhen;
  /** E.164; the number an `sms_code` goes to (personal data). */
  phone: string | null;
  /** `scrypt$<salt>$<hash>` of the sender's access code; the code itself is never stored. */
  access_code_hash: string | null;
  /** HMAC of the current one-time code; null once used or never sent. */
  code_hash: string | null;
  code_purpose: CheckPurpose | null;
  code_expires_at: string | null;
  /** Wrong tries since the last success or lock. */
  failures: Generated<number>;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
}
export type RecipientCheckRow = Selectable<RecipientChecksTable>;

/** What happened in a recipient's checks: the audit trail's evidence and the resend limits' count (0030). */
export interface RecipientCheckLogTable {
  id: string;
  account_id: string;
  mode: Mode;
  form_id: string;
  recipient_id: string;
  kind: CheckLogKind;
  purpose: CheckPurpose;
  method: CheckMethod;
  /** Masked (`a•••@example.com`, `+1•••••0123`), for `code_sent` (personal data). */
  destination: string | null;
  ip: string | null;
  at: string;
}
export type RecipientCheckLogRow = Selectable<RecipientCheckLogTable>;

/** A browser's session on one signing link (0030); the cookie's value is never stored, its SHA-256 is. */
export interface SignerSessionsTable {
  id_hash: string;
  account_id: string;
  mode: Mode;
  form_id: string;
  recipient_id: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  /** When this browser passed the recipient's check (null: not yet). */
  verified_at: string | null;
  /** When it passed the check again at Finish (`when: sign`). */
  sign_verified_at: string | null;
}
export type SignerSessionRow = Selectable<SignerSessionsTable>;

/** A recipient's values typed so far on the signing page (0065; issue 43): restored on any device. */
export interface SigningDraftsTable {
  recipient_id: string;
  account_id: string;
  mode: Mode;
  form_id: string;
  /** JSON: `{ <field name>: value | null }`, this recipient's own fields only, checked by the value rules. */
  values: string;
  /** The minute the save count is of (`YYYY-MM-DDTHH:MM`), and the count (the route's rate limit). */
  window_start: string;
  window_count: number;
  /** When "Finish later" last sent the link again. */
  link_sent_at: string | null;
  created_at: string;
  updated_at: string;
}
export type SigningDraftRow = Selectable<SigningDraftsTable>;

/** A file a signer attached to an `attachment` field (0100; issue 41), its bytes in the blob store. */
export interface FormAttachmentsTable {
  id: string;
  account_id: string;
  mode: Mode;
  form_id: string;
  recipient_id: string;
  field_name: string;
  /** The name the signer's file had (control characters dropped), shown and used for downloads. */
  filename: string;
  /** Known by its content: application/pdf, image/png or image/jpeg. */
  content_type: string;
  size: number;
  sha256: string;
  blob_key: string;
  created_at: string;
  /** When the signer signed with it; null while it may still be removed. */
  submitted_at: string | null;
}
export type FormAttachmentRow = Selectable<FormAttachmentsTable>;

/** A stored document's page sizes (0105), by its file: JSON `[[width, height], …]` in PDF points as displayed. */
export interface DocumentPagesTable {
  account_id: string;
  mode: Mode;
  pdf_key: string;
  page_sizes: string;
  created_at: string;
}

/** Who replaced a recipient's link (0090): the sender (PATCH, dashboard) or the signer passing the form on. */
export type LinkReplacedBy = 'sender' | 'signer';

/** A recipient's replaced link (0090): an old token's hash, and who the recipient was while it was live. */
export interface RetiredLinksTable {
  token_hash: string;
  account_id: string;
  mode: Mode;
  form_id: string;
  recipient_id: string;
  /** The link generation this token was (recipients.link_generation then). */
  generation: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  channel: Channel;
  /** The recipient's locale then: the 410 page speaks it. */
  locale: string | null;
  replaced_by: LinkReplacedBy;
  reason: string | null;
  retired_at: string;
}
export type RetiredLinkRow = Selectable<RetiredLinksTable>;

/** Codes asked for from one client address on an account's links in one window (0090; the per-address limit). */
export interface CodeRequestWindowsTable {
  account_id: string;
  mode: Mode;
  ip: string;
  window_start: string;
  count: number;
}

export interface Database {
  accounts: AccountsTable;
  account_notify: AccountNotifyTable;
  api_keys: ApiKeysTable;
  templates: TemplatesTable;
  template_versions: TemplateVersionsTable;
  forms: FormsTable;
  events: EventsTable;
  event_counters: EventCountersTable;
  outbox: OutboxTable;
  recipients: RecipientsTable;
  signing_evidence: SigningEvidenceTable;
  messages: MessagesTable;
  service_secrets: ServiceSecretsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  signatures: SignaturesTable;
  sealed_files: SealedFilesTable;
  account_usage: AccountUsageTable;
  account_usage_daily: AccountUsageDailyTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_links: LoginLinksTable;
  login_failures: LoginFailuresTable;
  idempotency_keys: IdempotencyKeysTable;
  reminders: RemindersTable;
  embed_origins: EmbedOriginsTable;
  recipient_checks: RecipientChecksTable;
  recipient_check_log: RecipientCheckLogTable;
  signer_sessions: SignerSessionsTable;
  signing_drafts: SigningDraftsTable;
  retired_links: RetiredLinksTable;
  code_request_windows: CodeRequestWindowsTable;
  form_attachments: FormAttachmentsTable;
  document_pages: DocumentPagesTable;
  purge_blobs: PurgeBlobsTable;
  data_subject_requests: DataSubjectRequestsTable;
  bulk_sends: BulkSendsTable;
  bulk_send_rows: BulkSendRowsTable;
  account_branding: AccountBrandingTable;
  invitations: InvitationsTable;
  account_activity: AccountActivityTable;
  account_sign_in: AccountSignInTable;
  user_totp: UserTotpTable;
  sso_domains: SsoDomainsTable;
  sso_flows: SsoFlowsTable;
  recovery_codes: RecoveryCodesTable;
}

/** An account's sign-in policy (0075); no row: neither required. */
export interface AccountSignInTable {
  account_id: string;
  /** 1: the account's users sign in through the OpenID provider only, no password. */
  sso_required: number;
  /** 1: password users must enrol a TOTP authenticator. */
  require_2fa: number;
  updated_at: string;
}

/** A user's TOTP authenticator (0075); no row, or no `secret`: no two-factor sign-in. */
export interface UserTotpTable {
  user_id: string;
  account_id: string;
  /** Base32 secret of the confirmed enrolment. */
  secret: string | null;
  /** The secret an enrolment showed, until a code from it confirms it. */
  pending_secret: string | null;
  enabled_at: string | null;
  /** The RFC 6238 time step of the last code accepted: one of that step or before is refused. */
  last_step: number | null;
  updated_at: string;
}
export type UserTotpRow = Selectable<UserTotpTable>;

/** An e-mail domain an account claimed for single sign-on (0075); one account per domain. */
export interface SsoDomainsTable {
  domain: string;
  account_id: string;
  created_at: string;
}

/** A started OpenID Connect sign-in (0075), found by the SHA-256 of its cookie token; spent once. */
export interface SsoFlowsTable {
  id_hash: string;
  state: string;
  nonce: string;
  code_verifier: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
export type SsoFlowRow = Selectable<SsoFlowsTable>;

/** A two-factor recovery code (0075): its SHA-256, spent once. */
export interface RecoveryCodesTable {
  code_hash: string;
  account_id: string;
  user_id: string;
  created_at: string;
  used_at: string | null;
}

/** An account's brand (0086): logo as served, accent colour as used and as given, the sender's name. */
export interface AccountBrandingTable {
  account_id: string;
  logo_type: 'image/png' | 'image/svg+xml' | null;
  /** PNG bytes as base64, or the sanitised SVG text. */
  logo: string | null;
  /** SHA-256 (hex) of the logo's bytes as served: its public address. */
  logo_sha256: string | null;
  accent_color: string | null;
  accent_requested: string | null;
  sender_name: string | null;
  updated_at: string;
}

/** A person's data export or erasure asked of a partition (0060): the address as its SHA-256 only. */
export interface DataSubjectRequestsTable {
  id: string;
  account_id: string;
  mode: Mode;
  kind: 'export' | 'erase';
  subject_sha256: string;
  /** How many forms it covered (exported, or purged). */
  forms: number;
  /** JSON array of the form ids an erasure refused (on hold or in flight); `[]` for an export. */
  refused: string;
  /** The API key's id, or the dashboard user's address. */
  requested_by: string | null;
  created_at: string;
}

export type AccountRow = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type TemplateRow = Selectable<TemplatesTable>;
export type NewTemplateRow = Insertable<TemplatesTable>;
export type FormRow = Selectable<FormsTable>;
export type NewFormRow = Insertable<FormsTable>;
export type FormUpdate = Updateable<FormsTable>;
export type EventRow = Selectable<EventsTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type RecipientRow = Selectable<RecipientsTable>;
export type AccountBrandingRow = Selectable<AccountBrandingTable>;
export type SigningEvidenceRow = Selectable<SigningEvidenceTable>;
export type MessageRow = Selectable<MessagesTable>;
export type ReminderRow = Selectable<RemindersTable>;
export type SignatureRow = Selectable<SignaturesTable>;
export type SealedFileRow = Selectable<SealedFilesTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type AccountNotifyRow = Selectable<AccountNotifyTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type ActivityRow = Selectable<AccountActivityTable>;

export type BulkSendStatus = 'processing' | 'completed';
export type BulkRowStatus = 'pending' | 'sent' | 'failed';

/** A bulk send (0080, issue 42): its counters move with the transactions that settle its rows. */
export interface BulkSendsTable {
  id: string;
  account_id: string;
  mode: Mode;
  template_id: string;
  status: BulkSendStatus;
  total: number;
  sent: number;
  failed: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}
export type BulkSendRow = Selectable<BulkSendsTable>;

/** One row of a bulk send (0080): at most one form, made and sent by the job worker. */
export interface BulkSendRowsTable {
  bulk_id: string;
  /** 1-based: `rows[row - 1]` of the request, or the CSV's row-th line after its header. */
  row: number;
  account_id: string;
  mode: Mode;
  status: BulkRowStatus;
  /** JSON `{prefill, recipients, name?}` while the row is pending; null once it is sent or failed. */
  input: string | null;
  /** Set in the transaction that creates the row's form (before it is sent). */
  form_id: string | null;
  /** JSON `{code, message, param?}`: the contract's error that failed the row. */
  error: string | null;
  updated_at: string;
}
export type BulkSendRowRow = Selectable<BulkSendRowsTable>;
