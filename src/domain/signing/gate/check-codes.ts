import { findAccount } from '../../../db/repositories/accounts.js';
import { findForm } from '../../../db/repositories/forms.js';
import { listRecipientsOfForm } from '../../../db/repositories/recipients.js';
import { formState } from '../../forms/present-form.js';
import { recordFormEvent } from '../../forms/record-event.js';
import { codesSentSince, consumeCheckCode, countCheckFailure, failuresFromIpSince, findRecipientCheck, lockRecipientCheck, logCheck, storeCheckCode } from '../../../db/repositories/signer-checks.js';
import type { CheckPurpose, RecipientCheckRow } from '../../../db/tables.js';
import { countCodeRequest, lastRetiredAt } from '../../../db/repositories/link-replacement.js';
import type { Trx } from '../../../db/handles.js';
import type { Partition } from '../../../lib/partition.js';
import { isoNow } from '../../../lib/clock.js';
import { newId } from '../../../lib/ids.js';
import type { DomainDeps } from '../../context.js';
import { AppError } from '../../errors.js';
import { queueMessage } from '../../lifecycle/message-recipient.js';
import { verifyPassword } from '../../users/passwords.js';
import type { Client } from '../view-form.js';
import { checkCodeHash, cleanCode, CODE_TTL_MS, codeWindowStart, IP_CODE_WINDOW_MS, IP_MAX_CODE_REQUESTS, IP_MAX_FAILURES, IP_WINDOW_MS, LOCK_MS, maskEmail, maskPhone, MAX_TRIES, newCheckCode, RESEND_GAP_MS, RESEND_PER_HOUR, sameHash } from './check-rules.js';
import type { GatePass } from './signer-gate.js';
import { composeCheckCode } from './check-code-message.js';
import { recordSessionPassed } from './signer-session.js';

// Passing a recipient's check: asking for a code (`auth/start`) and giving it (`auth/verify`). Every
// count lives in the database and changes in one transaction with what it guards, so a lock survives a
// restart and two servers count a link's tries once.

type Deps = Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'links'>;

export interface CheckStarted {
  method: RecipientCheckRow['method'];
  /** Which check this is: at opening, or again at Finish. */
  purpose: CheckPurpose;
  /** Where the code went, masked; null for an access code (the sender gave it). */
  destination: string | null;
  /** When the code stops working; null for an access code. */
  expires_at: string | null;
  /** When another code may be asked for. */
  resend_at: string | null;
}

function checkOf(pass: GatePass): RecipientCheckRow {
  if (!pass.check) throw new AppError('parameter_invalid', 'This signing link asks for no code.');
  return pass.check;
}

/** The check due now: at opening, or (`when: sign`) again at Finish once the first one passed. */
function purposeOf(pass: GatePass, check: RecipientCheckRow): CheckPurpose {
  return check.check_when === 'sign' && pass.session?.verified_at != null ? 'sign' : 'open';
}

function refuseLocked(check: RecipientCheckRow, nowMs: number): void {
  if (check.locked_until === null) return;
  const left = Date.parse(check.locked_until) - nowMs;
  if (left <= 0) return;
  const seconds = Math.ceil(left / 1000);
  throw new AppError('auth_locked', `Too many wrong codes: this link is locked until ${check.locked_until}. Try again in ${Math.ceil(seconds / 60)} minutes.`, undefined, { 'Retry-After': String(seconds) });
}

function destinationOf(pass: GatePass, check: RecipientCheckRow): { channel: 'email' | 'sms'; to: string } {
  if (check.method === 'sms_code') return { channel: 'sms', to: check.phone ?? pass.link.recipient.phone! };
  return { channel: 'email', to: pass.link.recipient.email! };
}

function masked(d: { channel: 'email' | 'sms'; to: string }): string {
  return d.channel === 'email' ? maskEmail(d.to) : maskPhone(d.to);
}

