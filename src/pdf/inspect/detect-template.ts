// Reads an uploaded PDF into a template: page count, fields, warnings, and the bytes to store.
// Runs inside the inspector's worker thread; everything it refuses is a PdfRejectedError.
import { EncryptedPDFError, ParseSpeeds, PDFDocument } from '@cantoo/pdf-lib';
import { DecodedStreamTooLargeError, decodeGuardTrips } from '../shared/decode-guard.js';
import { textFitsBudget } from './text-budget.js';
import { detectFields } from './detect-fields.js';
import { labelFromNearbyText } from './nearby-text.js';
import { coverTextTags } from './cover-tags.js';
import { refineLabels } from './label-rules.js';
import { PdfRejectedError, type FieldDef } from '../field.js';
import { danglingReferences } from './pdf-integrity.js';
import { describeRemoved, removeActiveContent } from '../shared/active-content.js';
import { dropStaleStructures } from '../shared/pdf-cleanup.js';
import { checkDocumentLimits, checkFormLimits } from './limits.js';
import { alreadySignedReason } from './signature-state.js';
import { pageSizesOfDocument, type PageSize } from '../shared/page-sizes.js';

export interface DetectedTemplate {
  pageCount: number;
  /** Each page's size as displayed (issue 43: the signing page reserves the boxes before the PDF arrives). */
  pageSizes: PageSize[];
  fields: FieldDef[];
  warnings: string[];
  /** The bytes to store: the upload itself, or its decrypted copy when it had an empty user password. */
  pdf: Uint8Array;
  /** Signer roles named by text tags (`role=Tenant`), by slot; empty without tags. */
  roles: Array<{ slot: number; role: string }>;
}

const NOT_A_PDF = 'This file is not a PDF document. Please upload a PDF.';
const DAMAGED = 'This PDF is damaged or incomplete and cannot be read. Please export or download it again and upload the new copy.';
const PASSWORD = 'This PDF is protected with a password. Please remove the password (for example by saving an unprotected copy) and upload it again.';
const BOMB = 'This PDF contains compressed data that expands far beyond a normal document, so Formsign will not read it.';
const XFA_WARNING = 'This PDF also contains an XFA form (Adobe LiveCycle). Formsign imported the standard AcroForm fields; '
  + 'the XFA part is removed from filled copies, so check that every field you need is listed.';
// Acrobat accepts %%EOF anywhere in the last 1024 bytes; lacking it, the file was cut short.
const TAIL_WINDOW = 1024;

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

function checkEnvelope(bytes: Uint8Array): void {
  if (!latin1(bytes.subarray(0, 1024)).includes('%PDF-')) throw new PdfRejectedError('pdf_invalid', NOT_A_PDF);
  if (!latin1(bytes.subarray(Math.max(0, bytes.length - TAIL_WINDOW))).includes('%%EOF')) {
    throw new PdfRejectedError('pdf_invalid', DAMAGED);
  }
}

const LOAD = { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false, preserveXFA: true } as const;

async function open(bytes: Uint8Array): Promise<{ doc: PDFDocument; decrypted: boolean }> {
  try {
    return { doc: await PDFDocument.load(bytes, LOAD), decrypted: false };
  } catch (err) {
    if (!(err instanceof EncryptedPDFError)) throw err;
  }
  // Many PDFs are encrypted only to carry permission flags, with an empty user password that
  // every viewer opens silently; pdf-lib decrypts those (RC4 and AES) given password ''.
  try {
    return { doc: await PDFDocument.load(bytes, { ...LOAD, password: '' }), decrypted: true };
  } catch {
    throw new PdfRejectedError('pdf_encrypted', PASSWORD);
  }
}

export async function detectTemplate(bytes: Uint8Array): Promise<DetectedTemplate> {
  checkEnvelope(bytes);
  const tripsBefore = decodeGuardTrips();
  try {
    const { doc, decrypted } = await open(bytes);
    if (decodeGuardTrips() > tripsBefore) throw new PdfRejectedError('pdf_invalid', BOMB);
    checkDocumentLimits(doc);
    const pageCount = doc.getPageCount();
    if (pageCount === 0 || danglingReferences(doc) > 0) throw new PdfRejectedError('pdf_invalid', DAMAGED);
    const form = doc.getForm();
    checkFormLimits(form);
    const signed = alreadySignedReason(doc, form);
    if (signed) {
      throw new PdfRejectedError('pdf_already_signed', `${signed}. Filling it would break that signature: please upload the unsigned original.`);
    }
    const { fields, warnings } = detectFields(doc, form);
    if (form.hasXFA()) warnings.unshift(XFA_WARNING);
    const removed = describeRemoved(removeActiveContent(doc));
    if (removed) warnings.push(removed);
    // Text tags (issue 41): fields where the document says `{{name;type=…}}`, the tags covered.
    const tagged = await coverTextTags(doc, bytes, fields);
    fields.push(...tagged.fields);
    warnings.push(...tagged.warnings);
    let pdf = bytes;
    if (decrypted || removed || tagged.covered) {
      dropStaleStructures(doc, decrypted);
      pdf = await doc.save({ updateFieldAppearances: false });
    }
    // pdf.js reads the pages' text only when what it would decode fits a budget (text-budget.ts).
    const unlabelledPages = new Set(fields.filter((f) => f.label === undefined).map((f) => f.page));
    if (unlabelledPages.size > 0 && textFitsBudget(doc, unlabelledPages)) await labelFromNearbyText(pdf, fields);
    refineLabels(fields);
    return { pageCount, pageSizes: pageSizesOfDocument(doc), fields, warnings, pdf, roles: tagged.roles };
  } catch (err) {
    if (err instanceof PdfRejectedError) throw err;
    throw new PdfRejectedError('pdf_invalid', err instanceof DecodedStreamTooLargeError ? BOMB : DAMAGED);
  }
}
