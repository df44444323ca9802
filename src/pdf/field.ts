// The shape of one form field, shared by PDF detection/rendering and the domain. It mirrors the
// contract's Field object (CONTRACT.md Part B, "Templates"): PDF points, origin top-left of the page.
export const FIELD_TYPES = [
  'text', 'number', 'date', 'email', 'phone', 'checkbox', 'radio', 'select',
  'signature', 'initials', 'date_signed', 'attachment',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldDef {
  name: string;
  type: FieldType;
  label?: string;
  required: boolean;
  /** 1-based signer slot. */
  signer: number;
  /** 1-based page number. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Export values a radio/select field accepts. */
  options?: string[];
  multiline?: boolean;
  max_length?: number;
  /** A note under the label: when the field applies ("If applicable"), how to fill it. */
  description?: string;
  /** Shown (and its `required` applied) only while this holds (issue 41; field-logic.js evaluates it). */
  condition?: FieldCondition;
  /** A number field computed from others, read-only for the signer (field-logic.js's grammar). */
  formula?: string;
  /** An `attachment` field: the file types the signer may attach (issue 41; all three when not given). */
  accept?: AttachmentType[];
  /** An `attachment` field: how many files the signer may attach (1–10; 1 when not given). */
  max_files?: number;
}

/** The files a signer may attach (issue 41), known by their content, never by their name. */
export const ATTACHMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];
/** The largest file a signer may attach (10 MiB). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** The most files one attachment field takes. */
export const MAX_ATTACHMENT_FILES = 10;

/** An attachment field's accepted types and file count, with the defaults filled in. */
export function attachmentRules(def: Pick<FieldDef, 'accept' | 'max_files'>): { accept: readonly AttachmentType[]; maxFiles: number } {
  return { accept: def.accept && def.accept.length > 0 ? def.accept : ATTACHMENT_TYPES, maxFiles: def.max_files ?? 1 };
}

/** When a field is shown: a test on another field's value, or all/any of several. */
export type FieldCondition =
  | { field: string; equals: string | number | boolean }
  | { field: string; one_of: (string | number)[] }
  | { field: string; not_empty: true }
  | { all: FieldCondition[] }
  | { any: FieldCondition[] };

/** A typed value for a field: strings for text-like fields and choices, boolean for checkbox. */
export type FieldValue = string | number | boolean | null;

/** Why an uploaded PDF is refused; the domain maps each code to the contract's 400 error. */
export type PdfRejectionCode = 'pdf_invalid' | 'pdf_encrypted' | 'pdf_already_signed' | 'pdf_too_complex';

export class PdfRejectedError extends Error {
  constructor(readonly code: PdfRejectionCode, message: string) {
    super(message);
    this.name = 'PdfRejectedError';
  }
}