/** `POST /sign/<token>/auth/start`: a new code for this link (none for an access code), within the resend limits. */
export async function startCheck(deps: Deps, pass: GatePass, client: Client): Promise<CheckStarted> {
  const check = checkOf(pass);
  const nowMs = deps.clock.now().getTime();
  refuseLocked(check, nowMs);
  const purpose = purposeOf(pass, check);
  if (check.method === 'access_code') return { method: check.method, purpose, destination: null, expires_at: null, resend_at: null };
  const p = pass.link.partition;
  // The link's limits count its own codes: those sent to a person it replaced are not theirs.
  const hourAgo = new Date(nowMs - 3_600_000).toISOString();
  const replacedAt = await lastRetiredAt(deps.db, p, check.recipient_id);
  const sent = await codesSentSince(deps.db, p, check.recipient_id, replacedAt !== undefined && replacedAt > hourAgo ? replacedAt : hourAgo);
  // A minute between codes for the same check: the check at Finish may follow the opening one at once.
  const last = sent.find((c) => c.purpose === purpose)?.at;
  if (last !== undefined && Date.parse(last) + RESEND_GAP_MS > nowMs) {
    const wait = Math.ceil((Date.parse(last) + RESEND_GAP_MS - nowMs) / 1000);
    throw new AppError('rate_limited', `A code was sent less than a minute ago; ask for another in ${wait} seconds.`, undefined, { 'Retry-After': String(wait) });
  }
  if (sent.length >= RESEND_PER_HOUR) {
    const wait = Math.ceil((Date.parse(sent[RESEND_PER_HOUR - 1]!.at) + 3_600_000 - nowMs) / 1000);
    throw new AppError('rate_limited', `${RESEND_PER_HOUR} codes were sent in the last hour; ask for another in ${Math.ceil(wait / 60)} minutes.`, undefined, { 'Retry-After': String(wait) });
  }
  const code = newCheckCode();
  const now = isoNow(deps.clock);
  const expiresAt = new Date(nowMs + CODE_TTL_MS).toISOString();
  const to = destinationOf(pass, check);
  await deps.transact(async (trx) => {
    await countAddressRequest(trx, p, client, nowMs);
    const account = await findAccount(trx, p.accountId);
    await storeCheckCode(trx, p, check.recipient_id, { hash: checkCodeHash(deps.links, check.recipient_id, code), purpose, expiresAt, now });
    const message = composeCheckCode({ channel: to.channel, accountName: account?.name ?? 'Formsign', formName: pass.link.form.name ?? 'a document', code, minutes: CODE_TTL_MS / 60_000, purpose });
    const r = { id: check.recipient_id, channel: to.channel, email: to.channel === 'email' ? to.to : null, phone: to.channel === 'sms' ? to.to : null };
    await queueMessage(trx, p, pass.link.form.id, r, 'auth_code', message, now);
    await logCheck(trx, p, { id: newId('check'), formId: pass.link.form.id, recipientId: check.recipient_id, kind: 'code_sent', purpose, method: check.method, destination: masked(to), ip: client.ip, at: now });
  });
  return { method: check.method, purpose, destination: masked(to), expires_at: expiresAt, resend_at: new Date(nowMs + RESEND_GAP_MS).toISOString() };
}

/**
 * The per-address limit on asking for codes (issue 38 item 7): this request counted in its window, in
 * the unit that sends the code; past the limit the unit is undone (the count with it) and refused.
 */
async function countAddressRequest(trx: Trx, p: Partition, client: Client, nowMs: number): Promise<void> {
  if (client.ip === null) return;
  const start = codeWindowStart(nowMs);
  const count = await countCodeRequest(trx, p, client.ip, start);
  if (count <= IP_MAX_CODE_REQUESTS) return;
  const wait = Math.max(1, Math.ceil((Date.parse(start) + IP_CODE_WINDOW_MS - nowMs) / 1000));
  throw new AppError('rate_limited', `Too many codes were asked for from this address; try again in ${Math.ceil(wait / 60)} minutes.`, undefined, { 'Retry-After': String(wait) });
}

/** The per-address limit: too many wrong codes from this client address on the account's links (the database counts, so every server sees them). */
async function refuseBusyAddress(deps: Deps, pass: GatePass, client: Client, nowMs: number): Promise<void> {
  if (client.ip === null) return;
  const failures = await failuresFromIpSince(deps.db, pass.link.partition, client.ip, new Date(nowMs - IP_WINDOW_MS).toISOString());
  if (failures.length < IP_MAX_FAILURES) return;
  const wait = Math.max(1, Math.ceil((Date.parse(failures[failures.length - IP_MAX_FAILURES]!) + IP_WINDOW_MS - nowMs) / 1000));
  throw new AppError('rate_limited', `Too many wrong codes from this address; try again in ${Math.ceil(wait / 60)} minutes.`, undefined, { 'Retry-After': String(wait) });
}

