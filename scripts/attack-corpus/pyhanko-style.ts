// A PAdES B-LTA document made the way pyHanko makes one from an unsigned PDF (its signer, its
// DocumentSecurityStore and its PdfTimeStamper with default settings, as read in pyHanko's public
// source; pyHanko itself cannot be installed here), signed with a foreign key, so that the verifier
// is shown another tool's whole structure and not only its LTV update on our seal:
//
// 1. the signature's revision: a new AcroForm (indirect, /Fields direct, /SigFlags 3), a field that is
//    its own widget (/FT /Sig /T /Type /Annot /Subtype /Widget /F 132 /Rect [0 0 0 0] /P page /V),
//    the page's /Annots, the catalog's /Extensions ESIC (and /Version 1.7 when the header is older),
//    a /Sig dictionary with /Contents before /ByteRange, /M and /Prop_Build, a CAdES signature with a
//    signature timestamp, /Info's /ModDate and /Producer ("…; pyHanko x.y.z") updated, a new second
//    /ID part; an xref stream when the file it updates has one, else a classic table;
// 2. by default ("DSS together with the next timestamp"): the DSS (indirect, direct /Certs /OCSPs
//    arrays of unfiltered streams, /VRI keyed by the SHA-1 of the signature's /Contents, each VRI
//    entry an indirect << /Type /VRI /OCSP /Cert >>) and, in the same revision, a document timestamp
//    in a new field "Timestamp-<uuid>" with /TU (Timestamp) and a /DocTimeStamp dictionary;
//    with `dss: 'separate'` the DSS has its own revision before the timestamp's;
// 3. with VRI: a last DSS update adding the document timestamp's VRI entry (pyHanko's add_dss after
//    the timestamp; without VRI it has nothing new to write and writes nothing).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PDFArray, PDFDict, PDFHexString, PDFRawStream, PDFRef, PDFString, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { buildCadesSignature } from '../../src/pdf/seal/cms.js';
import { requestTimestamp, sha256 } from '../../src/pdf/seal/timestamp.js';
import type { SigningCertificate, TsaSettings } from '../../src/pdf/index.js';
import { lastStartXref } from '../../src/pdf/verify/xref-reader.js';
import { appendUpdate, fillPlaceholder, lastTrailer, load, N, nextNumber, placeholder } from './incremental.js';

export const PYHANKO_VENDOR = 'pyHanko 0.29.0';

export interface PyHankoBltaOptions {
  signer: SigningCertificate;
  /** Validation data for the signer's chain and the TSA's (DER): certificates and OCSP responses. */
  certs: Buffer[];
  ocsps: Buffer[];
  tsa: TsaSettings;
  /** pyHanko's include_vri (default true). */
  vri: boolean;
  /** pyHanko's SigDSSPlacementPreference: TOGETHER_WITH_NEXT_TS (its default) or SEPARATE_REVISION. */
  dss: 'with-timestamp' | 'separate';
  fieldName: string;
  timestampFieldName: string;
}

/** pyHanko writes an xref stream exactly when the file it updates has one (prev.has_xref_stream). */
function hasXrefStream(pdf: Uint8Array): boolean {
  const at = lastStartXref(pdf)!;
  return Buffer.from(pdf.subarray(at, at + 4)).toString('latin1') !== 'xref';
}

// Each update's /ModDate a second after the last one's at least (PDF dates have seconds), so that
// every revision's /Info is a change, as it is when pyHanko's updates are seconds apart.
let lastModified = 0;
const modDate = (): PDFString => {
  lastModified = Math.max(Date.now(), lastModified + 1000);
  return PDFString.fromDate(new Date(lastModified));
};

/** One incremental update as pyHanko's IncrementalPdfFileWriter writes it: /Info's /ModDate and /Producer updated, a new second /ID part. */
class PyHankoUpdate {
  readonly objects = new Map<number, PDFObject>();
  private next: number;
  private constructor(readonly pdf: Buffer, readonly doc: Awaited<ReturnType<typeof load>>) {
    this.next = nextNumber(pdf);
  }

  static async of(pdf: Buffer): Promise<PyHankoUpdate> {
    return new PyHankoUpdate(pdf, await load(pdf));
  }

  get ctx(): PDFContext {
    return this.doc.context;
  }

  add(obj: PDFObject): PDFRef {
    const ref = PDFRef.of(this.next++);
    this.objects.set(ref.objectNumber, obj);
    return ref;
  }

  /** The current (or already updated) value of an indirect dictionary, to change and write again. */
  dict(ref: PDFRef): PDFDict {
    const have = this.objects.get(ref.objectNumber);
    if (have instanceof PDFDict) return have;
    const copy = (this.ctx.lookup(ref) as PDFDict).clone(this.ctx);
    this.objects.set(ref.objectNumber, copy);
    return copy;
  }

  get rootRef(): PDFRef {
    return this.ctx.trailerInfo.Root as PDFRef;
  }

  /** The catalog to change (written again with this update). */
  get catalog(): PDFDict {
    return this.dict(this.rootRef);
  }

