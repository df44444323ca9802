import type { EventRow, FormRow, RecipientRow } from '../../db/tables.js';
import type { components } from '../../generated/api.js';
import { linkUrlOf, type SigningLinks } from '../../lib/signing-links.js';
import type { FieldValue } from '../../pdf/index.js';
import { json, str, type Json } from '../json.js';
import { encodeValues, fieldSet, fieldsWithValuesJson, type EncodedValues, type FieldSet } from '../templates/field-set.js';

// The one presentation of a form. The API (get, list, create, send), the events log and the webhook
// bodies all build the Form object here, from a `FormState`: what a form is at one moment, as stored.
// An event keeps its form's state (`snapshotJson`) and renders the Form object as it was through the
// same function, so the two can never drift apart.

export type FormView = components['schemas']['Form'];
export type EventView = components['schemas']['Event'];
export type RecipientView = components['schemas']['Recipient'];

/** What the Form object shows of a form besides its fields, values, metadata and recipients. */
export type FormHead = Pick<FormRow, 'id' | 'mode' | 'status' | 'name' | 'template_id' | 'created_at' | 'sent_at' | 'completed_at' | 'expires_at'> &
  /** After sending (0013) and sealing (0015); absent from the snapshots of events recorded before them. */
  Partial<Pick<FormRow, 'signing_order' | 'reminder_every_days' | 'reminder_max' | 'voided_at' | 'void_reason'>> &
  Partial<Pick<FormRow, 'sealing_status' | 'sealing_attempts' | 'sealing_error' | 'sealing_next_at'>> &
  /** The tombstone of a deleted form (0035). */
  Partial<Pick<FormRow, 'deleted_at' | 'purge_state' | 'sealed_sha256' | 'tombstone'>> &
  /** A legal hold (0036). */
  Partial<Pick<FormRow, 'hold_reason' | 'hold_by' | 'hold_at'>>;

/** What the Recipient object shows; the signing link is derived from the id and link generation, never stored. */
export type RecipientState = Pick<
  RecipientRow,
  'id' | 'name' | 'email' | 'phone' | 'channel' | 'signer' | 'status' | 'delivery_status' | 'delivery_error' | 'sent_at' | 'viewed_at' | 'signed_at'
> &
  /** After sending (0013); absent from the snapshots of events recorded before it. */
  Partial<Pick<RecipientRow, 'declined_at' | 'decline_reason' | 'last_reminded_at'>> & {
  /** Absent in the snapshots of events recorded before recipients had a locale (migration 0019). */
  readonly locale?: string | null;
  /** What their signature means (issue 38, migration 0055); absent from older snapshots. */
  readonly meaning?: string | null;
  /** Issue 42 (migration 0085); absent from older snapshots, whose recipients were all signers. */
  readonly role?: RecipientRow['role'];
  readonly message?: string | null;
  readonly approved_at?: string | null;
  /** Which of its links is live (issue 38, migration 0090); absent from older snapshots (the first, 0). */
  readonly link_generation?: number;
};

export interface FormState {
  readonly head: FormHead;
  /** The stored JSON object of values (`forms.values`). */
  readonly valuesJson: string;
  /** The stored JSON object of metadata (`forms.metadata`). */
  readonly metadataJson: string;
  /** In the order first sent. */
  readonly recipients: readonly RecipientState[];
}

export function formState(row: FormRow, recipients: readonly RecipientRow[]): FormState {
  return { head: row, valuesJson: row.values, metadataJson: row.metadata, recipients };
}

/**
 * The Form object as JSON text, built by splicing: the field definitions are prepared once per
 * template, values are encoded once (pass `values` when the caller already has them encoded) and the
 * metadata is JSON we stored ourselves.
 */
export function formJson(state: FormState, fields: FieldSet, links: SigningLinks, values?: EncodedValues): Json<FormView> {
  const h = state.head;
  const encoded = values ?? encodeValues(JSON.parse(state.valuesJson) as Record<string, FieldValue>);
  return json(
    `{"object":"form","id":${str(h.id)},"mode":${str(h.mode)},"status":${str(h.status)},"name":${str(h.name)},` +
      `"template_id":${str(h.template_id)},"fields":${fieldsWithValuesJson(fields, encoded)},"recipients":${recipientsJson(state.recipients, links)},` +
      `"created_at":${str(h.created_at)},"sent_at":${str(h.sent_at)},"completed_at":${str(h.completed_at)},` +
      `"expires_at":${str(h.expires_at)},"metadata":${state.metadataJson},${lifecycleJson(h)},"sealing":${sealingJson(h)}${tombstoneJson(h)}${holdJson(h)}}`,
  );
}

