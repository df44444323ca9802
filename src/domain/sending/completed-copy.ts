import { brandLookOf, loadBrandLook } from '../branding/brand-look.js';
import type { Trx } from '../../db/handles.js';
import { findAccount } from '../../db/repositories/accounts.js';
import { insertMessage } from '../../db/repositories/messages.js';
import type { FormRow, RecipientRow, SealedFileRow } from '../../db/tables.js';
import { pickLocale } from '../../lib/i18n/index.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import { enqueue } from '../../outbox/enqueue.js';
import { messageDeliver } from '../../outbox/jobs/message-deliver.job.js';
import type { DomainDeps } from '../context.js';
import { signedPdfFilename } from '../forms/signed-pdf.js';
import { composeCompletedCopy } from './compose-message.js';
import { enqueueSenderNotice, type AccountFacts, type SealedCopy } from './sender-notice.js';

/** How long the download link in a completed copy works (issue #23: 30 days). */
export const COPY_LINK_DAYS = 30;

/**
 * How the sealed PDF travels: attached when it is at most `copies.attachMaxBytes` (10 MB by default;
 * mail servers refuse larger messages), and always with a presigned download address that works for
 * 30 days (the SMS copy's link; the e-mail's when the file is too large to attach).
 */
export function sealedCopy(deps: Pick<DomainDeps, 'fileLinks' | 'baseUrl' | 'copies'>, p: Partition, file: Pick<SealedFileRow, 'form_id' | 'blob_key' | 'size'>, now: string): SealedCopy {
  const expires = Math.floor(Date.parse(now) / 1000) + COPY_LINK_DAYS * 86_400;
  const url = `${deps.baseUrl}/api/v1/files/pdf/${deps.fileLinks.sign({ formId: file.form_id, partition: p, expiresAt: expires })}`;
  const attached = file.size <= deps.copies.attachMaxBytes;
  return {
    attachment: attached ? { key: file.blob_key, name: signedPdfFilename(file.form_id) } : null,
    delivery: { attached, url, urlExpiresAt: new Date(expires * 1000).toISOString() },
  };
}

/**
 * The messages a completed form causes, written in the transaction that records its seal (so each is
 * sent exactly once, however often the seal job runs or is killed): the signed copy to every recipient
 * on their channel — unless the send said `notify: {completed_copy: false}` — and the completed
 * notice to the account's notify_email. Each message names the sealed file, which its job reads from
 * the store when it sends.
 */
export async function enqueueCompletedMessages(
  trx: Trx,
  deps: Pick<DomainDeps, 'fileLinks' | 'baseUrl' | 'copies'>,
  p: Partition,
  form: Pick<FormRow, 'id' | 'name' | 'completed_copy'>,
  recipients: readonly RecipientRow[],
  file: Pick<SealedFileRow, 'form_id' | 'blob_key' | 'size'>,
  now: string,
  /** The account's rows, when the caller has read them already; else read here. */
  known?: AccountFacts,
): Promise<void> {
  const copy = sealedCopy(deps, p, file, now);
  if (form.completed_copy !== 0) {
    const account = known ? known.account : await findAccount(trx, p.accountId);
    const brand = known ? brandLookOf(deps.baseUrl, known.branding, account?.name ?? 'Formsign') : await loadBrandLook(trx, deps.baseUrl, p.accountId, account?.name ?? 'Formsign');
    for (const r of recipients) {
      const to = r.channel === 'email' ? r.email : r.phone;
      if (!to) continue;
      const composed = composeCompletedCopy({ brand, channel: r.channel, to, recipientName: r.name, formName: form.name ?? 'a document', accountName: account?.name ?? 'Formsign', copy: copy.delivery, locale: pickLocale([r.locale, account?.locale]) });
      const attachment = r.channel === 'email' ? copy.attachment : null;
      const messageId = newId('message');
      await insertMessage(trx, p, {
        id: messageId, kind: 'completed_copy', form_id: form.id, recipient_id: r.id, channel: r.channel, to_address: to,
        subject: composed.subject ?? null, text: composed.text, html: composed.html ?? null,
        attachment_key: attachment?.key ?? null, attachment_name: attachment?.name ?? null, created_at: now,
      });
      await enqueue(trx, p, messageDeliver, { message_id: messageId }, { now });
    }
  }
  await enqueueSenderNotice(trx, { partition: p, now, known }, form, { kind: 'completed', copy, signers: recipients });
}
