import { listPurgeBlobs, markPurgeDone, removePurgeBlob } from '../../db/repositories/form-purge.js';
import type { Partition } from '../../lib/partition.js';
import type { JobHandler } from '../../outbox/job.js';
import type { DomainDeps } from '../context.js';

type FileDeps = Pick<DomainDeps, 'db' | 'transact' | 'blobs'>;

/** Where a form's files live besides those its rows name: images a retried signature left, seals that lost a race. */
export function formFilePrefixes(p: Partition, formId: string): { signatures: string; attachments: string; sealed: { folder: string; namePrefix: string } } {
  const base = `${p.accountId}/${p.mode}`;
  // attachments/<form>/: signer-attachments.ts's attachmentFolder (an upload its row never named).
  return { signatures: `${base}/signatures/${formId}/`, attachments: `${base}/attachments/${formId}/`, sealed: { folder: `${base}/signed/`, namePrefix: `${base}/signed/${formId}-` } };
}

/**
 * Deletes the stored files of a purged form (issue 40): each file listed in `purge_blobs`, its row
 * removed once the file is gone, then whatever else the store holds under the form's name (a
 * signature image no row named, a sealed copy whose seal lost a race), and then the tombstone says
 * `done`. Every step is safe to repeat, so a run killed midway is finished by the next one (the
 * `form.purge` job, or the next DELETE). Throws when the file store cannot be reached: the job retries,
 * and a DELETE answers 503 `storage_unavailable`.
 */
export async function purgeFormFiles(deps: FileDeps, p: Partition, formId: string): Promise<void> {
  for (const key of await listPurgeBlobs(deps.db, p, formId)) {
    await deps.blobs.delete(key);
    await deps.transact((trx) => removePurgeBlob(trx, p, formId, key));
  }
  const where = formFilePrefixes(p, formId);
  for (const b of await deps.blobs.list(where.signatures)) await deps.blobs.delete(b.key);
  for (const b of await deps.blobs.list(where.attachments)) await deps.blobs.delete(b.key);
  for (const b of await deps.blobs.list(where.sealed.folder)) if (b.key.startsWith(where.sealed.namePrefix)) await deps.blobs.delete(b.key);
  await deps.transact((trx) => markPurgeDone(trx, p, formId));
}

/** The `form.purge` job: the files of a purged form, retried until the file store lets them go. */
export function formPurgeHandler(deps: FileDeps): JobHandler<{ form_id: string }> {
  return {
    async run(payload, ctx) {
      await purgeFormFiles(deps, ctx.partition, payload.form_id);
    },
  };
}
