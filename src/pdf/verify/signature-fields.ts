// Where a PDF's signatures are: the signature fields of its AcroForm that hold a signature
// dictionary (approval signatures and document timestamps), and the permission signatures under the
// catalog's /Perms (/DocMDP certification, /UR3 usage rights). Walked iteratively with a visited set:
// a hostile file may nest its field tree deep or in a circle.
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';

export interface FoundSignature {
  field: string;
  /** The signature dictionary. */
  dict: PDFDict;
  byteRange: [number, number, number, number] | undefined;
  subFilter: string | undefined;
  /** /Name, /M and /Reason as the dictionary gives them. */
  name: string | undefined;
  claimedTime: Date | undefined;
  /** The widget annotations and field dictionaries that hold it (what a later update may add). */
  holders: PDFRef[];
}

const N = (s: string): PDFName => PDFName.of(s);
// Fields a real form holds are in the thousands at most (limits.ts); a tree larger than this is hostile.
const MAX_FIELD_NODES = 200_000;

export function findSignatures(doc: PDFDocument): FoundSignature[] {
  const found: FoundSignature[] = [];
  const seenDicts = new Set<PDFDict>();
  const add = (field: string, value: PDFDict, holders: PDFRef[]) => {
    if (seenDicts.has(value)) return;
    seenDicts.add(value);
    found.push(describe(field, value, holders));
  };
  const acroForm = doc.catalog.lookupMaybe(N('AcroForm'), PDFDict);
  const fields = acroForm?.lookupMaybe(N('Fields'), PDFArray);
  if (fields) {
    type Node = { obj: PDFObject; prefix: string; ft: string | undefined; refs: PDFRef[] };
    const stack: Node[] = fields.asArray().map((obj) => ({ obj, prefix: '', ft: undefined, refs: [] }));
    const visited = new Set<PDFObject>();
    let count = 0;
    while (stack.length > 0 && count++ < MAX_FIELD_NODES) {
      const node = stack.pop()!;
      const ref = node.obj instanceof PDFRef ? node.obj : undefined;
      const dict = ref ? doc.context.lookup(ref) : node.obj;
      if (!(dict instanceof PDFDict) || visited.has(dict)) continue;
      visited.add(dict);
      const partial = text(dict.lookup(N('T')));
      const name = partial === undefined ? node.prefix : node.prefix ? `${node.prefix}.${partial}` : partial;
      const ft = dict.lookupMaybe(N('FT'), PDFName)?.decodeText() ?? node.ft;
      const refs = ref ? [...node.refs, ref] : node.refs;
      const value = dict.lookup(N('V'));
      if (ft === 'Sig' && value instanceof PDFDict) add(name || 'Signature', value, refs);
      const kids = dict.lookupMaybe(N('Kids'), PDFArray);
      if (kids) for (const kid of kids.asArray()) stack.push({ obj: kid, prefix: name, ft, refs });
    }
  }
  const perms = doc.catalog.lookupMaybe(N('Perms'), PDFDict);
  for (const key of ['DocMDP', 'UR3', 'UR']) {
    const value = perms?.lookup(N(key));
    if (value instanceof PDFDict) add(`Perms/${key}`, value, []);
  }
  return found;
}

function describe(field: string, dict: PDFDict, holders: PDFRef[]): FoundSignature {
  const range = dict.lookup(N('ByteRange'));
  let byteRange: FoundSignature['byteRange'];
  if (range instanceof PDFArray && range.size() === 4) {
    const numbers = range.asArray().map((x) => (x instanceof PDFNumber ? x.asNumber() : Number.NaN));
    if (numbers.every((x) => Number.isSafeInteger(x) && x >= 0)) byteRange = numbers as [number, number, number, number];
  }
  const m = text(dict.lookup(N('M')));
  return {
    field,
    dict,
    byteRange,
    subFilter: dict.lookupMaybe(N('SubFilter'), PDFName)?.decodeText(),
    name: text(dict.lookup(N('Name'))),
    claimedTime: m === undefined ? undefined : parsePdfDate(m),
    holders,
  };
}

function text(obj: PDFObject | undefined): string | undefined {
  return obj instanceof PDFString || obj instanceof PDFHexString ? obj.decodeText() : undefined;
}

/** A PDF date, "D:YYYYMMDDHHmmSSOHH'mm'" with everything after the year optional; undefined if it is not one. */
export function parsePdfDate(value: string): Date | undefined {
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(\d{2})?'?(\d{2})?'?)?/.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const offset = sign === '+' || sign === '-' ? (sign === '+' ? 1 : -1) * (Number(oh) * 60 + Number(om)) : 0;
  const date = new Date(utc - offset * 60_000);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
