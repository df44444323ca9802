// Difference analysis (ARCHITECTURE.md "Verification is difference analysis", in the spirit of
// pyHanko's diff_analysis): every revision after a signature is compared, object by object and by
// value, with the revision the signature covers. Only what a document-security update or a document
// timestamp adds is accepted — a /DSS whose new streams parse as certificates, OCSP responses, CRLs
// and timestamp tokens, the catalog's /DSS and /AcroForm keys, a new signature field with its
// widget appended to /Fields and /Annots — and /Info or XMP changes are reported without counting
// as content. Everything else is a change, named with its object and the page it touches, and the
// worst one sets the signature's modification level.
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import { DocumentRoles, numberOf, refNumber } from './document-roles.js';
import { parsesAs } from './revocation-data.js';
import { changedKeys, decoded, sameValue } from './same-value.js';
import { lastStartXref, Revision, type PdfFile, type XrefEntry, type XrefSection } from './xref-reader.js';

export type ModificationLevel = 'none' | 'ltv_updates' | 'form_filling' | 'annotations' | 'other';

export type ChangeKind =
  | 'validation_data' | 'document_timestamp' | 'metadata'
  | 'signature_added' | 'field_value'
  | 'annotation_added'
  | 'annotation_changed' | 'field_added' | 'page_content' | 'page_resources' | 'page' | 'pages' | 'catalog' | 'form' | 'cross_reference' | 'object';

export interface Change {
  /** The changed object ("12 0 R"), or "trailer" for the trailer's own entries. */
  object: string;
  /** The page (1-based) the object is, or belongs to, when it is one of a page's. */
  page?: number;
  kind: ChangeKind;
}

export interface DiffResult {
  level: ModificationLevel;
  changes: Change[];
}

const LEVELS: readonly ModificationLevel[] = ['none', 'ltv_updates', 'form_filling', 'annotations', 'other'];
const LEVEL_OF: Readonly<Record<ChangeKind, ModificationLevel>> = {
  metadata: 'none',
  validation_data: 'ltv_updates',
  document_timestamp: 'ltv_updates',
  signature_added: 'form_filling',
  field_value: 'form_filling',
  annotation_added: 'annotations',
  annotation_changed: 'other',
  field_added: 'other',
  page_content: 'other',
  page_resources: 'other',
  page: 'other',
  pages: 'other',
  catalog: 'other',
  form: 'other',
  cross_reference: 'other',
  object: 'other',
};

export function levelOf(changes: readonly Change[]): ModificationLevel {
  let worst = 0;
  for (const c of changes) worst = Math.max(worst, LEVELS.indexOf(LEVEL_OF[c.kind]));
  return LEVELS[worst]!;
}

/** Whether a level is only what validation updates make (a verdict of "intact since signed"). */
export function unchangedContent(level: ModificationLevel): boolean {
  return level === 'none' || level === 'ltv_updates';
}

const N = (s: string): PDFName => PDFName.of(s);
const WHITESPACE = new Set([0x20, 0x0a, 0x0d, 0x09, 0x0c, 0x00]);
// Catalog keys a validation update writes (ISO 32000-2's extension and version, the DSS), and the
// form and metadata judged on their own.
const CATALOG_VALIDATION_KEYS = new Set(['DSS']);
const CATALOG_METADATA_KEYS = new Set(['Metadata', 'Extensions', 'Version']);
const DSS_KEYS = new Set(['Type', 'Certs', 'OCSPs', 'CRLs', 'VRI']);
const FIELD_VALUE_KEYS = new Set(['V', 'AS', 'AP', 'MK']);

/** The revisions of `file` after byte `end` (where a signature's coverage ends), each judged against the signed one. */
export function analyseAfter(file: PdfFile, finalChain: readonly XrefSection[], end: number): DiffResult {
  const bytes = file.bytes;
  let tailIsBlank = true;
  for (let i = end; i < bytes.length && tailIsBlank; i++) tailIsBlank = WHITESPACE.has(bytes[i]!);
  if (tailIsBlank) return { level: 'none', changes: [] };
  let signedChain: XrefSection[];
  try {
    signedChain = file.chain(lastStartXref(bytes.subarray(0, end)));
  } catch {
    return result([{ object: 'trailer', kind: 'cross_reference' }]);
  }
  // The chain now must be the signed one with sections appended after it, nothing rewritten.
  const updates = finalChain.slice(0, finalChain.length - signedChain.length);
  const kept = finalChain.slice(finalChain.length - signedChain.length);
  const history = kept.length === signedChain.length && kept.every((s, i) => s.at === signedChain[i]!.at) && updates.every((s) => s.at >= end);
  if (!history) return result([{ object: 'trailer', kind: 'cross_reference' }]);
  // Bytes after the signature that no cross-reference section names change nothing a reader shows,
  // but they are not a validation update either.
  if (updates.length === 0) return result([{ object: 'trailer', kind: 'cross_reference' }]);
  const signed = new Revision(file, signedChain);
  const signedRoles = new DocumentRoles(signed);
  const changes: Change[] = [];
  for (let k = updates.length - 1; k >= 0; k--) {
    const revision = new Revision(file, [...updates.slice(k), ...signedChain]);
    changes.push(...new RevisionDiff(signed, signedRoles, revision).run());
  }
  return result(changes);
}

