// At import, every template is filled once in the worker with a value in every field. A PDF whose
// fill fails, or costs more than a fraction of a fill job's CPU limit, is refused there and then, so a
// template that imports can always be filled later (a 100,000-object file once imported in a second
// and then stalled every fill for twenty).
import { PdfRejectedError, type FieldDef, type FieldValue } from '../field.js';
import type { PdfRenderer } from '../fill/index.js';
import type { DetectedTemplate } from '../inspect/index.js';
import { threadCpuMs } from './thread-cpu.js';

const TOO_COSTLY = 'This PDF takes too long to fill: Formsign could not write values into it within its processing limit. '
  + 'It may be malformed or unusually complex; please upload a simpler copy (for example one saved again with "Print to PDF" and its form fields recreated).';
const UNFILLABLE = 'This PDF cannot be filled: writing values into its form fields failed. Please export it again from the application that made it and upload the new copy.';

/** A value for every field, as a typical submission would give: short text, boxes checked, first options. */
export function trialValues(fields: readonly FieldDef[]): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  fields.forEach((f, i) => {
    if (f.type === 'checkbox') values[f.name] = true;
    else if (f.type === 'radio' || f.type === 'select') values[f.name] = f.options?.[0] ?? null;
    else values[f.name] = `Sample value ${i}`.slice(0, f.max_length ?? Infinity);
  });
  return values;
}

/** This thread's CPU time where Linux reports it, else the wall clock (the thread runs nothing else). */
function clock(tid: number | undefined): () => number {
  return () => (tid === undefined ? undefined : threadCpuMs(tid)) ?? performance.now();
}

export async function trialFill(renderer: PdfRenderer, t: DetectedTemplate, budget: { tid: number | undefined; cpuMs: number }): Promise<void> {
  const now = clock(budget.tid);
  const started = now();
  try {
    await renderer.render(t.pdf, t.fields, trialValues(t.fields));
  } catch {
    throw new PdfRejectedError('pdf_invalid', UNFILLABLE);
  }
  if (now() - started > budget.cpuMs) throw new PdfRejectedError('pdf_invalid', TOO_COSTLY);
}
