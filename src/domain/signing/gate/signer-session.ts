import { randomBytes } from 'node:crypto';
import { findSignerSession, insertSignerSession, markSignerSessionVerified, touchSignerSession } from '../../../db/repositories/signer-sessions.js';
import type { Trx } from '../../../db/handles.js';
import type { CheckPurpose, SignerSessionRow } from '../../../db/tables.js';
import { isoNow } from '../../../lib/clock.js';
import { sha256Hex } from '../../../lib/crypto.js';
import type { DomainDeps } from '../../context.js';
import type { SigningLink } from '../resolve-link.js';
import type { Client } from '../view-form.js';
import { SESSION_IDLE_MS } from './check-rules.js';

// A signer session: one browser on one signing link. The browser holds a random value in an HttpOnly,
// SameSite=Strict cookie scoped to the link's path; the server stores its SHA-256 with what the session
// has passed. It is written when there is something to remember (a check passed), and ends after an
// hour without a request, or at once when the recipient's link is replaced.

/** Its last use is written at most this often (a page load makes several requests). */
const TOUCH_EVERY_MS = 60_000;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** The session a request's cookie names on this link, while alive; undefined otherwise. */
export async function findLiveSession(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock'>, link: SigningLink, cookie: string | undefined): Promise<SignerSessionRow | undefined> {
  if (cookie === undefined || !COOKIE_VALUE.test(cookie)) return undefined;
  const row = await findSignerSession(deps.db, sha256Hex(cookie));
  // A cookie of another link (or another recipient, after a reassignment) is no session here.
  if (!row || row.recipient_id !== link.recipient.id || row.account_id !== link.partition.accountId || row.mode !== link.partition.mode) return undefined;
  const now = deps.clock.now().getTime();
  if (Date.parse(row.last_seen_at) + SESSION_IDLE_MS <= now) return undefined;
  if (Date.parse(row.last_seen_at) + TOUCH_EVERY_MS <= now) {
    const at = isoNow(deps.clock);
    await deps.transact((trx) => touchSignerSession(trx, row.id_hash, at));
    return { ...row, last_seen_at: at };
  }
  return row;
}

/**
 * Records that this browser passed a check, in the caller's unit: on its live session, or on a new one
 * whose cookie value is returned for the reply to set.
 */
export async function recordSessionPassed(
  trx: Trx,
  link: SigningLink,
  session: SignerSessionRow | undefined,
  purpose: CheckPurpose,
  client: Client,
  now: string,
): Promise<{ cookie: string | undefined }> {
  if (session) {
    await markSignerSessionVerified(trx, link.partition, session.id_hash, purpose, now);
    return { cookie: undefined };
  }
  const cookie = randomBytes(32).toString('base64url');
  await insertSignerSession(trx, {
    id_hash: sha256Hex(cookie), account_id: link.partition.accountId, mode: link.partition.mode, form_id: link.form.id, recipient_id: link.recipient.id,
    ip: client.ip, user_agent: client.userAgent, created_at: now, last_seen_at: now,
    verified_at: purpose === 'open' ? now : null, sign_verified_at: purpose === 'sign' ? now : null,
  });
  return { cookie };
}
