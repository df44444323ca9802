// What each object of one revision is: a page, its content, its resources (fonts, images), its
// annotations, the page tree, form fields, the catalog's AcroForm and Metadata, and the structure of
// the Document Security Store. The difference analysis asks this to judge a changed object and to
// name the page it touches. Walked iteratively with visited sets and bounds: a hostile file may nest
// deep or in circles.
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import type { DssKind } from './revocation-data.js';
import type { Revision } from './xref-reader.js';

const N = (s: string): PDFName => PDFName.of(s);
const MAX_NODES = 200_000;
// Resources are walked this far per document (fonts, their descriptors and files, images, forms).
const MAX_RESOURCE_OBJECTS = 50_000;

export type DssRole = { kind: 'structure' } | { kind: 'stream'; of: DssKind };

export interface FieldInfo {
  /** The field type, inherited from a parent when the field does not say. */
  ft: string | undefined;
  /** Top-level field (listed in /Fields) it belongs to. */
  top: number;
}

export class DocumentRoles {
  readonly root: number | undefined;
  readonly acroForm: number | undefined;
  readonly fieldsArray: number | undefined;
  readonly metadata: number | undefined;
  /** Page object → page number (1-based). */
  readonly pages = new Map<number, number>();
  readonly pageTree = new Set<number>();
  readonly contents = new Map<number, number>();
  readonly resources = new Map<number, number>();
  readonly annotsArrays = new Map<number, number>();
  readonly annots = new Map<number, number>();
  readonly fields = new Map<number, FieldInfo>();
  /** Top-level fields, in /Fields order. */
  readonly topFields: number[] = [];
  readonly dss = new Map<number, DssRole>();

  constructor(readonly rev: Revision) {
    const rootRef = rev.rootRef();
    this.root = rootRef?.objectNumber;
    const catalog = rev.dict(rootRef);
    if (!catalog) return;
    this.acroForm = refNumber(catalog.get(N('AcroForm')));
    this.metadata = refNumber(catalog.get(N('Metadata')));
    this.walkPages(catalog.get(N('Pages')));
    const acroForm = rev.dict(catalog.get(N('AcroForm')));
    this.fieldsArray = refNumber(acroForm?.get(N('Fields')));
    this.walkFields(acroForm?.get(N('Fields')));
    this.walkDss(catalog.get(N('DSS')));
  }

  /** The page an object belongs to, when it is a page or something of one. */
  pageOf(n: number): number | undefined {
    return this.pages.get(n) ?? this.contents.get(n) ?? this.annots.get(n) ?? this.annotsArrays.get(n) ?? this.resources.get(n);
  }

  private walkPages(start: PDFObject | undefined): void {
    const stack: PDFObject[] = start ? [start] : [];
    const seen = new Set<number>();
    let count = 0;
    let resourceBudget = MAX_RESOURCE_OBJECTS;
    // Depth first, kids in order: page numbers in reading order.
    while (stack.length > 0 && count++ < MAX_NODES) {
      const obj = stack.pop()!;
      const n = refNumber(obj);
      if (n !== undefined) {
        if (seen.has(n)) continue;
        seen.add(n);
      }
      const node = this.rev.dict(obj);
      if (!node) continue;
      const kids = this.rev.array(node.get(N('Kids')));
      const type = node.get(N('Type'))?.toString();
      if (kids || type === '/Pages') {
        if (n !== undefined) this.pageTree.add(n);
        const kidsRef = refNumber(node.get(N('Kids')));
        if (kidsRef !== undefined) this.pageTree.add(kidsRef);
        if (kids) for (let i = kids.size() - 1; i >= 0; i--) stack.push(kids.get(i));
        continue;
      }
      const page = this.pages.size + 1;
      if (n !== undefined) this.pages.set(n, page);
      const contents = node.get(N('Contents'));
      const cn = refNumber(contents);
      if (cn !== undefined) this.contents.set(cn, page);
      const list = this.rev.array(contents);
      if (list) for (const c of list.asArray()) this.mark(this.contents, c, page);
      resourceBudget = this.walkResources(node.get(N('Resources')), page, resourceBudget);
      const annots = node.get(N('Annots'));
      const an = refNumber(annots);
      if (an !== undefined) this.annotsArrays.set(an, page);
      const annotList = this.rev.array(annots);
      if (annotList) for (const a of annotList.asArray()) this.mark(this.annots, a, page);
    }
  }