function result(changes: Change[]): DiffResult {
  const unique = [...new Map(changes.map((c) => [`${c.object} ${c.kind}`, c])).values()];
  // The worst first (a reader looks at the top of the list), then in the order found.
  const rank = (c: Change): number => LEVELS.indexOf(LEVEL_OF[c.kind]);
  const sorted = unique.map((c, i) => ({ c, i })).sort((a, b) => rank(b.c) - rank(a.c) || a.i - b.i).map((x) => x.c);
  return { level: levelOf(sorted), changes: sorted };
}

function sameEntry(a: XrefEntry | undefined, b: XrefEntry | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === 'offset' && b.kind === 'offset') return a.offset === b.offset;
  if (a.kind === 'compressed' && b.kind === 'compressed') return a.stream === b.stream && a.index === b.index;
  return a.kind === 'free';
}

function isStructural(obj: PDFObject | undefined): boolean {
  if (!(obj instanceof PDFRawStream)) return false;
  const type = obj.dict.get(N('Type'))?.toString();
  return type === '/XRef' || type === '/ObjStm';
}

const name = (n: number): string => `${n} 0 R`;

/** One revision against the signed one. */
class RevisionDiff {
  private readonly roles: DocumentRoles;
  private readonly changes: Change[] = [];
  /** Top-level fields of this revision that the signed one does not have, with their widgets and values. */
  private readonly newSignatureParts = new Set<number>();
  private readonly newSignatureFields = new Map<number, ChangeKind[]>();

  constructor(private readonly signed: Revision, private readonly signedRoles: DocumentRoles, private readonly rev: Revision) {
    this.roles = new DocumentRoles(rev);
  }

  run(): Change[] {
    const S = this.signed;
    const K = this.rev;
    if (this.roles.root === undefined || this.roles.root !== this.signedRoles.root) this.add('trailer', 'catalog');
    if (!sameValue(S.trailer.get(N('Encrypt')), K.trailer.get(N('Encrypt')))) this.add('trailer', 'cross_reference');
    const infoRef = refNumber(K.trailer.get(N('Info')));
    if (!sameValue(S.resolve(S.trailer.get(N('Info'))), K.resolve(K.trailer.get(N('Info'))))) this.add(infoRef === undefined ? 'trailer' : name(infoRef), 'metadata');
    this.findNewSignatureFields();
    const numbers = new Set([...S.entries.keys(), ...K.entries.keys()]);
    for (const n of numbers) {
      const e = K.entries.get(n);
      const before = S.entries.get(n);
      const moved = !sameEntry(before, e) || (e?.kind === 'compressed' && !sameEntry(S.entries.get(e.stream), K.entries.get(e.stream)));
      if (!moved || K.xrefStreams.has(n) || n === infoRef) continue;
      const a = S.get(n);
      const b = K.get(n);
      if (isStructural(b) && (a === undefined || isStructural(a))) continue;
      if (a !== undefined && sameValue(a, b)) continue;
      this.classify(n, a, b);
    }
    return this.changes;
  }

  private add(object: string, kind: ChangeKind, page?: number): void {
    this.changes.push({ object, ...(page === undefined ? {} : { page }), kind });
  }

  /** A rewritten object of the signed revision, named for what it was there. */
  private rewritten(n: number): void {
    const r = this.signedRoles;
    const page = r.pageOf(n) ?? this.roles.pageOf(n);
    let kind: ChangeKind = 'object';
    if (r.pages.has(n)) kind = 'page';
    else if (r.contents.has(n)) kind = 'page_content';
    else if (r.resources.has(n)) kind = 'page_resources';
    else if (r.annots.has(n) || r.annotsArrays.has(n)) kind = 'annotation_changed';
    else if (r.pageTree.has(n)) kind = 'pages';
    else if (r.fields.has(n) || n === r.acroForm || n === r.fieldsArray) kind = 'form';
    else if (n === r.root) kind = 'catalog';
    this.add(name(n), kind, page);
  }