/** The Form's members of the life after sending (0013): order, reminders, void. */
function lifecycleJson(h: FormHead): string {
  const reminders = h.reminder_every_days && h.reminder_max ? `{"every_days":${h.reminder_every_days},"max":${h.reminder_max}}` : 'null';
  return `"signing_order":${str(h.signing_order ?? 'parallel')},"reminders":${reminders},"voided_at":${str(h.voided_at ?? null)},"void_reason":${str(h.void_reason ?? null)}`;
}

/** The Form's `sealing` (issue 25): null before the last signature; a signed form was sealed. */
function sealingJson(h: FormHead): string {
  const status = h.sealing_status ?? (h.status === 'signed' ? 'sealed' : null);
  if (status === null) return 'null';
  return JSON.stringify({ status, attempts: h.sealing_attempts ?? 0, last_error: h.sealing_error ?? null, next_attempt_at: h.sealing_next_at ?? null });
}

/**
 * A deleted form's tombstone members (issue 40), absent on every other form: when it was deleted, the
 * SHA-256 of its sealed PDF, the counts of what it had, and whether its stored files are gone yet.
 */
function tombstoneJson(h: FormHead): string {
  if (h.status !== 'deleted') return '';
  const counts = h.tombstone ? (JSON.parse(h.tombstone) as Record<string, number>) : {};
  const files = h.purge_state === 'done' ? 'deleted' : 'deleting';
  return `,"deleted_at":${str(h.deleted_at ?? null)},"tombstone":${JSON.stringify({ sealed_sha256: h.sealed_sha256 ?? null, recipients: counts['recipients'] ?? 0, signatures: counts['signatures'] ?? 0, events: counts['events'] ?? 0, files })}`;
}

/** A held form's `legal_hold` (issue 40): why, who placed it and when; absent on a form without one. */
function holdJson(h: FormHead): string {
  if (!h.hold_at) return '';
  return `,"legal_hold":${JSON.stringify({ reason: h.hold_reason ?? null, placed_by: h.hold_by ?? null, placed_at: h.hold_at })}`;
}

function recipientsJson(recipients: readonly RecipientState[], links: SigningLinks): string {
  if (recipients.length === 0) return '[]';
  return JSON.stringify(recipients.map((r): RecipientView => presentRecipient(r, links)));
}

export function presentRecipient(r: RecipientState, links: SigningLinks): RecipientView {
  return {
    object: 'recipient',
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    channel: r.channel,
    signer: r.signer,
    status: r.status,
    delivery_status: r.delivery_status,
    delivery_error: r.delivery_error,
    signing_url: linkUrlOf(links, r),
    sent_at: r.sent_at,
    viewed_at: r.viewed_at,
    signed_at: r.signed_at,
    declined_at: r.declined_at ?? null,
    decline_reason: r.decline_reason ?? null,
    last_reminded_at: r.last_reminded_at ?? null,
    meaning: r.meaning ?? null,
    locale: r.locale ?? null,
    role: r.role ?? 'signer',
    approved_at: r.approved_at ?? null,
    message: r.message ?? null,
  };
}

const RECIPIENT_KEYS = [
  'id', 'name', 'email', 'phone', 'channel', 'signer', 'status', 'delivery_status', 'delivery_error', 'sent_at', 'viewed_at', 'signed_at',
  'declined_at', 'decline_reason', 'last_reminded_at', 'locale', 'meaning', 'role', 'approved_at', 'message', 'link_generation',
] as const;

/**
 * A form's state as an event keeps it: the head, values, metadata (the stored JSON columns spliced in,
 * not re-escaped) and the recipients without their links. With the form's field definitions, which
 * never change, it renders the Form object exactly as it was.
 */