  /** Every object reachable from a page's resources is its resources (fonts, images, forms…). */
  private walkResources(start: PDFObject | undefined, page: number, budget: number): number {
    const stack: PDFObject[] = start ? [start] : [];
    while (stack.length > 0 && budget > 0) {
      const obj = stack.pop()!;
      if (obj instanceof PDFRef) {
        if (this.resources.has(obj.objectNumber) || this.pages.has(obj.objectNumber) || this.pageTree.has(obj.objectNumber)) continue;
        this.resources.set(obj.objectNumber, page);
        budget--;
        const target = this.rev.get(obj.objectNumber);
        if (target) stack.push(target);
      } else if (obj instanceof PDFDict) {
        for (const [k, v] of obj.entries()) if (k.decodeText() !== 'Parent' && k.decodeText() !== 'P') stack.push(v);
      } else if (obj instanceof PDFArray) {
        stack.push(...obj.asArray());
      } else if (obj instanceof PDFRawStream) {
        stack.push(obj.dict);
      }
    }
    return budget;
  }

  private walkFields(start: PDFObject | undefined): void {
    const top = this.rev.array(start);
    if (!top) return;
    type Node = { obj: PDFObject; ft: string | undefined; top: number | undefined };
    const stack: Node[] = [];
    for (let i = top.size() - 1; i >= 0; i--) stack.push({ obj: top.get(i), ft: undefined, top: undefined });
    let count = 0;
    while (stack.length > 0 && count++ < MAX_NODES) {
      const node = stack.pop()!;
      const n = refNumber(node.obj);
      if (n === undefined || this.fields.has(n)) continue;
      const dict = this.rev.dict(node.obj);
      if (!dict) continue;
      const ft = (dict.get(N('FT')) instanceof PDFName ? dict.get(N('FT'))!.toString().slice(1) : undefined) ?? node.ft;
      const topField = node.top ?? n;
      if (node.top === undefined) this.topFields.push(n);
      this.fields.set(n, { ft, top: topField });
      const kids = this.rev.array(dict.get(N('Kids')));
      if (kids) for (let i = kids.size() - 1; i >= 0; i--) stack.push({ obj: kids.get(i), ft, top: topField });
    }
  }

  private walkDss(start: PDFObject | undefined): void {
    const structure = (obj: PDFObject | undefined): void => {
      const n = refNumber(obj);
      if (n !== undefined) this.dss.set(n, { kind: 'structure' });
    };
    const streams = (obj: PDFObject | undefined, of: DssKind): void => {
      structure(obj);
      const list = this.rev.array(obj);
      if (list) for (const s of list.asArray()) this.markDss(s, of);
    };
    structure(start);
    const dss = this.rev.dict(start);
    if (!dss) return;
    streams(dss.get(N('Certs')), 'certificate');
    streams(dss.get(N('OCSPs')), 'ocsp');
    streams(dss.get(N('CRLs')), 'crl');
    const vri = dss.get(N('VRI'));
    structure(vri);
    const vriDict = this.rev.dict(vri);
    if (!vriDict) return;
    for (const [, entry] of vriDict.entries()) {
      structure(entry);
      const e = this.rev.dict(entry);
      if (!e) continue;
      streams(e.get(N('Cert')), 'certificate');
      streams(e.get(N('OCSP')), 'ocsp');
      streams(e.get(N('CRL')), 'crl');
      const ts = e.get(N('TS'));
      if (ts) this.markDss(ts, 'timestamp');
    }
  }

  private markDss(obj: PDFObject, of: DssKind): void {
    const n = refNumber(obj);
    // A stream listed as two kinds is judged as the first; a non-stream fails its parse anyway.
    if (n !== undefined && !this.dss.has(n)) this.dss.set(n, { kind: 'stream', of });
  }

  private mark(map: Map<number, number>, obj: PDFObject, page: number): void {
    const n = refNumber(obj);
    if (n !== undefined && !map.has(n)) map.set(n, page);
  }
}

export function refNumber(obj: PDFObject | undefined): number | undefined {
  return obj instanceof PDFRef ? obj.objectNumber : undefined;
}

export function numberOf(obj: PDFObject | undefined): number | undefined {
  return obj instanceof PDFNumber ? obj.asNumber() : undefined;
}