  /** A catalog entry, read without writing the catalog again. */
  catalogEntry(key: string): PDFObject | undefined {
    const have = this.objects.get(this.rootRef.objectNumber);
    return (have instanceof PDFDict ? have : this.ctx.lookup(this.rootRef) as PDFDict).get(N(key));
  }

  write(): Buffer {
    const trailer = lastTrailer(this.pdf);
    let info = trailer.get(N('Info')) as PDFRef | undefined;
    const now = modDate();
    if (info) {
      const dict = this.dict(info);
      dict.set(N('ModDate'), now);
      const producer = dict.get(N('Producer'));
      const was = producer instanceof PDFString || producer instanceof PDFHexString ? producer.decodeText() : undefined;
      if (!was?.includes(PYHANKO_VENDOR)) dict.set(N('Producer'), PDFString.of(was ? `${was}; ${PYHANKO_VENDOR}` : PYHANKO_VENDOR));
    } else {
      info = this.add(this.ctx.obj({ ModDate: now, Producer: PDFString.of(PYHANKO_VENDOR) }));
    }
    const id = trailer.get(N('ID'));
    const first = id instanceof PDFArray ? id.get(0).toString() : `<${randomBytes(16).toString('hex')}>`;
    return appendUpdate(this.pdf, { objects: this.objects, info, id: `[${first} <${randomBytes(16).toString('hex')}>]`, xrefStream: hasXrefStream(this.pdf) });
  }
}

/** pyHanko's SignatureFormField with combine_annotation: the field is its own invisible widget on page 1. */
function signatureField(u: PyHankoUpdate, name: string, value: PDFRef, extra: Record<string, PDFObject> = {}): PDFRef {
  const page = u.doc.getPages()[0]!;
  const field = u.add(u.ctx.obj({ FT: 'Sig', T: PDFString.of(name), Type: 'Annot', Subtype: 'Widget', F: 132, Rect: [0, 0, 0, 0], P: page.ref, ...extra, V: value }));
  // register_annotation: the page's /Annots (an indirect array is updated itself, a direct one with its page).
  const pageDict = u.dict(page.ref);
  const annots = pageDict.get(N('Annots'));
  if (annots instanceof PDFRef) (u.objects.get(annots.objectNumber) as PDFArray | undefined ?? setArray(u, annots)).push(field);
  else {
    const list = annots instanceof PDFArray ? annots : u.ctx.obj([]);
    list.push(field);
    pageDict.set(N('Annots'), list);
  }
  // prepare_sig_field: into /Fields, creating the form when there is none; then ensure_sig_flags (3).
  const formEntry = u.catalogEntry('AcroForm');
  if (formEntry === undefined) {
    u.catalog.set(N('AcroForm'), u.add(u.ctx.obj({ Fields: [field], SigFlags: 3 })));
  } else {
    // An indirect form is updated itself, a direct one with the catalog; an indirect /Fields array itself.
    const form = formEntry instanceof PDFRef ? u.dict(formEntry) : u.catalog.get(N('AcroForm')) as PDFDict;
    const fields = form.get(N('Fields'));
    if (fields instanceof PDFRef) (u.objects.get(fields.objectNumber) as PDFArray | undefined ?? setArray(u, fields)).push(field);
    else (fields as PDFArray).push(field);
    if (form.get(N('SigFlags'))?.toString() !== '3') form.set(N('SigFlags'), u.ctx.obj(3));
  }
  return field;
}

function setArray(u: PyHankoUpdate, ref: PDFRef): PDFArray {
  const copy = (u.ctx.lookup(ref) as PDFArray).clone(u.ctx);
  u.objects.set(ref.objectNumber, copy);
  return copy;
}

/** _ensure_esic_ext: PDF 1.7 at least (the catalog's /Version when the header is older) and the ESIC extension. */
function ensureEsic(u: PyHankoUpdate): void {
  const header = /%PDF-(\d\.\d)/.exec(u.pdf.subarray(0, 1024).toString('latin1'))?.[1] ?? '1.7';
  if (Number(header) < 1.7 && !u.catalogEntry('Version')) u.catalog.set(N('Version'), N('1.7'));
  if (!u.catalogEntry('Extensions')) u.catalog.set(N('Extensions'), u.ctx.obj({ ESIC: { Type: 'DeveloperExtensions', BaseVersion: N('1.7'), ExtensionLevel: 1 } }));
}

/** The /Contents bytes (with their zero padding) of the signature dictionary `ref` in `pdf`: what pyHanko's VRI key hashes. */
async function contentsOf(pdf: Buffer, ref: PDFRef): Promise<Buffer> {
  const doc = await load(pdf);
  return Buffer.from(((doc.context.lookup(ref) as PDFDict).get(N('Contents')) as PDFHexString).asBytes());
}

const vriKey = (contents: Buffer): string => createHash('sha1').update(contents).digest('hex').toUpperCase();