export function snapshotJson(state: FormState): string {
  const h = state.head;
  const recipients = state.recipients.length === 0 ? '[]' : JSON.stringify(state.recipients.map((r) => Object.fromEntries(RECIPIENT_KEYS.map((k) => [k, r[k]]))));
  return (
    `{"id":${str(h.id)},"mode":${str(h.mode)},"status":${str(h.status)},"name":${str(h.name)},"template_id":${str(h.template_id)},` +
    `"created_at":${str(h.created_at)},"sent_at":${str(h.sent_at)},"completed_at":${str(h.completed_at)},"expires_at":${str(h.expires_at)},` +
    `"signing_order":${str(h.signing_order ?? null)},"reminder_every_days":${num(h.reminder_every_days)},"reminder_max":${num(h.reminder_max)},` +
    `"voided_at":${str(h.voided_at ?? null)},"void_reason":${str(h.void_reason ?? null)},` +
    `"sealing_status":${str(h.sealing_status ?? null)},"sealing_attempts":${h.sealing_attempts ?? 0},"sealing_error":${str(h.sealing_error ?? null)},"sealing_next_at":${str(h.sealing_next_at ?? null)},` +
    `"values":${state.valuesJson},"metadata":${state.metadataJson},"recipients":${recipients}` +
    (h.status === 'deleted' ? `,"deleted_at":${str(h.deleted_at ?? null)},"purge_state":${str(h.purge_state ?? null)},"sealed_sha256":${str(h.sealed_sha256 ?? null)},"tombstone":${str(h.tombstone ?? null)}` : '') +
    '}'
  );
}

/**
 * An event's snapshot with the personal data of its form taken out (issue 40, a purge): values,
 * metadata, the form's name and void reason, the sealing error, and each recipient's name, addresses,
 * delivery error, decline reason and signature meaning. The ids, statuses and times stay, so the audit keeps its shape.
 */
export function scrubbedSnapshot(snapshot: string): string {
  const s = JSON.parse(snapshot) as Snapshot;
  const recipients = (s.recipients ?? []).map((r) => ({ ...r, name: null, email: null, phone: null, delivery_error: null, decline_reason: null, ...(r.meaning === undefined ? {} : { meaning: null }), ...(r.message === undefined ? {} : { message: null }) }));
  return JSON.stringify({ ...s, name: null, void_reason: null, sealing_error: null, values: {}, metadata: {}, recipients });
}

function num(n: number | null | undefined): string {
  return n === null || n === undefined ? 'null' : String(n);
}

/**
 * What an event says beside the form (issue 38): `data.authentication` of `recipient.authenticated`,
 * `data.reassignment` of `form.reassigned`.
 */
export type EventDetail =
  | { authentication: NonNullable<EventView['data']['authentication']>; reassignment?: undefined }
  | { reassignment: NonNullable<EventView['data']['reassignment']>; authentication?: undefined };

interface Snapshot extends FormHead {
  values: Record<string, FieldValue>;
  metadata: Record<string, string>;
  /** Absent in events recorded before sending existed (their forms had no recipients). */
  recipients?: RecipientState[];
  event_detail?: EventDetail;
}

function stateOfSnapshot(snapshot: string): { state: FormState; values: EncodedValues; detail: EventDetail | undefined } {
  const s = JSON.parse(snapshot) as Snapshot;
  const values = encodeValues(s.values);
  return { state: { head: s, valuesJson: values.json, metadataJson: JSON.stringify(s.metadata), recipients: s.recipients ?? [] }, values, detail: s.event_detail };
}

/**
 * The fields a form without its row renders with: a removed draft (issue 40), whose events stay,
 * emptied of its values, and a tombstone. The events feed, the webhook attempt and DELETE's answer use it.
 */
export const removedFormFields: FieldSet = fieldSet('[]');

/** The Event object, which is also the webhook body, from the event row and its form's fields. */
export function eventJson(e: EventRow, fields: FieldSet, links: SigningLinks): Json<EventView> {
  // An event about a bulk send (issue 42) keeps its object whole as its snapshot: no form to render.
  if (e.type.startsWith('bulk_send.')) return json(`{"object":"event","id":${str(e.id)},"type":${str(e.type)},"created_at":${str(e.created_at)},"mode":${str(e.mode)},"data":{"object":${e.form}}}`);
  const { state, values, detail } = stateOfSnapshot(e.form);
  const form = formJson(state, fields, links, values);
  const extra = detail?.authentication ? `,"authentication":${JSON.stringify(detail.authentication)}` : detail?.reassignment ? `,"reassignment":${JSON.stringify(detail.reassignment)}` : '';
  return json(`{"object":"event","id":${str(e.id)},"type":${str(e.type)},"created_at":${str(e.created_at)},"mode":${str(e.mode)},"data":{"object":${form.json}${extra}}}`);
}
