// A PDF's revisions as a reader sees them: the cross-reference chain from the last `startxref`
// back through every /Prev (classic tables and xref streams alike, hybrid /XRefStm included), and
// each object resolved where the cross-reference of a given revision says it is. pdf-lib's own
// loader reads the body front to back and keeps the last definition of each number, which is not
// what a viewer shows when a later xref points elsewhere; the difference analysis must judge what a
// viewer shows, so it resolves objects here, lazily and only those it compares.
import { decodePDFRawStream, PDFArray, PDFContext, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, PDFRef, PDFInvalidObject, type PDFObject } from '@cantoo/pdf-lib';

export type XrefEntry = { kind: 'offset'; offset: number; gen: number } | { kind: 'compressed'; stream: number; index: number } | { kind: 'free' };

export interface XrefSection {
  /** Where the section (the `xref` keyword or the xref stream object) starts. */
  at: number;
  entries: Map<number, XrefEntry>;
  trailer: PDFDict;
  /** The object number of an xref stream (structural, not content). */
  streamObject?: number;
}

const N = (s: string): PDFName => PDFName.of(s);
// A chain longer than this is hostile (real files have a handful of revisions).
const MAX_SECTIONS = 4096;

const latin1 = (bytes: Uint8Array, from: number, to: number): string => Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, Math.min(to, bytes.length) - from)).toString('latin1');

/** The offset the last `startxref` in `bytes` names, or undefined. */
export function lastStartXref(bytes: Uint8Array): number | undefined {
  const tail = latin1(bytes, Math.max(0, bytes.length - 2048), bytes.length);
  const m = [...tail.matchAll(/startxref\s+(\d+)/g)].at(-1);
  return m ? Number(m[1]) : undefined;
}

/** The object stream parser wants its dictionary's context; one shared, empty context serves every parse. */
export class PdfFile {
  readonly context = PDFContext.create();
  private readonly byOffset = new Map<number, PDFObject>();
  private readonly objectStreams = new Map<string, Map<number, PDFObject>>();
  constructor(readonly bytes: Uint8Array) {}

  /** The chain of sections from `startxref` (newest first); throws when it cannot be read. */
  chain(start: number | undefined): XrefSection[] {
    if (start === undefined) throw new Error('no startxref');
    const sections: XrefSection[] = [];
    const seen = new Set<number>();
    let at: number | undefined = start;
    while (at !== undefined) {
      if (seen.has(at) || sections.length >= MAX_SECTIONS) throw new Error('the cross-reference chain loops');
      seen.add(at);
      const section = this.section(at);
      sections.push(section);
      const prev = section.trailer.get(N('Prev'));
      at = prev instanceof PDFNumber ? prev.asNumber() : undefined;
    }
    return sections;
  }

  private section(at: number): XrefSection {
    if (latin1(this.bytes, at, at + 4) === 'xref') return this.table(at);
    const obj = this.objectAt(at);
    if (!(obj instanceof PDFRawStream) || obj.dict.get(N('Type'))?.toString() !== '/XRef') throw new Error(`no cross-reference section at ${at}`);
    const header = /^(\d+)\s+\d+\s+obj/.exec(latin1(this.bytes, at, at + 40));
    return { at, entries: streamEntries(obj), trailer: obj.dict, ...(header ? { streamObject: Number(header[1]) } : {}) };
  }

