import type { FieldDef, FieldValue } from '../../pdf/field.js';
import { AppError } from '../errors.js';
import { applyFieldLogic } from '../forms/field-logic.js';
import { checkFieldValue, fieldWords, missingProblem } from '../forms/value-rules.js';
import { parseSignatureImage, type SignatureImage } from './signature-image.js';

// Pure: what one recipient may submit on the signing page, checked by the rule prefill uses (per type and
// the 10,000-character limit) with errors in the field's label words, plus the
// signing-stage fields only a signer fills. The submitted set may name only this signer's fields.

export type ImageKind = 'signature' | 'initials';

export interface SubmittedImage extends SignatureImage {
  /** The field the image fills; null for the signature of a recipient with no field (an added signature page). */
  fieldName: string | null;
  kind: ImageKind;
}

export interface CheckedSubmission {
  /** Values to merge into the form's values: this signer's fields only, `date_signed` included. */
  values: Record<string, FieldValue>;
  images: SubmittedImage[];
}

/** The key under which a recipient without a signature field of their own submits their signature. */
export const OWN_SIGNATURE_KEY = '_signature';

const IMAGE_TYPES: ReadonlySet<FieldDef['type']> = new Set(['signature', 'initials']);

/** The fields a recipient in signer slot `signer` fills. */
export function fieldsOfSigner(defs: readonly FieldDef[], signer: number): FieldDef[] {
  return defs.filter((f) => f.signer === signer);
}

/**
 * True when the slot has no signature field: its recipient signs on a page the seal adds (a recipient
 * beyond the template's signer count), so the page asks for one signature of its own.
 */
export function needsOwnSignature(defs: readonly FieldDef[], signer: number): boolean {
  return !defs.some((f) => f.signer === signer && f.type === 'signature');
}

/** The value stored in `forms.values` for a signed image field: the image, named by its SHA-256. */
export function imageValue(image: SignatureImage): string {
  return `sha256:${image.sha256}`;
}

function isFilled(field: FieldDef, value: FieldValue | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (field.type === 'checkbox') return value === true;
  return typeof value !== 'string' || value.trim() !== '';
}

/**
 * Checks a submission `{ <field name>: value }` for signer slot `signer`, given the form's fields and
 * current values (a required field prefilled by the sender need not be submitted again). `signedOn`
 * (YYYY-MM-DD) fills the slot's `date_signed` fields; `attached` holds, by attachment field, the ids
 * (comma-separated) of the files the signer uploaded into it. Throws the contract's 400 errors, naming
 * `values.<field>`.
 */
export function checkSubmission(
  defs: readonly FieldDef[],
  signer: number,
  submitted: Record<string, unknown>,
  current: Readonly<Record<string, FieldValue>>,
  signedOn: string,
  attached: Readonly<Record<string, string>> = {},
): CheckedSubmission {
  const byName = new Map(defs.map((f) => [f.name, f]));
  const own = needsOwnSignature(defs, signer);
  const values: Record<string, FieldValue> = {};
  const images: SubmittedImage[] = [];
  for (const [name, raw] of Object.entries(submitted)) {
    const param = `values.${name}`;
    if (own && name === OWN_SIGNATURE_KEY) {
      images.push({ ...parseSignatureImage(raw, param, 'signature'), fieldName: null, kind: 'signature' });
      continue;
    }
    const field = byName.get(name);
    if (!field) throw new AppError('parameter_unknown', `Received unknown field '${param}': this document has no such field.`, param);
    if (field.signer !== signer) throw new AppError('parameter_invalid', `${param} belongs to another signer; you can fill only your own fields.`, param);
    if (field.type === 'date_signed') throw new AppError('parameter_invalid', `${param} is filled with the date of signing; leave it out.`, param);
    if (field.formula) throw new AppError('parameter_invalid', `${param} is computed from other fields (its formula); leave it out.`, param);
    if (IMAGE_TYPES.has(field.type)) {
      if (raw === null) continue;
      const image = parseSignatureImage(raw, param, field.type);
      images.push({ ...image, fieldName: name, kind: field.type as ImageKind });
      values[name] = imageValue(image);
      continue;
    }
    if (field.type === 'attachment') {
      // The page sends what it shows (the files' names); the files are those uploaded (issue 41).
      if (raw !== null && typeof raw !== 'string') throw new AppError('parameter_invalid', `${param} is an attachment field: attach its files on the page.`, param);
      continue;
    }
    values[name] = checkSingle(field, raw, param);
  }
  // An attachment field's value is the ids of the files this signer uploaded into it, whatever was sent.
  for (const field of fieldsOfSigner(defs, signer)) {
    if (field.type === 'attachment') values[field.name] = attached[field.name] ?? null;
  }
  // Conditions as the server computes them (issue 41): a hidden field is not required and its value,
  // if one was submitted, is dropped; the page runs the same evaluator, so an honest page never sends one.
  const applied = applyFieldLogic(defs, { ...current, ...values });
  const hidden = applied.hidden;
  for (const name of hidden) {
    if (!Object.hasOwn(values, name)) continue;
    values[name] = null;
    const at = images.findIndex((i) => i.fieldName === name);
    if (at >= 0) images.splice(at, 1);
  }
  for (const field of fieldsOfSigner(defs, signer)) {
    if (hidden.has(field.name)) continue;
    if (field.type === 'date_signed') {
      values[field.name] = signedOn;
      continue;
    }
    if (!field.required) continue;
    const value = field.formula ? applied.values[field.name] : Object.hasOwn(values, field.name) ? values[field.name] : current[field.name];
    const image = IMAGE_TYPES.has(field.type) && !Object.hasOwn(values, field.name);
    if (image || !isFilled(field, value)) throw new AppError('parameter_missing', `${fieldWords(field)} ${missingProblem(field)}`, `values.${field.name}`);
  }
  if (own && !images.some((i) => i.fieldName === null)) throw new AppError('parameter_missing', 'Your signature is required: draw or type it.', `values.${OWN_SIGNATURE_KEY}`);
  return { values, images };
}

/**
 * The shared rule (value-rules.js, which the signing page runs first), its 400 in the signer's words:
 * "Monthly rent must be a number.", naming `values.<field>` as the parameter.
 */
function checkSingle(field: FieldDef, raw: unknown, param: string): FieldValue {
  const checked = checkFieldValue(field, raw);
  if (!checked.ok) throw new AppError('parameter_invalid', `${fieldWords(field)} ${checked.problem}`, param);
  return checked.value;
}
