import { insertForm } from '../../db/repositories/forms.js';
import { findTemplate } from '../../db/repositories/templates.js';
import type { FormRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import type { FieldDef } from '../../pdf/field.js';
import type { DomainDeps } from '../context.js';
import { notFound } from '../errors.js';
import { recordFormEvent } from '../events/record-event.js';
import { checkPrefill } from './prefill-rules.js';
import { presentForm, type FormView } from './present-form.js';

export interface CreateFormInput {
  template_id: string;
  prefill?: Record<string, unknown> | undefined;
  name?: string | undefined;
  expires_in_days?: number | undefined;
  metadata?: Record<string, string> | undefined;
}

/**
 * Creates a draft form. No PDF work happens here: the filled document is rendered lazily on first read,
 * which keeps this hot path to one read and one transaction.
 */
export async function createForm(deps: Pick<DomainDeps, 'db' | 'clock'>, p: Partition, input: CreateFormInput): Promise<{ form: FormView; unmatched: string[] }> {
  const template = await findTemplate(deps.db, p, input.template_id);
  if (!template) throw notFound('template', input.template_id, 'template_id');
  const fields = JSON.parse(template.fields) as FieldDef[];
  const { values, unmatched } = checkPrefill(fields, input.prefill ?? {});
  const now = isoNow(deps.clock);
  const row: FormRow = {
    id: newId('form'),
    account_id: p.accountId,
    mode: p.mode,
    status: 'draft',
    name: input.name ?? template.name,
    template_id: template.id,
    fields: template.fields,
    values: JSON.stringify(values),
    metadata: JSON.stringify(input.metadata ?? {}),
    pdf_key: template.pdf_key,
    expires_in_days: input.expires_in_days ?? 30,
    created_at: now,
    updated_at: now,
    sent_at: null,
    completed_at: null,
    expires_at: null,
  };
  const form = presentForm(row);
  await deps.db.transaction().execute(async (trx) => {
    const { account_id: _a, mode: _m, ...rest } = row;
    await insertForm(trx, p, rest);
    await recordFormEvent(trx, p, 'form.created', form, now);
  });
  return { form, unmatched };
}
