import { formIdsOfAddress, recordDataSubjectRequest } from '../../db/repositories/data-subjects.js';
import { lockForm } from '../../db/repositories/forms.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import type { DomainDeps } from '../context.js';
import { purgeFinishedForm, purgeRefusal } from '../forms/delete-form.js';
import { formFields, loadForm } from '../forms/read-forms.js';
import { renderCacheKeyOf } from '../forms/render-form-pdf.js';
import { json, type Json } from '../json.js';
import type { PreparedWrite } from '../prepared-write.js';
import { subjectOf, type SubjectInput } from './subject-address.js';

type Deps = Pick<DomainDeps, 'db' | 'clock' | 'templateCache' | 'pdfRenderer' | 'renderCache'>;

export interface ErasureView {
  object: 'data_subject_erasure';
  /** The forms purged to their tombstones (their files go by the `form.purge` job). */
  erased: string[];
  /** The forms kept: on legal hold, or still out for signing (void them, then ask again). */
  refused: Array<{ form_id: string; status: string; code: string; message: string }>;
  created_at: string;
}

/**
 * `POST /data-subjects/erase {email|phone}` (issue 40): every finished form where that address is a
 * recipient is purged as DELETE purges it (tombstone, `form.deleted`, files deleted): the person's
 * name, addresses, IPs and user agents, their messages and signature images go, and with them every
 * other value of the form — a sealed PDF holds every party's data and cannot be edited, so a form is
 * erased whole or not at all. A form on legal hold or still in flight is kept and listed in `refused`
 * with the reason DELETE would give (purgeRefusal). One transaction; the request is recorded
 * (data_subject_requests, the address as its SHA-256 only). The answer never repeats the address.
 */
export async function prepareEraseSubject(deps: Deps, p: Partition, input: SubjectInput, by: string | null): Promise<PreparedWrite<Json<ErasureView>>> {
  const subject = subjectOf(input);
  const formIds = await formIdsOfAddress(deps.db, p, subject.key);
  // Read before the unit (no I/O inside it): where each form's filled document is cached.
  const renderKeys = new Map<string, string>();
  for (const id of formIds) {
    const form = await loadForm(deps, p, id);
    renderKeys.set(id, renderCacheKeyOf(deps, p, form, await formFields(deps, p, form)));
  }
  const now = isoNow(deps.clock);
  return async (trx) => {
    const view: ErasureView = { object: 'data_subject_erasure', erased: [], refused: [], created_at: now };
    for (const id of formIds) {
      const form = await lockForm(trx, p, id, now);
      if (!form || form.status === 'deleted' || form.status === 'draft') continue;
      const refusal = purgeRefusal(form);
      if (refusal) {
        view.refused.push({ form_id: id, status: form.status, code: refusal.code, message: refusal.message });
        continue;
      }
      await purgeFinishedForm(trx, p, form, renderKeys.get(id)!, now);
      view.erased.push(id);
    }
    await recordDataSubjectRequest(trx, p, {
      id: newId('dataSubjectRequest'), kind: 'erase', subject_sha256: subject.sha256, forms: view.erased.length,
      refused: JSON.stringify(view.refused.map((r) => r.form_id)), requested_by: by, created_at: now,
    });
    return json<ErasureView>(JSON.stringify(view));
  };
}