  private classify(n: number, a: PDFObject | undefined, b: PDFObject | undefined): void {
    const roles = this.roles;
    const existed = a !== undefined;
    if (b === undefined) return this.rewritten(n);
    const dss = roles.dss.get(n);
    if (dss) {
      if (existed && !(dss.kind === 'structure' && this.signedRoles.dss.get(n)?.kind === 'structure')) return this.rewritten(n);
      if (dss.kind === 'stream') {
        const data = b instanceof PDFRawStream ? decoded(b) : undefined;
        return this.add(name(n), data && parsesAs(dss.of, data) ? 'validation_data' : 'object');
      }
      if (n === refNumber(this.rev.dict(this.rev.rootRef())?.get(N('DSS'))) && b instanceof PDFDict && b.keys().some((k) => !DSS_KEYS.has(k.decodeText()))) return this.add(name(n), 'object');
      return this.add(name(n), 'validation_data');
    }
    if (n === roles.root) return existed ? this.catalog(n, a, b) : this.add(name(n), 'catalog');
    if (n === roles.metadata) return this.add(name(n), 'metadata');
    if (n === roles.acroForm) return existed ? this.acroForm(name(n), a, b) : this.add(name(n), 'form');
    if (n === roles.fieldsArray) return existed ? this.fieldsList(name(n), this.signed.array(a), this.rev.array(b)) : this.add(name(n), 'form');
    if (roles.pages.has(n) && existed) return this.page(n, a, b);
    if (roles.annotsArrays.has(n) && existed) return this.annotsList(name(n), this.signed.array(a), this.rev.array(b), roles.annotsArrays.get(n)!);
    if (this.newSignatureParts.has(n)) return existed ? this.rewritten(n) : undefined;
    if (existed && roles.fields.has(n) && this.signedRoles.fields.has(n)) return this.field(n, a, b);
    // A new object is judged where something refers to it (a page, the catalog, a form…): alone it
    // changes nothing a reader shows.
    if (!existed) return;
    this.rewritten(n);
  }

  private catalog(n: number, a: PDFObject, b: PDFObject): void {
    const before = this.signed.dict(a);
    const after = this.rev.dict(b);
    if (!before || !after) return this.add(name(n), 'catalog');
    for (const key of changedKeys(before, after)) {
      if (CATALOG_VALIDATION_KEYS.has(key) && after.get(N(key))) this.add(name(n), 'validation_data');
      else if (CATALOG_METADATA_KEYS.has(key)) this.add(name(n), 'metadata');
      else if (key === 'AcroForm') this.acroForm(name(n), before.get(N(key)), after.get(N(key)));
      else this.add(name(n), key === 'Pages' ? 'pages' : 'catalog');
    }
  }

  private acroForm(object: string, a: PDFObject | undefined, b: PDFObject | undefined): void {
    // A changed reference to the form is judged by the form it points at.
    const before = this.signed.dict(a);
    const after = this.rev.dict(b);
    if (!after) return this.add(object, 'form');
    for (const key of changedKeys(before ?? this.rev.file.context.obj({}), after)) {
      if (key === 'SigFlags') continue;
      if (key === 'Fields') this.fieldsList(object, this.signed.array(before?.get(N('Fields'))), this.rev.array(after.get(N('Fields'))));
      else this.add(object, 'form');
    }
  }

  /** /Fields may only gain new signature fields at its end. */
  private fieldsList(object: string, was: PDFArray | undefined, is: PDFArray | undefined): void {
    const added = appended(was, is);
    if (!added) return this.add(object, 'form');
    for (const item of added) {
      const n = refNumber(item);
      const kinds = n === undefined ? undefined : this.newSignatureFields.get(n);
      if (!kinds) this.add(n === undefined ? object : name(n), 'field_added');
      else for (const kind of kinds) this.add(name(n!), kind, this.roles.pageOf(n!));
    }
  }

  private page(n: number, a: PDFObject, b: PDFObject): void {
    const before = this.signed.dict(a);
    const after = this.rev.dict(b);
    const page = this.roles.pages.get(n);
    if (!before || !after) return this.add(name(n), 'page', page);
    for (const key of changedKeys(before, after)) {
      if (key === 'Annots') this.annotsList(name(n), this.signed.array(before.get(N('Annots'))), this.rev.array(after.get(N('Annots'))), page!);
      else this.add(name(n), key === 'Contents' ? 'page_content' : key === 'Resources' ? 'page_resources' : 'page', page);
    }
  }

