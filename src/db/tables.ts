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
  values: string;
  metadata: string;
  pdf_key: string;
  expires_in_days: number;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  completed_at: string | null;
  expires_at: string | null;
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
   * the form's immutable field definitions it renders the delivered body (formSnapshot in present-form.ts).
   */
  form: string;
  created_at: string;
  /** Null until the publisher has fanned the event out to its webhooks: the event is its own outbox entry. */
  published_at: string | null;
}

export interface OutboxTable {
  id: string;
  account_id: string;
  mode: Mode;
  kind: string;
  payload: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  attempts: Generated<number>;
  run_at: string;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  templates: TemplatesTable;
  forms: FormsTable;
  events: EventsTable;
  outbox: OutboxTable;
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