  private table(at: number): XrefSection {
    const entries = new Map<number, XrefEntry>();
    const text = latin1(this.bytes, at, this.bytes.length);
    const re = /\s*(\d+)\s+(\d+)[ \t]*\r?\n?/y;
    let pos = 4;
    for (;;) {
      re.lastIndex = pos;
      const sub = re.exec(text);
      if (!sub) break;
      const first = Number(sub[1]);
      const count = Number(sub[2]);
      pos = re.lastIndex;
      const line = /\s*(\d{10})\s(\d{5})\s([nf])/y;
      for (let i = 0; i < count; i++) {
        line.lastIndex = pos;
        const m = line.exec(text);
        if (!m) throw new Error(`a broken cross-reference table at ${at}`);
        pos = line.lastIndex;
        // A section lists each number once; the first listing stands, as readers take it.
        if (!entries.has(first + i)) entries.set(first + i, m[3] === 'n' ? { kind: 'offset', offset: Number(m[1]), gen: Number(m[2]) } : { kind: 'free' });
      }
    }
    const t = /\s*trailer\s*/y;
    t.lastIndex = pos;
    if (!t.exec(text)) throw new Error(`no trailer after the cross-reference table at ${at}`);
    const trailer = PDFObjectParser.forBytes(this.bytes.subarray(at + t.lastIndex), this.context).parseObject();
    if (!(trailer instanceof PDFDict)) throw new Error(`no trailer dictionary at ${at}`);
    // A hybrid file's /XRefStm lists the objects its table leaves out (those in object streams).
    const stm = trailer.get(N('XRefStm'));
    if (stm instanceof PDFNumber) {
      const obj = this.objectAt(stm.asNumber());
      if (obj instanceof PDFRawStream) for (const [n, e] of streamEntries(obj)) if (!entries.has(n)) entries.set(n, e);
    }
    return { at, entries, trailer };
  }

  /** The object defined at `offset` ("N G obj …"), parsed once. */
  objectAt(offset: number): PDFObject {
    const cached = this.byOffset.get(offset);
    if (cached) return cached;
    let obj: PDFObject;
    const header = /^\s*(\d+)\s+(\d+)\s+obj/.exec(latin1(this.bytes, offset, offset + 40));
    if (!header || offset >= this.bytes.length) {
      obj = PDFInvalidObject.of(new Uint8Array(0));
    } else {
      try {
        obj = PDFObjectParser.forBytes(this.bytes.subarray(offset + header[0].length), this.context).parseObject();
      } catch {
        obj = PDFInvalidObject.of(new Uint8Array(0));
      }
    }
    this.byOffset.set(offset, obj);
    return obj;
  }

  /** Object `index` of object stream `stream` as `entries` resolve that stream. */
  compressed(stream: number, index: number, resolve: (n: number) => PDFObject | undefined): PDFObject | undefined {
    const holder = resolve(stream);
    if (!(holder instanceof PDFRawStream)) return undefined;
    const key = `${stream}@${this.keyOf(holder)}`;
    let objects = this.objectStreams.get(key);
    if (!objects) {
      objects = parseObjectStream(holder, this.context);
      this.objectStreams.set(key, objects);
    }
    return objects.get(index);
  }

  private readonly identities = new WeakMap<PDFObject, number>();
  private nextIdentity = 0;
  private keyOf(obj: PDFObject): number {
    let id = this.identities.get(obj);
    if (id === undefined) this.identities.set(obj, (id = this.nextIdentity++));
    return id;
  }
}

/** One revision's view: the merged entries of a chain (newer sections win). */
export class Revision {
  readonly entries = new Map<number, XrefEntry>();
  readonly trailer: PDFDict;
  /** Object numbers of the xref streams of this revision's chain. */
  readonly xrefStreams = new Set<number>();
  private readonly cache = new Map<number, PDFObject | undefined>();

  constructor(readonly file: PdfFile, readonly sections: readonly XrefSection[]) {
    // Oldest first, so newer sections overwrite.
    for (const s of [...sections].reverse()) {
      for (const [n, e] of s.entries) this.entries.set(n, e);
      if (s.streamObject !== undefined) this.xrefStreams.add(s.streamObject);
    }
    const merged = file.context.obj({});
    for (const s of [...sections].reverse()) for (const [k, v] of s.trailer.entries()) merged.set(k, v);
    this.trailer = merged;
  }

