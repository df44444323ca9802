// Whether two PDF objects are the same by value, not by how they were written: strings compared as
// their decoded bytes (a literal and a hex string, or two escapings, of the same bytes are equal),
// names decoded, numbers by value, dictionaries regardless of key order, references by number, and
// streams by dictionary and decoded content (another tool may recompress). Direct objects only are
// walked: a reference is equal to the same reference, and what it points at is judged on its own.
import { decodePDFRawStream, PDFArray, PDFBool, PDFDict, PDFHexString, PDFName, PDFNull, PDFNumber, PDFRawStream, PDFRef, PDFString, type PDFObject } from '@cantoo/pdf-lib';

const MAX_DEPTH = 64;
// A stream's own encoding is not its value.
const ENCODING_KEYS = new Set(['Length', 'Filter', 'DecodeParms', 'DL']);

export function sameValue(a: PDFObject | undefined, b: PDFObject | undefined, depth = 0): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || depth > MAX_DEPTH) return false;
  if (a instanceof PDFRef || b instanceof PDFRef) return a instanceof PDFRef && b instanceof PDFRef && a.objectNumber === b.objectNumber && a.generationNumber === b.generationNumber;
  if (isString(a) || isString(b)) return isString(a) && isString(b) && Buffer.from(a.asBytes()).equals(Buffer.from(b.asBytes()));
  if (a instanceof PDFName || b instanceof PDFName) return a instanceof PDFName && b instanceof PDFName && a.decodeText() === b.decodeText();
  if (a instanceof PDFNumber || b instanceof PDFNumber) return a instanceof PDFNumber && b instanceof PDFNumber && a.asNumber() === b.asNumber();
  if (a instanceof PDFBool || b instanceof PDFBool) return a instanceof PDFBool && b instanceof PDFBool && a.asBoolean() === b.asBoolean();
  if (a === PDFNull || b === PDFNull) return a === b;
  if (a instanceof PDFArray || b instanceof PDFArray) {
    if (!(a instanceof PDFArray && b instanceof PDFArray) || a.size() !== b.size()) return false;
    for (let i = 0; i < a.size(); i++) if (!sameValue(a.get(i), b.get(i), depth + 1)) return false;
    return true;
  }
  if (a instanceof PDFRawStream || b instanceof PDFRawStream) {
    if (!(a instanceof PDFRawStream && b instanceof PDFRawStream)) return false;
    if (sameDict(a.dict, b.dict, depth) && Buffer.from(a.contents).equals(Buffer.from(b.contents))) return true;
    if (!sameDict(a.dict, b.dict, depth, ENCODING_KEYS)) return false;
    const da = decoded(a);
    const db = decoded(b);
    return da !== undefined && db !== undefined && da.equals(db);
  }
  if (a instanceof PDFDict || b instanceof PDFDict) return a instanceof PDFDict && b instanceof PDFDict && sameDict(a, b, depth);
  return a.toString() === b.toString();
}

/** The keys whose values differ (by value), `ignore` left out. */
export function changedKeys(a: PDFDict, b: PDFDict, ignore: ReadonlySet<string> = new Set()): string[] {
  // PDFName objects are interned: the same name is the same object in both dictionaries.
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => !ignore.has(k.decodeText()) && !sameValue(a.get(k), b.get(k))).map((k) => k.decodeText());
}

function sameDict(a: PDFDict, b: PDFDict, depth: number, ignore: ReadonlySet<string> = new Set()): boolean {
  const keys = new Set([...a.keys(), ...b.keys()]);
  for (const k of keys) {
    if (ignore.has(k.decodeText())) continue;
    if (!sameValue(a.get(k), b.get(k), depth + 1)) return false;
  }
  return true;
}

function isString(x: PDFObject): x is PDFString | PDFHexString {
  return x instanceof PDFString || x instanceof PDFHexString;
}

export function decoded(stream: PDFRawStream): Buffer | undefined {
  try {
    return Buffer.from(decodePDFRawStream(stream).decode());
  } catch {
    return undefined;
  }
}
