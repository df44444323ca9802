// POST /api/v1/forms/generate: a description becomes a draft form with its own generated PDF.
//
// How it is stored: a generated form that is not saved as a template is an ordinary form row with
// `template_id: null`, its own field definitions in `forms.fields` and its own PDF at `forms.pdf_key`
// (both columns exist for exactly this: see migration 0002). Everything downstream (reading, filling,
// sending, signing, sealing) already reads a form's fields and PDF from the row, so nothing else
// changes. With `save_as_template`, the PDF is imported through importTemplate (inspected and
// trial-filled in the PDF pool like any upload) and the form is made from it by createForm, so both
// paths emit the same `form.created` event and check prefill the same way.
import { newId } from '../../lib/ids.js';
import type { Partition } from '../../lib/partition.js';
import type { FieldDef, LaidOutForm } from '../../pdf/index.js';
import type { DomainDeps, GenerateServices } from '../context.js';
import { AppError } from '../errors.js';
import { commit, type PreparedWrite } from '../prepared-write.js';
import { prepareCreateForm, prepareDraftForm } from '../forms/create-form.js';
import { checkPrefill } from '../forms/prefill-rules.js';
import type { FormView } from '../forms/present-form.js';
import { json, type Json } from '../json.js';
import { fromPdfError } from '../pdf/pdf-errors.js';
import { parseFieldDefs } from '../templates/field-rules.js';
import { fieldSet } from '../templates/field-set.js';
import { fitSignerRoles } from '../templates/signer-roles.js';
import { importTemplate } from '../templates/import-template.js';
import { generateBuiltin } from './builtin.js';
import { fromModel, MODEL_SCHEMA, modelInstructions } from './model-spec.js';
import { withSignature } from './complete.js';
import {
  LANGUAGE_TAG, LANGUAGES, MAX_FIELDS, MAX_PROMPT, TooManyFieldsError, UnsupportedLanguageError, type GeneratedSpec, type Language, type Signer,
} from './spec.js';

export interface GenerateFormInput {
  prompt: string;
  name?: string | undefined;
  prefill?: Record<string, unknown> | undefined;
  expires_in_days?: number | undefined;
  metadata?: Record<string, string> | undefined;
  save_as_template?: boolean | undefined;
  page_size?: 'letter' | 'a4' | undefined;
  language?: string | undefined;
}

export type Generator = 'builtin' | 'model';

const EXAMPLE = 'Job application: full name, email, phone, date of birth, position (full-time, part-time), start date, '
  + 'cover letter, I confirm the information is true. Applicant signature.';
const REQUIRED_NOTE: Record<Language, string> = { en: '* required', es: '* obligatorio', fr: '* obligatoire', de: '* Pflichtfeld', it: '* obbligatorio', pt: '* obrigatório' };

/** The fields of a description: the model's when one is configured and answers well, else the built-in ones. */
export async function generateSpec(
  services: Pick<GenerateServices, 'model' | 'onModelFailure'>,
  prompt: string,
  language: Language | undefined,
  signal?: AbortSignal,
): Promise<{ spec: GeneratedSpec; generator: Generator }> {
  if (services.model) {
    try {
      const raw = await services.model.complete({
        system: modelInstructions(language), user: prompt, schemaName: 'form_fields', schema: MODEL_SCHEMA, signal,
      });
      const spec = fromModel(raw, prompt, language);
      // A model's answer without a signature is completed, never taken as is.
      if (spec) return { spec: withSignature(spec), generator: 'model' };
      services.onModelFailure?.(new Error('The model answer does not match the form schema.'));
    } catch (err) {
      services.onModelFailure?.(err);
    }
  }
  return { spec: builtinSpec(prompt, language), generator: 'builtin' };
}

/** The built-in generator, its refusals as the contract's errors. */
function builtinSpec(prompt: string, language: Language | undefined): GeneratedSpec {
  try {
    return generateBuiltin(prompt, { language });
  } catch (err) {
    if (err instanceof UnsupportedLanguageError) throw new AppError('language_unsupported', err.message, 'prompt');
    if (err instanceof TooManyFieldsError) {
      throw new AppError('parameter_invalid', `This description asks for ${err.count} fields; a generated form has at most ${MAX_FIELDS}. Split it into several forms.`, 'prompt');
    }
    throw err;
  }
}

/**
 * The built-in generator's language for a BCP 47 tag ("pt-BR" → "pt"). A language it does not read is
 * refused, unless a model is configured: the model reads the description in whatever language it is.
 */
function languageOf(input: string | undefined, modelConfigured: boolean): Language | undefined {
  if (input === undefined) return undefined;
  const primary = input.toLowerCase().split(/[-_]/)[0] ?? '';
  const found = LANGUAGES.find((l) => l === primary);
  if (!found && !modelConfigured) throw new AppError('language_unsupported', new UnsupportedLanguageError(input).message, 'language');
  return found;
}

