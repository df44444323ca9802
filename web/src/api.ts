import type { components } from '../../src/generated/api';
import type { ActivityKind } from '../../src/lib/activity-kinds';
import type { Role } from '../../src/lib/member-roles';
import type { MessageKind } from '../../src/lib/message-kinds';

// The dashboard API client: JSON in and out, the session cookie sent by the browser, the session's
// CSRF token in a header on every state-changing call. Types come from the generated API types where
// the object is the public API's own (Template, Field).

export type Template = components['schemas']['Template'];
export type Field = components['schemas']['Field'];
export type FieldType = Field['type'];
export type Mode = 'test' | 'live';

export interface SessionView {
  object: 'session';
  user: { id: string; email: string; has_password: boolean; role: Role };
  account: { id: string; name: string; plan: 'trial' | 'paid' };
  csrf_token: string;
  expires_at: string;
}

/** Sign-in's answer when the password was right and a second factor is due (issue 39). */
export interface ChallengeView {
  object: 'two_factor_challenge';
  step: 'code' | 'enrol';
  csrf_token: string;
  expires_at: string;
}

export type SignInAnswer = SessionView | ChallengeView;

export interface ApiKey {
  object: 'api_key';
  id: string;
  mode: Mode;
  label: string | null;
  display: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The member who made it; null: the operator (CLI, first start). */
  created_by: string | null;
  key?: string;
}

// Teams (issue 39): the account's members, open invitations and activity log.
export type { ActivityKind, Role };

export interface Member {
  object: 'member';
  id: string;
  email: string;
  role: Role;
  has_password: boolean;
  two_factor: boolean;
  last_sign_in_at: string | null;
  created_at: string;
}

export interface Invitation {
  object: 'invitation';
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

export interface Members {
  object: 'members';
  data: Member[];
  invitations: Invitation[];
}

export interface Activity {
  object: 'activity';
  id: string;
  kind: ActivityKind;
  actor: { id: string | null; email: string | null };
  target: string | null;
  ip: string | null;
  detail: Record<string, unknown> | null;
  created_at: string;
}

export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => undefined;
let onRefused: () => void = () => undefined;

export function rememberSession(session: SessionView | ChallengeView | null): void {
  csrfToken = session?.csrf_token ?? '';
}

/** Called when the server says the session is gone (expired, revoked, signed out elsewhere). */
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

/** Called when the member's role does not allow a call: the role may have changed since the page loaded. */
export function whenRefused(fn: () => void): void {
  onRefused = fn;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(`/dashboard/api${path}`, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', 'Formsign could not be reached. Check that the server is running, then try again.');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiError(res.status, 'bad_response', `The server answered ${res.status} with something that is not JSON.`);
  }
  if (!res.ok) {
    const e = (json as { error?: { code?: string; message?: string; param?: string } } | undefined)?.error;
    const err = new ApiError(res.status, e?.code ?? 'unknown', e?.message ?? `The server answered ${res.status}.`, e?.param);
    if (err.code === 'session_required' && path !== '/session') onSignedOut();
    if (err.code === 'permission_denied') onRefused();
    throw err;
  }
  return json as T;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : 'Something went wrong.';
}

// Dashboard part 2 (issue 24): the public API's own objects, from the generated types.
export type Form = components['schemas']['Form'];
export type FormStatus = Form['status'];
export type Recipient = components['schemas']['Recipient'];
export type FormEvent = components['schemas']['Event'];
export type Webhook = components['schemas']['Webhook'];
export type WebhookWithSecret = components['schemas']['WebhookWithSecret'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookEventType = Webhook['events'][number];
export type SendFormRequest = components['schemas']['SendFormRequest'];
export type SendRecipient = SendFormRequest['recipients'][number];
// Issue 42: bulk send.
export type BulkSend = components['schemas']['BulkSend'];
export type BulkSendRow = components['schemas']['BulkSendRow'];

/** The Bulk send page's preview: the CSV checked as the API checks it, nothing written. */
export type { BulkPreview } from '../../src/lib/bulk-preview';
export type Branding = components['schemas']['Branding'];
export type RecipientRole = components['schemas']['RecipientRole'];

export interface DevMessage {
  object: 'dev_message';
  id: string;
  /** Null for a sign-in or reset e-mail (about a user, not a form). */
  form_id: string | null;
  recipient_id: string | null;
  kind: MessageKind;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  has_html: boolean;
  signing_url: string | null;
  status: 'queued' | 'delivered' | 'failed';
  error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface Usage {
  object: 'usage';
  days: Array<{ day: string; calls: number; limited: number }>;
  limited: boolean;
  monthly?: { limit: number; used: number; reset: number };
  window_seconds?: number;
  windows?: Array<{ endpoint: string; limit: number; remaining: number; reset: number }>;
}

/**
 * A GET for live status: the browser revalidates its cached copy with the ETag (the server answers
 * 304 while nothing changed; see src/http/dashboard/etag.ts for why polling rather than server-sent
 * events). `undefined` means the same ETag as last time: nothing changed.
 */
export async function getIfChanged<T>(path: string, etag: { current: string | null }): Promise<T | undefined> {
  let res: Response;
  try {
    res = await fetch(`/dashboard/api${path}`, { credentials: 'same-origin', cache: 'no-cache' });
  } catch {
    throw new ApiError(0, 'network', 'Formsign could not be reached. Check that the server is running, then try again.');
  }
  if (!res.ok) return api<T>('GET', path);
  const tag = res.headers.get('etag');
  if (tag !== null && tag === etag.current) return undefined;
  etag.current = tag;
  return (await res.json()) as T;
}