/** DocumentSecurityStore.supply_dss_in_writer: streams for what is new, the DSS (re)written, a VRI entry when `key` is given. */
function supplyDss(u: PyHankoUpdate, certs: Buffer[], ocsps: Buffer[], key: string | undefined): void {
  const existing = u.catalogEntry('DSS');
  const dss = existing instanceof PDFRef ? u.dict(existing) : u.ctx.obj({});
  const have = (list: string): Map<string, PDFRef> => {
    const out = new Map<string, PDFRef>();
    for (const r of (dss.get(N(list)) as PDFArray | undefined)?.asArray() ?? []) {
      const s = u.ctx.lookup(r);
      if (s instanceof PDFRawStream && r instanceof PDFRef) out.set(Buffer.from(s.getContents()).toString('hex'), r);
    }
    return out;
  };
  const embed = (items: Buffer[], seen: Map<string, PDFRef>): PDFRef[] => items.map((der) => {
    const hex = der.toString('hex');
    let ref = seen.get(hex);
    if (!ref) {
      ref = u.add(u.ctx.stream(der));
      seen.set(hex, ref);
    }
    return ref;
  });
  const certRefs = have('Certs');
  const ocspRefs = have('OCSPs');
  const certList = embed(certs, certRefs);
  const ocspList = embed(ocsps, ocspRefs);
  dss.set(N('Certs'), u.ctx.obj([...certRefs.values()]));
  if (key) {
    const vri = (dss.get(N('VRI')) as PDFDict | undefined) ?? u.ctx.obj({});
    vri.set(N(key), u.add(u.ctx.obj({ Type: 'VRI', OCSP: ocspList, Cert: certList })));
    dss.set(N('VRI'), vri);
  }
  if (ocspRefs.size > 0) dss.set(N('OCSPs'), u.ctx.obj([...ocspRefs.values()]));
  if (!(existing instanceof PDFRef)) u.catalog.set(N('DSS'), u.add(dss));
}

const tokenFor = async (tsa: TsaSettings, digest: Buffer): Promise<Buffer> => (await requestTimestamp(tsa, digest)).timestamp.token;

/** `pdf` (unsigned) signed, LTV-updated and timestamped as pyHanko does it. */
export async function pyHankoBlta(pdf: Uint8Array, o: PyHankoBltaOptions): Promise<Buffer> {
  // 1. The signature.
  const s = await PyHankoUpdate.of(Buffer.from(pdf));
  ensureEsic(s);
  const { contents, byteRange } = placeholder();
  const sigRef = s.add(s.ctx.obj({
    Contents: contents, ByteRange: byteRange, Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.CAdES.detached',
    M: PDFString.fromDate(new Date()), Prop_Build: { App: { Name: 'pyHanko', REx: PDFString.of(PYHANKO_VENDOR.split(' ')[1]!) } },
  }));
  signatureField(s, o.fieldName, sigRef);
  const out = await fillPlaceholder(s.write(), (digest) => buildCadesSignature(digest, o.signer, (value) => tokenFor(o.tsa, sha256(value))));
  return dssAndTimestamp(out, o, o.vri ? vriKey(await contentsOf(out, sigRef)) : undefined);
}

type TimestampOptions = Omit<PyHankoBltaOptions, 'signer' | 'fieldName'>;

/**
 * The DSS (in its own revision or with the timestamp's), a document timestamp, then (with VRI) the
 * timestamp's VRI entry. `sigKey` is the VRI key of what the DSS data is for (undefined: no entry).
 */
async function dssAndTimestamp(signed: Buffer, o: TimestampOptions, sigKey: string | undefined): Promise<Buffer> {
  let out = signed;
  if (o.dss === 'separate') {
    const d = await PyHankoUpdate.of(out);
    supplyDss(d, o.certs, o.ocsps, sigKey);
    out = d.write();
  }
  const t = await PyHankoUpdate.of(out);
  if (o.dss === 'with-timestamp') supplyDss(t, o.certs, o.ocsps, sigKey);
  ensureEsic(t);
  const ts = placeholder();
  const tsRef = t.add(t.ctx.obj({ Contents: ts.contents, ByteRange: ts.byteRange, Type: 'DocTimeStamp', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.RFC3161' }));
  signatureField(t, o.timestampFieldName, tsRef, { TU: PDFString.of('Timestamp') });
  out = await fillPlaceholder(t.write(), (digest) => tokenFor(o.tsa, digest));
  // add_dss after the timestamp: its VRI entry (without VRI there is nothing new, and pyHanko writes nothing).
  if (o.vri) {
    const v = await PyHankoUpdate.of(out);
    supplyDss(v, o.certs, o.ocsps, vriKey(await contentsOf(out, tsRef)));
    out = v.write();
  }
  return out;
}

/**
 * pyHanko's update_archival_timestamp_chain on a B-LTA (ours): the last document timestamp's
 * validation data in the DSS (its VRI entry when VRI is on), then a new document timestamp.
 */
export async function pyHankoArchivalTimestamp(pdf: Uint8Array, lastTimestamp: PDFRef, o: TimestampOptions): Promise<Buffer> {
  const out = Buffer.from(pdf);
  return dssAndTimestamp(out, o, o.vri ? vriKey(await contentsOf(out, lastTimestamp)) : undefined);
}

export const timestampFieldName = (): string => `Timestamp-${randomUUID()}`;
