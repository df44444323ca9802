// Whether a PDF was changed after its last signature. Bytes after the signed range are allowed only
// when they are long-term-validation data: a DSS (certificates, OCSP responses, CRLs; PAdES B-LT)
// and document timestamps with their fields (B-LTA). The signed revision and the whole file are
// compared object by object; every object the later updates add or change must be one of those, or
// the catalog, AcroForm, a page or the information dictionary changed only to point at them.
import { ParseSpeeds, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFStream, type PDFObject } from '@cantoo/pdf-lib';
import type { FoundSignature } from './signature-fields.js';

const N = (s: string): PDFName => PDFName.of(s);

export async function loadRevision(bytes: Uint8Array): Promise<PDFDocument> {
  return PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, parseSpeed: ParseSpeeds.Fastest, throwOnInvalidObject: false });
}

/**
 * True when `whole` holds more after byte `end` than validation data. `timestamps` are the document
 * timestamps found in `whole` (their dictionaries and fields are allowed).
 */
export async function changedAfter(bytes: Uint8Array, end: number, whole: PDFDocument, timestamps: readonly FoundSignature[]): Promise<boolean> {
  const tail = bytes.subarray(end);
  if (tail.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00)) return false;
  const signed = await loadRevision(bytes.subarray(0, end));
  const changed: PDFRef[] = [];
  for (const [ref, obj] of whole.context.enumerateIndirectObjects()) {
    const before = signed.context.lookup(ref);
    if (before === undefined || !sameObject(before, obj)) changed.push(ref);
  }
  // Bytes that change no object (a comment, an empty update) are still not validation data.
  if (changed.length === 0) return true;
  const allowed = new Set<PDFRef>();
  const dss = whole.catalog.get(N('DSS'));
  if (dss) reachable(whole, dss, allowed);
  const addedHolders = new Set<PDFRef>();
  for (const t of timestamps) {
    const value = t.dict;
    const valueRef = refOf(whole, value);
    if (valueRef) allowed.add(valueRef);
    for (const h of t.holders) {
      allowed.add(h);
      addedHolders.add(h);
      // The widget's appearance (an empty form XObject), not its page or parent.
      const holder = whole.context.lookup(h);
      if (holder instanceof PDFDict) {
        const ap = holder.get(N('AP'));
        if (ap) reachable(whole, ap, allowed);
      }
    }
  }
  for (const ref of changed) {
    if (allowed.has(ref)) continue;
    const now = whole.context.lookup(ref);
    const before = signed.context.lookup(ref);
    if (now instanceof PDFDict && ['XRef', 'ObjStm'].includes(now.lookupMaybe(N('Type'), PDFName)?.decodeText() ?? '')) continue;
    if (!(now instanceof PDFDict) || !(before instanceof PDFDict)) return true;
    if (!onlyPointsAtAllowed(whole, signed, before, now, addedHolders)) return true;
  }
  return false;
}

/**
 * A dictionary changed only as validation updates change it: the catalog gaining /DSS or a changed
 * /AcroForm, the AcroForm's /Fields and a page's /Annots gaining timestamp widgets, /SigFlags, and
 * the information dictionary's /ModDate and /Producer.
 */
function onlyPointsAtAllowed(whole: PDFDocument, signed: PDFDocument, before: PDFDict, now: PDFDict, added: ReadonlySet<PDFRef>): boolean {
  const keys = new Set([...before.keys(), ...now.keys()].map((k) => k.decodeText()));
  for (const key of keys) {
    const a = before.get(N(key));
    const b = now.get(N(key));
    if (a && b && sameObject(a, b)) continue;
    if (key === 'DSS' || key === 'ModDate' || key === 'Producer' || key === 'SigFlags') continue;
    if (key === 'AcroForm' && a && b) {
      const fa = resolve(signed, a);
      const fb = resolve(whole, b);
      if (fa instanceof PDFDict && fb instanceof PDFDict && onlyPointsAtAllowed(whole, signed, fa, fb, added)) continue;
      return false;
    }
    if ((key === 'Fields' || key === 'Annots') && b) {
      const was = a ? resolve(signed, a) : undefined;
      const is = resolve(whole, b);
      if (is instanceof PDFArray && (was === undefined || was instanceof PDFArray) && onlyAppended(was, is, added)) continue;
    }
    return false;
  }
  return true;
}

function onlyAppended(was: PDFArray | undefined, is: PDFArray, added: ReadonlySet<PDFRef>): boolean {
  const before = was ? was.asArray().map((x) => x.toString()) : [];
  const after = is.asArray();
  if (after.length < before.length) return false;
  for (let i = 0; i < before.length; i++) if (after[i]!.toString() !== before[i]) return false;
  return after.slice(before.length).every((x) => x instanceof PDFRef && added.has(x));
}

function resolve(doc: PDFDocument, obj: PDFObject): PDFObject | undefined {
  return obj instanceof PDFRef ? doc.context.lookup(obj) : obj;
}

function refOf(doc: PDFDocument, dict: PDFDict): PDFRef | undefined {
  return doc.context.getObjectRef(dict);
}

/** Every indirect object reachable from `start` (iteratively, each once). */
function reachable(doc: PDFDocument, start: PDFObject, into: Set<PDFRef>): void {
  const stack: PDFObject[] = [start];
  const seen = new Set<PDFObject>();
  while (stack.length > 0) {
    const obj = stack.pop()!;
    if (seen.has(obj)) continue;
    seen.add(obj);
    if (obj instanceof PDFRef) {
      into.add(obj);
      const target = doc.context.lookup(obj);
      if (target) stack.push(target);
    } else if (obj instanceof PDFDict) {
      for (const [, v] of obj.entries()) stack.push(v);
    } else if (obj instanceof PDFArray) {
      stack.push(...obj.asArray());
    } else if (obj instanceof PDFStream) {
      stack.push(obj.dict);
    }
  }
}

function sameObject(a: PDFObject, b: PDFObject): boolean {
  if (a instanceof PDFRawStream && b instanceof PDFRawStream) {
    return a.dict.toString() === b.dict.toString() && Buffer.from(a.contents).equals(Buffer.from(b.contents));
  }
  if (a instanceof PDFStream || b instanceof PDFStream) return false;
  return a.toString() === b.toString();
}
