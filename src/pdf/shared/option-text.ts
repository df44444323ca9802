// Radio export values live in PDF names, which are bytes with no declared encoding. pdf-lib reads
// them as Latin-1, so anything else comes out as mojibake. This module turns them into readable
// strings, and the renderer uses the same mapping backwards, so every option round-trips.
import { pdfDocEncodingDecode, type PDFName } from '@cantoo/pdf-lib';

// Windows-1252 assigns printable characters to 0x80–0x9F; Shift-JIS lead bytes live there too.
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const CP1252_SPECIALS = new Set([...CP1252_HIGH].filter((c) => c.charCodeAt(0) > 0x9f));
const CJK = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/gu;
const CJK_OR_ASCII = /^[\u0020-\u007e\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]*$/u;

// Any byte string with a high byte followed by a plain byte decodes as *some* Shift-JIS, e.g.
// "Resident\x92s room" → "Resident尽 room". Real Japanese names are mostly Japanese.
function looksJapanese(text: string): boolean {
  const cjk = text.match(CJK)?.length ?? 0;
  const visible = text.replace(/\s/gu, '').length;
  return cjk >= 2 && cjk * 2 >= visible && CJK_OR_ASCII.test(text);
}

function decodeStrict(encoding: string, bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function toCp1252Bytes(text: string): Uint8Array | undefined {
  const bytes: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const high = CP1252_HIGH.indexOf(ch);
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) bytes.push(code);
    else if (high >= 0) bytes.push(0x80 + high);
    else return undefined;
  }
  return Uint8Array.from(bytes);
}

// Some Japanese authoring tools wrote Shift-JIS names that were later read as Windows-1252 and
// re-saved as UTF-8 (the JLPT form: "‘I‘ð“à—e1" is "選択内容1"). Only undo that when the text
// contains Windows-1252 punctuation that real names don't use and the result is clean Japanese.
function repairShiftJisMojibake(text: string): string | undefined {
  if (![...text].some((c) => CP1252_SPECIALS.has(c))) return undefined;
  const bytes = toCp1252Bytes(text);
  const repaired = bytes && decodeStrict('shift_jis', bytes);
  return repaired && looksJapanese(repaired) ? repaired : undefined;
}

/**
 * A readable form of a PDF name's bytes: ASCII or UTF-8 (what PDF 2.0 prescribes), Shift-JIS when
 * that yields Japanese, else PDFDocEncoding, the PDF's own single-byte text encoding (the CDC
 * form's "Resident\x90s room" is "Resident’s room" there).
 */
export function readableNameBytes(bytes: Uint8Array): string {
  if (bytes.every((b) => b < 0x80)) return String.fromCharCode(...bytes);
  const utf8 = decodeStrict('utf-8', bytes);
  if (utf8 !== undefined) return repairShiftJisMojibake(utf8) ?? utf8;
  const sjis = decodeStrict('shift_jis', bytes);
  return sjis !== undefined && looksJapanese(sjis) ? sjis : pdfDocEncodingDecode(bytes);
}

export const readableName = (name: PDFName): string => readableNameBytes(name.asBytes());

export interface OptionChoice {
  /** What Formsign shows and stores. */
  readable: string;
  /** What pdf-lib's select() expects for the same option. */
  raw: string;
}

/**
 * Pairs readable labels with pdf-lib's raw option strings. When two different raw options would
 * read the same, both keep their raw text so each stays selectable. Empty options are dropped:
 * they cannot be chosen meaningfully.
 */
export function pairOptions(raw: readonly string[], readable: readonly string[]): OptionChoice[] {
  const rawByReadable = new Map<string, Set<string>>();
  raw.forEach((r, i) => {
    const key = readable[i] ?? r;
    rawByReadable.set(key, (rawByReadable.get(key) ?? new Set()).add(r));
  });
  const seen = new Set<string>();
  const out: OptionChoice[] = [];
  raw.forEach((r, i) => {
    const candidate = readable[i] ?? r;
    const label = (rawByReadable.get(candidate)?.size ?? 1) > 1 ? r : candidate;
    if (label === '' || seen.has(label)) return;
    seen.add(label);
    out.push({ readable: label, raw: r });
  });
  return out;
}
