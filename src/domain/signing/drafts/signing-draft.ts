import { findAccount } from '../../../db/repositories/accounts.js';
import { linkUrlOf } from '../../../lib/signing-links.js';
import { findSigningDraft, putSigningDraft } from '../../../db/repositories/signing-drafts.js';
import { isoNow } from '../../../lib/clock.js';
import { pickLocale } from '../../../lib/i18n/index.js';
import type { FieldDef, FieldValue } from '../../../pdf/field.js';
import type { DomainDeps } from '../../context.js';
import { AppError } from '../../errors.js';
import { formFields } from '../../forms/read-forms.js';
import { checkFieldValue, fieldWords } from '../../forms/value-rules.js';
import { refuseClosedLink } from '../../lifecycle/closed-links.js';
import { addressOf, queueMessage } from '../../lifecycle/message-recipient.js';
import { composeMessage } from '../../sending/compose-message.js';
import type { PageField, SigningPage } from '../signing-page.js';
import type { SigningLink } from '../resolve-link.js';
import { lockOpenLink } from '../lock-open-link.js';

// Progress on the server (issue 43 item 5): `PUT /sign/<token>/draft` keeps the values a recipient
// has typed in their own fields so far, checked by the rules a signature is checked by, and the page
// of their link shows them again on any device (after the signer check: the page and this route both
// pass the signer gate). Signature and initials images are NOT kept: a signature is given at Finish,
// with the consent, and an image stays in the browser that drew it (the page's sessionStorage).
// "Finish later" (`send_link: true`) saves and sends the signing link again, at most once per
// LINK_RESEND_GAP_MS. The draft is deleted with the state change that ends the recipient's signing.

/** The largest draft body the route accepts (bytes). */
export const DRAFT_BODY_LIMIT = 256 * 1024;
/** Saves per recipient per minute (the page saves at most one every two seconds while typing). */
export const DRAFT_SAVES_PER_MINUTE = 60;
/** "Finish later" sends the link again at most this often. */
export const LINK_RESEND_GAP_MS = 10 * 60_000;

const NOT_KEPT: ReadonlySet<FieldDef['type']> = new Set(['signature', 'initials', 'date_signed']);

export type DraftValues = Record<string, FieldValue>;

/**
 * The draft's values: only this signer's own fields, each null (empty) or a value the value rules
 * accept; a signature, initials or date-of-signing field is refused (not kept in a draft).
 */
export function checkDraftValues(defs: readonly FieldDef[], signer: number, raw: unknown): DraftValues {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new AppError('parameter_invalid', 'values must be an object of field names to values.', 'values');
  const byName = new Map(defs.map((f) => [f.name, f]));
  const out: DraftValues = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const param = `values.${name}`;
    const field = byName.get(name);
    if (!field) throw new AppError('parameter_unknown', `Received unknown field '${param}': this document has no such field.`, param);
    if (field.signer !== signer) throw new AppError('parameter_invalid', `${param} belongs to another signer; you can fill only your own fields.`, param);
    if (NOT_KEPT.has(field.type)) throw new AppError('parameter_invalid', `${param} is a ${field.type.replace('_', ' ')} field: it is given when you finish, never kept in a draft.`, param);
    if (value === null) {
      out[name] = null;
      continue;
    }
    const checked = checkFieldValue(field, value);
    if (!checked.ok) throw new AppError('parameter_invalid', `${fieldWords(field)} ${checked.problem}`, param);
    out[name] = checked.value;
  }
  return out;
}

export interface DraftSaved {
  saved_at: string;
  /** `send_link` asked: whether the link went out now (false: it went out less than LINK_RESEND_GAP_MS ago). */
  link_sent?: boolean;
  /** When the link was last sent (now, or the earlier send that throttled this one). */
  link_sent_at?: string;
  /** Seconds until the link can be sent again, when it was not sent now. */
  link_retry_after?: number;
}

type Deps = Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links'>;