export interface CheckPassed {
  purpose: CheckPurpose;
  /** A new session's cookie value, for the reply to set; undefined when the browser had a session. */
  cookie: string | undefined;
}

/**
 * `POST /sign/<token>/auth/verify`: compares the code in constant time. Right: the code is used up, the
 * tries start again, and this browser's session passes. Wrong: one more try counted; the fifth locks
 * the link for 15 minutes. A code past its 10 minutes is wrong.
 */
export async function verifyCheck(deps: Deps, pass: GatePass, rawCode: unknown, client: Client): Promise<CheckPassed> {
  const check = checkOf(pass);
  if (typeof rawCode !== 'string' || rawCode.length === 0 || rawCode.length > 64) throw new AppError('parameter_invalid', 'code must be the code you were given.', 'code');
  const nowMs = deps.clock.now().getTime();
  refuseLocked(check, nowMs);
  const p = pass.link.partition;
  await refuseBusyAddress(deps, pass, client, nowMs);
  let right: boolean;
  let purpose: CheckPurpose;
  if (check.method === 'access_code') {
    purpose = purposeOf(pass, check);
    right = check.access_code_hash !== null && (await verifyPassword(rawCode, check.access_code_hash));
  } else {
    purpose = check.code_purpose ?? purposeOf(pass, check);
    const given = checkCodeHash(deps.links, check.recipient_id, cleanCode(rawCode));
    const live = check.code_hash !== null && check.code_expires_at !== null && Date.parse(check.code_expires_at) > nowMs;
    // Compared even when no code is live, so the answer's timing says nothing of the stored state.
    right = sameHash(given, check.code_hash ?? given.replace(/./g, '0')) && live;
  }
  const now = isoNow(deps.clock);
  const base = { formId: pass.link.form.id, recipientId: check.recipient_id, purpose, method: check.method, destination: null, ip: client.ip, at: now };
  const outcome = await deps.transact(async (trx) => {
    if (right) {
      // The code is used once: only the request that clears it passes (a racing twin finds it gone).
      const used = await consumeCheckCode(trx, p, check.recipient_id, check.method === 'access_code' ? null : check.code_hash, now);
      if (used) {
        await logCheck(trx, p, { id: newId('check'), kind: 'verified', ...base });
        // The form's events list says who passed which check (never the code; not a webhook type).
        const form = await findForm(trx, p, pass.link.form.id);
        if (form) await recordFormEvent(trx, p, 'recipient.authenticated', formState(form, await listRecipientsOfForm(trx, p, form.id)), now, { authentication: { recipient_id: check.recipient_id, method: check.method, purpose } });
        const { cookie } = await recordSessionPassed(trx, pass.link, pass.session, purpose, client, now);
        return { passed: true as const, cookie };
      }
    }
    // The lock may have been set by another server since this request read the row.
    const fresh = await findRecipientCheck(trx, p, check.recipient_id);
    if (fresh) refuseLocked(fresh, nowMs);
    const failures = await countCheckFailure(trx, p, check.recipient_id, now);
    await logCheck(trx, p, { id: newId('check'), kind: 'failed', ...base });
    if (failures >= MAX_TRIES) {
      const until = new Date(nowMs + LOCK_MS).toISOString();
      await lockRecipientCheck(trx, p, check.recipient_id, until, now);
      await logCheck(trx, p, { id: newId('check'), kind: 'locked', ...base });
      return { passed: false as const, lockedUntil: until };
    }
    return { passed: false as const, left: MAX_TRIES - failures };
  });
  if (outcome.passed) return { purpose, cookie: outcome.cookie };
  if ('lockedUntil' in outcome) {
    const seconds = Math.ceil(LOCK_MS / 1000);
    throw new AppError('auth_locked', `Too many wrong codes: this link is locked until ${outcome.lockedUntil}. Try again in ${LOCK_MS / 60_000} minutes.`, undefined, { 'Retry-After': String(seconds) });
  }
  // The tries left also as a header, for the page to say in the signer's language.
  throw new AppError('auth_code_invalid', `That code is not right (or has expired). ${outcome.left} ${outcome.left === 1 ? 'try' : 'tries'} left.`, 'code', { 'Auth-Tries-Left': String(outcome.left) });
}