  /** A page's /Annots may gain widgets of new signature fields (judged with their field) and annotations. */
  private annotsList(object: string, was: PDFArray | undefined, is: PDFArray | undefined, page: number): void {
    const added = appended(was, is);
    if (!added) return this.add(object, 'annotation_changed', page);
    for (const item of added) {
      const n = refNumber(item);
      if (n !== undefined && this.newSignatureParts.has(n)) continue;
      this.add(n === undefined ? object : name(n), 'annotation_added', page);
    }
  }

  /** An existing field: a new value (and its appearance) is form filling; a signature placed in an empty signature field is a signature. */
  private field(n: number, a: PDFObject, b: PDFObject): void {
    const before = this.signed.dict(a);
    const after = this.rev.dict(b);
    const page = this.roles.pageOf(n);
    if (!before || !after) return this.add(name(n), 'form', page);
    const keys = changedKeys(before, after);
    if (keys.some((k) => !FIELD_VALUE_KEYS.has(k))) return this.add(name(n), 'form', page);
    const isSignature = this.roles.fields.get(n)?.ft === 'Sig';
    if (isSignature) return this.add(name(n), before.get(N('V')) === undefined ? 'signature_added' : 'form', page);
    this.add(name(n), 'field_value', page);
  }

  /**
   * Top-level signature fields this revision has and the signed one does not, each new, with its
   * widgets, its value and their appearances (all new objects): what they add is a document
   * timestamp (a validation update), a signature, and, when a widget shows on a page, an annotation.
   */
  private findNewSignatureFields(): void {
    const existing = this.signedRoles.fields;
    for (const top of this.roles.topFields) {
      if (existing.has(top) || this.signed.entries.has(top) && this.signed.get(top) !== undefined) continue;
      const info = this.roles.fields.get(top);
      if (info?.ft !== 'Sig') continue;
      const parts = new Set<number>([top]);
      const kinds = new Set<ChangeKind>();
      let ok = true;
      for (const [n, f] of this.roles.fields) {
        if (f.top !== top) continue;
        parts.add(n);
        if (this.signed.get(n) !== undefined) ok = false;
        const dict = this.rev.dict(PDFRef.of(n));
        if (!dict) continue;
        const value = dict.get(N('V'));
        const vn = refNumber(value);
        if (vn !== undefined) parts.add(vn);
        const v = this.rev.dict(value);
        if (v) kinds.add(v.get(N('SubFilter'))?.toString() === '/ETSI.RFC3161' ? 'document_timestamp' : 'signature_added');
        if (dict.get(N('Subtype'))?.toString() === '/Widget' && visible(this.rev, dict)) kinds.add('annotation_added');
        for (const r of reachable(this.rev, dict.get(N('AP')))) parts.add(r);
      }
      if (!ok) continue;
      if (kinds.size === 0) kinds.add('signature_added');
      for (const p of parts) this.newSignatureParts.add(p);
      this.newSignatureFields.set(top, [...kinds]);
    }
  }
}

/** The items `is` has after all of `was` (same values, same order); undefined when `was` is not kept as its start. */
function appended(was: PDFArray | undefined, is: PDFArray | undefined): PDFObject[] | undefined {
  const before = was?.asArray() ?? [];
  const after = is?.asArray() ?? [];
  if (after.length < before.length) return undefined;
  for (let i = 0; i < before.length; i++) if (!sameValue(before[i], after[i])) return undefined;
  return after.slice(before.length);
}

/** A widget a viewer draws: not hidden or no-view, with an area. */
function visible(rev: Revision, widget: PDFDict): boolean {
  const flags = numberOf(rev.resolve(widget.get(N('F')))) ?? 0;
  if (flags & (2 | 32)) return false;
  const rect = rev.array(widget.get(N('Rect')));
  const v = rect?.asArray().map((x) => numberOf(rev.resolve(x)) ?? 0) ?? [0, 0, 0, 0];
  return Math.abs((v[2] ?? 0) - (v[0] ?? 0)) > 0 && Math.abs((v[3] ?? 0) - (v[1] ?? 0)) > 0;
}

/** Object numbers reachable from `start` (bounded). */
function reachable(rev: Revision, start: PDFObject | undefined): Set<number> {
  const out = new Set<number>();
  const stack: PDFObject[] = start ? [start] : [];
  while (stack.length > 0 && out.size < 10_000) {
    const obj = stack.pop()!;
    if (obj instanceof PDFRef) {
      if (out.has(obj.objectNumber)) continue;
      out.add(obj.objectNumber);
      const t = rev.get(obj.objectNumber);
      if (t) stack.push(t);
    } else if (obj instanceof PDFDict) {
      for (const [, v] of obj.entries()) stack.push(v);
    } else if (obj instanceof PDFArray) stack.push(...obj.asArray());
    else if (obj instanceof PDFRawStream) stack.push(obj.dict);
  }
  return out;
}