export type GeneratedForm = { form: Json<FormView & { generator: Generator; signers: Signer[] }>; unmatched: string[]; generator: Generator };

export async function generateForm(deps: DomainDeps, p: Partition, input: GenerateFormInput, signal?: AbortSignal): Promise<GeneratedForm> {
  return commit(deps, prepareGenerateForm(deps, p, input, signal));
}

/**
 * The model call (or the built-in generator), the layout and the stored PDF; the write it prepares is
 * the form (with `save_as_template`, the template is imported in a transaction of its own first).
 */
export async function prepareGenerateForm(deps: DomainDeps, p: Partition, input: GenerateFormInput, signal?: AbortSignal): Promise<PreparedWrite<GeneratedForm>> {
  const prompt = input.prompt.trim();
  if (prompt.length === 0 || [...input.prompt].length > MAX_PROMPT) {
    throw new AppError('parameter_invalid', `prompt must be a description of 1 to ${MAX_PROMPT} characters (not only spaces).`, 'prompt');
  }
  // The schema checks this too; the domain does as well because the tag is written into the PDF.
  if (input.language !== undefined && (input.language.length > 35 || !LANGUAGE_TAG.test(input.language))) {
    throw new AppError('parameter_invalid', 'language must be a BCP 47 language tag such as "en" or "pt-BR".', 'language');
  }
  const language = languageOf(input.language, deps.generate.model !== undefined);
  const { spec, generator } = await generateSpec(deps.generate, prompt, language, signal);
  // The roles as a template keeps them and the answer names them (the layout draws spec.signers as made).
  const roles = fitSignerRoles(spec.signers);
  if (spec.fields.length === 0) {
    throw new AppError('parameter_invalid', `No form fields could be found in this description. Name the fields the form needs, for example: "${EXAMPLE}"`, 'prompt');
  }
  const title = input.name?.trim() || spec.title;
  let laid: LaidOutForm;
  try {
    laid = await deps.generate.layout({
      title, fields: spec.fields, signers: spec.signers, pageSize: input.page_size ?? 'letter',
      language: input.language ?? spec.language, requiredNote: REQUIRED_NOTE[spec.language],
    }, { owner: p.accountId, signal });
  } catch (err) {
    throw fromPdfError(err);
  }

  // The same checks a template's fields get on import. A refusal here is our layout's bug, not the
  // caller's input, so it is a 500 rather than a 400 naming `fields`.
  let defs: FieldDef[];
  try {
    defs = parseFieldDefs(laid.fields, laid.pageCount);
  } catch (err) {
    throw new Error(`The generated layout produced invalid fields: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const fields = fieldSet(JSON.stringify(defs));
  // Every check of the caller's input before the first write (issue 35): with save_as_template a
  // refused prefill used to answer 400 after the template had been saved.
  const { values, unmatched } = checkPrefill(fields, input.prefill ?? {});

  if (input.save_as_template) {
    const template = await importTemplate(deps, p, { pdf: laid.pdf, name: title, fields: laid.fields, signers: roles, signal });
    const write = await prepareCreateForm(deps, p, {
      template_id: template.id, prefill: input.prefill, name: title, expires_in_days: input.expires_in_days, metadata: input.metadata,
    });
    return async (trx) => {
      const made = await write(trx);
      return { form: withGenerator(made.form, generator, roles), unmatched: made.unmatched, generator };
    };
  }

  const id = newId('form');
  const pdfKey = `${p.accountId}/${p.mode}/forms/${id}.pdf`;
  // The file is written before the row: a crash in between leaves an unreferenced file, never a row
  // pointing at nothing (as templates are stored).
  await deps.blobs.put(pdfKey, laid.pdf, 'application/pdf');
  const write = prepareDraftForm(deps, p, {
    id,
    name: title,
    template_id: null,
    template_version: null,
    fields,
    ownFields: true,
    pdf_key: pdfKey,
    values,
    metadata: input.metadata,
    expires_in_days: input.expires_in_days,
  });
  return async (trx) => ({ form: withGenerator(await write(trx), generator, roles), unmatched, generator });
}

/** The form as stored, plus which generator answered and who signs in which slot (for sending). */
function withGenerator(form: Json<FormView>, generator: Generator, signers: readonly Signer[]): Json<FormView & { generator: Generator; signers: Signer[] }> {
  const slots = signers.map((s) => ({ slot: s.slot, role: s.role }));
  return json(`${form.json.slice(0, -1)},"generator":${JSON.stringify(generator)},"signers":${JSON.stringify(slots)}}`);
}