  get(n: number): PDFObject | undefined {
    if (this.cache.has(n)) return this.cache.get(n);
    this.cache.set(n, undefined);
    const e = this.entries.get(n);
    let obj: PDFObject | undefined;
    if (e?.kind === 'offset') obj = this.file.objectAt(e.offset);
    else if (e?.kind === 'compressed') obj = this.file.compressed(e.stream, e.index, (s) => (s === n ? undefined : this.get(s)));
    this.cache.set(n, obj);
    return obj;
  }

  /** `obj` with a reference followed (once; chains of references are not PDF). */
  resolve(obj: PDFObject | undefined): PDFObject | undefined {
    return obj instanceof PDFRef ? this.get(obj.objectNumber) : obj;
  }

  dict(obj: PDFObject | undefined): PDFDict | undefined {
    const r = this.resolve(obj);
    if (r instanceof PDFDict) return r;
    if (r instanceof PDFRawStream) return undefined;
    return undefined;
  }

  array(obj: PDFObject | undefined): PDFArray | undefined {
    const r = this.resolve(obj);
    return r instanceof PDFArray ? r : undefined;
  }

  /** The revision's catalog reference. */
  rootRef(): PDFRef | undefined {
    const root = this.trailer.get(N('Root'));
    return root instanceof PDFRef ? root : undefined;
  }
}

function streamEntries(stream: PDFRawStream): Map<number, XrefEntry> {
  const entries = new Map<number, XrefEntry>();
  const dict = stream.dict;
  const w = dict.get(N('W'));
  const size = dict.get(N('Size'));
  if (!(w instanceof PDFArray) || w.size() < 3) throw new Error('an xref stream without /W');
  const widths = w.asArray().map((x) => (x instanceof PDFNumber ? x.asNumber() : -1));
  if (widths.some((x) => x < 0 || x > 8)) throw new Error('an xref stream with a bad /W');
  const index = dict.get(N('Index'));
  const ranges: number[] = index instanceof PDFArray
    ? index.asArray().map((x) => (x instanceof PDFNumber ? x.asNumber() : 0))
    : [0, size instanceof PDFNumber ? size.asNumber() : 0];
  const data = decodePDFRawStream(stream).decode();
  const [w0, w1, w2] = widths as [number, number, number];
  const rowLength = w0 + w1 + w2;
  let pos = 0;
  const field = (width: number): number => {
    let v = 0;
    for (let i = 0; i < width; i++) v = v * 256 + (data[pos++] ?? 0);
    return v;
  };
  for (let r = 0; r + 1 < ranges.length; r += 2) {
    const first = ranges[r]!;
    const count = ranges[r + 1]!;
    for (let i = 0; i < count; i++) {
      if (pos + rowLength > data.length) return entries;
      const type = w0 === 0 ? 1 : field(w0);
      const a = field(w1);
      const b = field(w2);
      if (entries.has(first + i)) continue;
      if (type === 1) entries.set(first + i, { kind: 'offset', offset: a, gen: b });
      else if (type === 2) entries.set(first + i, { kind: 'compressed', stream: a, index: b });
      else if (type === 0) entries.set(first + i, { kind: 'free' });
    }
  }
  return entries;
}

/** An object stream's objects, by their index in it. */
function parseObjectStream(stream: PDFRawStream, context: PDFContext): Map<number, PDFObject> {
  const objects = new Map<number, PDFObject>();
  const first = stream.dict.get(N('First'));
  const count = stream.dict.get(N('N'));
  if (!(first instanceof PDFNumber) || !(count instanceof PDFNumber)) return objects;
  let data: Uint8Array;
  try {
    data = decodePDFRawStream(stream).decode();
  } catch {
    return objects;
  }
  const head = Buffer.from(data.subarray(0, first.asNumber())).toString('latin1').trim().split(/\s+/).map(Number);
  for (let i = 0; i < count.asNumber() && 2 * i + 1 < head.length; i++) {
    const offset = head[2 * i + 1]!;
    try {
      objects.set(i, PDFObjectParser.forBytes(data.subarray(first.asNumber() + offset), context).parseObject());
    } catch {
      objects.set(i, PDFInvalidObject.of(new Uint8Array(0)));
    }
  }
  return objects;
}