/** `PUT /sign/<token>/draft` `{values, send_link?}`: replaces the recipient's draft (and sends the link again when asked). */
export async function saveDraft(deps: Deps, link: SigningLink, input: { values: unknown; sendLink: unknown }): Promise<DraftSaved> {
  refuseClosedLink(link);
  if (input.sendLink !== undefined && typeof input.sendLink !== 'boolean') throw new AppError('parameter_invalid', 'send_link must be true or false.', 'send_link');
  const { partition: p, form, recipient } = link;
  const fields = await formFields(deps, p, form);
  const values = checkDraftValues(fields.defs, recipient.signer, input.values);
  const now = isoNow(deps.clock);
  const nowMs = Date.parse(now);
  const minute = now.slice(0, 16);
  return deps.transact(async (trx) => {
    // The form's row first: a save racing a signature, decline or void is deleted with it or refused, never a draft left over.
    const { locked, recipient: r } = await lockOpenLink(trx, link, now);
    const existing = await findSigningDraft(trx, p, recipient.id);
    const count = existing && existing.window_start === minute ? existing.window_count : 0;
    if (count >= DRAFT_SAVES_PER_MINUTE) {
      const wait = Math.max(1, Math.ceil((Date.parse(`${minute}:00.000Z`) + 60_000 - nowMs) / 1000));
      throw new AppError('rate_limited', `Your progress is saved at most ${DRAFT_SAVES_PER_MINUTE} times a minute; try again in ${wait} seconds.`, undefined, { 'Retry-After': String(wait) });
    }
    let linkSentAt = existing?.link_sent_at ?? null;
    const out: DraftSaved = { saved_at: now };
    if (input.sendLink === true) {
      const nextAt = linkSentAt === null ? 0 : Date.parse(linkSentAt) + LINK_RESEND_GAP_MS;
      if (nextAt > nowMs) {
        Object.assign(out, { link_sent: false, link_sent_at: linkSentAt, link_retry_after: Math.ceil((nextAt - nowMs) / 1000) });
      } else {
        const account = await findAccount(trx, p.accountId);
        // The invitation again, in the recipient's language, with the same link (kind `resume_link`).
        const message = composeMessage({
          channel: r.channel, to: addressOf(r), recipientName: r.name, formName: locked.name ?? 'a document', accountName: account?.name ?? 'Formsign',
          signingUrl: linkUrlOf(deps.links, r), expiresAt: locked.expires_at, locale: pickLocale([r.locale, account?.locale]),
        });
        await queueMessage(trx, p, form.id, r, 'resume_link', message, now);
        linkSentAt = now;
        Object.assign(out, { link_sent: true, link_sent_at: now });
      }
    }
    await putSigningDraft(trx, p, { recipient_id: recipient.id, form_id: form.id, values: JSON.stringify(values), window_start: minute, window_count: count + 1, link_sent_at: linkSentAt, updated_at: now });
    return out;
  });
}

/** A saved draft: its values and when they were saved. */
export interface SavedDraft { values: DraftValues; savedAt: string }

/** The recipient's draft, for the page of an open link (undefined: none). */
export async function draftValuesOf(deps: Pick<DomainDeps, 'db'>, link: SigningLink): Promise<SavedDraft | undefined> {
  if (link.state !== 'open') return undefined;
  const row = await findSigningDraft(deps.db, link.partition, link.recipient.id);
  return row ? { values: JSON.parse(row.values) as DraftValues, savedAt: row.updated_at } : undefined;
}

/**
 * The page with the draft's values in this signer's fields (a value the draft names replaces the
 * sender's prefill), and when it was saved: a tab's own copy older than that gives way (sign.ts).
 */
export function withDraft(page: SigningPage, saved: SavedDraft | undefined): SigningPage {
  if (!saved) return page;
  const draft = saved.values;
  const fields = page.fields.map((f): PageField => (f.mine && !NOT_KEPT.has(f.type) && Object.hasOwn(draft, f.name) ? { ...f, value: draft[f.name] ?? null } : f));
  return { ...page, fields, draftSavedAt: saved.savedAt };
}
