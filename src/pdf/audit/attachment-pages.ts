// The files signers attached (issue 41), appended after the document inside the seal, so the seal
// covers them: a PDF's pages copied in (without their annotations: no form fields, links or actions
// come along from a file a signer chose), an image on a page of its own under a header naming it.
// A file that cannot be drawn (an image the checks at upload let through that the embedder refuses)
// gets a page saying so with its SHA-256: a bad attachment never stops the seal.
import { ParseSpeeds, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import type { Locale } from '../../lib/i18n/index.js';
import type { DocumentFonts } from '../fill/index.js';
import { header } from './audit-page.js';
import { fitCentred } from './fit.js';
import { COLOURS, PageWriter } from './page-writer.js';

export interface AttachedFile {
  filename: string;
  contentType: string;
  sha256: string;
  size: number;
  bytes: Uint8Array;
}

/** Where an attached file's pages are in the sealed document (1-based), for the audit trail. */
export interface PlacedAttachment {
  filename: string;
  contentType: string;
  sha256: string;
  size: number;
  firstPage: number;
  lastPage: number;
}

export async function appendAttachments(doc: PDFDocument, fonts: DocumentFonts, files: readonly AttachedFile[], locale: Locale): Promise<PlacedAttachment[]> {
  const placed: PlacedAttachment[] = [];
  for (const [i, file] of files.entries()) {
    const firstPage = doc.getPageCount() + 1;
    const { bytes, ...facts } = file;
    try {
      if (file.contentType === 'application/pdf') await appendPdf(doc, bytes);
      else await appendImage(doc, fonts, file, i + 1, files.length, locale);
    } catch {
      // Whatever was added of it stays; a page says the file itself could not be shown.
      await appendUnreadable(doc, fonts, file, i + 1, files.length, locale);
    }
    placed.push({ ...facts, firstPage, lastPage: doc.getPageCount() });
  }
  return placed;
}

async function appendPdf(doc: PDFDocument, bytes: Uint8Array): Promise<void> {
  const source = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const pages = await doc.copyPages(source, source.getPageIndices());
  for (const page of pages) {
    page.node.delete(PDFName.of('Annots'));
    doc.addPage(page);
  }
}

/** The header's title; a long file name shortened to fit the band (the audit trail gives it whole). */
const titleOf = (w: PageWriter, index: number, count: number, name: string): string => {
  const chars = [...name];
  return w.t('audit.attachmentTitle', { index, count, name: chars.length > 40 ? `${chars.slice(0, 39).join('')}…` : name });
};

async function appendImage(doc: PDFDocument, fonts: DocumentFonts, file: AttachedFile, index: number, count: number, locale: Locale): Promise<void> {
  // Embedded first: an image the embedder refuses adds no half-made page.
  const image = file.contentType === 'image/png' ? await doc.embedPng(file.bytes) : await doc.embedJpg(file.bytes);
  const w = await PageWriter.create(doc, fonts, locale, (pw) => header(pw, titleOf(pw, index, count, file.filename), `SHA-256 ${file.sha256}`));
  const box = { x: w.margin, y: w.margin, width: w.contentWidth, height: w.y - w.margin };
  w.image(image, fitCentred(image, box, 0));
}

async function appendUnreadable(doc: PDFDocument, fonts: DocumentFonts, file: AttachedFile, index: number, count: number, locale: Locale): Promise<void> {
  const w = await PageWriter.create(doc, fonts, locale, (pw) => header(pw, titleOf(pw, index, count, file.filename), `SHA-256 ${file.sha256}`));
  w.draw(await w.block(w.t('audit.attachmentUnreadable'), w.contentWidth, 10, 'regular'), w.margin, COLOURS.ink);
}
