import { findAccount } from '../../db/repositories/accounts.js';
import { findAccountNotify } from '../../db/repositories/notify-settings.js';
import { listRecipientsOfForm } from '../../db/repositories/recipients.js';
import type { RecipientRow } from '../../db/tables.js';
import type { FieldDef, FieldValue } from '../../pdf/field.js';
import type { DomainDeps } from '../context.js';
import { formFields } from '../forms/read-forms.js';
import { displayName } from '../sending/display-name.js';
import { loadBrandLook, type BrandLook } from '../branding/brand-look.js';
import { stillWaitingFor } from '../sending/recipient-roles.js';
import type { SigningLink } from './resolve-link.js';
import { needsOwnSignature } from './signing-rules.js';
import { viewForm, type Client } from './view-form.js';
import { pendingAttachments, type AttachmentView } from './attachments/signer-attachments.js';

/** A field as the signing page shows it: this signer's fields editable, the others' read-only. */
export interface PageField extends Omit<FieldDef, 'signer'> {
  mine: boolean;
  /** Text-like and choice values; image fields show only whether they are signed. */
  value: FieldValue;
  signed?: boolean;
  /** This signer's attachment field: the files attached so far (issue 41); its value is their names. */
  files?: AttachmentView[];
}

export interface SigningPage {
  state: SigningLink['state'];
  formName: string;
  senderName: string;
  /** The name given at send, or the address (display-name.ts). */
  recipientName: string;
  /** The name given at send, '' when none (a signature is prefilled with it, never with an address). */
  recipientGivenName: string;
  expiresAt: string | null;
  signedAt: string | null;
  /** The form is sealed: the signed copy can be downloaded. */
  sealed: boolean;
  /** Recipients who have not signed yet (others than this one). */
  waitingFor: number;
  fields: PageField[];
  /** This recipient signs on a page the seal adds, so the page asks for one signature of its own. */
  ownSignature: boolean;
  /** The recipient's language as given at send (BCP 47), and the account's default: the page's language. */
  recipientLocale: string | null;
  accountLocale: string | null;
  /**
   * Where a signer can write to the sender: the account's notify_email (the expired page says whom to
   * ask; the open page's Help, issue 43); null: the sender's name alone.
   */
  contactEmail: string | null;
  /** When the recipient's draft on the server was last saved (drafts/signing-draft.ts withDraft); null: none. */
  draftSavedAt: string | null;
  /** A declined form: who declined (name or address) and when. */
  declined: { by: string; at: string } | null;
  /** A voided form: when the sender withdrew it. */
  voidedAt: string | null;
  /** What this recipient does (issue 42): a non-signer's page has no fields. */
  role: RecipientRow['role'];
  /** The sender's own words to this recipient (issue 42), plain text; null when none. */
  message: string | null;
  /** The account's brand (issue 42): the page's logo, accent and the sender's name. */
  brand: BrandLook;
  /** What this recipient's signature means (issue 38: "Approved"), shown before signing; null when none. */
  meaning: string | null;
}

const IMAGE_TYPES: ReadonlySet<FieldDef['type']> = new Set(['signature', 'initials']);

/**
 * What the signing page shows for an opened link; a first open of an open link records the view
 * (view-form.ts) before the page is built, so the page never shows a state older than its own view.
 */
export async function openSigningPage(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'templateCache' | 'links' | 'baseUrl'>, link: SigningLink, client: Client): Promise<SigningPage> {
  await viewForm(deps, link, client);
  const { partition: p, form, recipient } = link;
  const [fields, account, recipients, notify] = await Promise.all([
    formFields(deps, p, form),
    findAccount(deps.db, p.accountId),
    listRecipientsOfForm(deps.db, p, form.id),
    // The address its notices go to is the one a signer can write to (it is also the Reply-To).
    link.state === 'expired' || link.state === 'open' ? findAccountNotify(deps.db, p.accountId) : undefined,
  ]);
  const values = JSON.parse(form.values) as Record<string, FieldValue>;
  const brand = await loadBrandLook(deps.db, deps.baseUrl, p.accountId, account?.name ?? 'The sender');
  const attached = fields.defs.some((f) => f.type === 'attachment' && f.signer === recipient.signer) ? await pendingAttachments(deps, link) : new Map<string, AttachmentView[]>();
  return {
    brand,
    state: link.state,
    formName: form.name ?? 'Document',
    senderName: brand.name,
    recipientName: displayName(recipient),
    recipientGivenName: recipient.name ?? '',
    meaning: recipient.meaning ?? null,
    expiresAt: form.expires_at,
    signedAt: recipient.signed_at ?? recipient.approved_at,
    role: recipient.role,
    message: recipient.message,
    sealed: form.status === 'signed',
    waitingFor: stillWaitingFor(recipients, recipient.id),
    fields: fields.defs.map(({ signer, ...f }) => {
      const value = values[f.name] ?? null;
      const mine = signer === recipient.signer;
      if (IMAGE_TYPES.has(f.type)) return { ...f, mine, value: null, signed: value !== null };
      if (f.type === 'attachment' && mine && link.state === 'open') {
        const files = attached.get(f.name) ?? [];
        return { ...f, mine, value: files.length > 0 ? files.map((x) => x.filename).join(', ') : null, files };
      }
      return { ...f, mine, value };
    }),
    ownSignature: needsOwnSignature(fields.defs, recipient.signer),
    recipientLocale: recipient.locale,
    accountLocale: account?.locale ?? null,
    contactEmail: notify?.notify_email ?? null,
    draftSavedAt: null,
    declined: declinedBy(recipients),
    voidedAt: form.voided_at,
  };
}

function declinedBy(recipients: readonly RecipientRow[]): SigningPage['declined'] {
  const r = recipients.find((x) => x.status === 'declined' && x.declined_at !== null);
  return r ? { by: displayName(r), at: r.declined_at! } : null;
}
