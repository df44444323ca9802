// What happened to a PDF after each of its signatures: the revisions that follow a signature's
// coverage judged by difference analysis (diff-analysis.ts), and the revision a signature covers read
// as a viewer reads it (its own cross-reference chain), e.g. for the form id it vouches for. The file's
// cross-reference is read once and objects are parsed only when compared; a signature's analysis is
// computed once even when several signatures end at the same byte.
import { PDFDict, PDFName } from '@cantoo/pdf-lib';
import { analyseAfter, type DiffResult } from './diff-analysis.js';
import { lastStartXref, PdfFile, Revision, type XrefSection } from './xref-reader.js';

export class AfterSigning {
  private readonly file: PdfFile;
  private readonly finalChain: XrefSection[] | undefined;
  private readonly results = new Map<number, DiffResult>();

  constructor(bytes: Uint8Array) {
    this.file = new PdfFile(bytes);
    try {
      this.finalChain = this.file.chain(lastStartXref(bytes));
    } catch {
      this.finalChain = undefined;
    }
  }

  /** What the revisions after byte `end` (a signature's last covered byte) change. */
  analyse(end: number): DiffResult {
    let result = this.results.get(end);
    if (!result) {
      result = this.finalChain
        ? analyseAfter(this.file, this.finalChain, end)
        : analyseAfter(this.file, [], end);
      this.results.set(end, result);
    }
    return result;
  }

  /** The information dictionary of the revision that ends at `end`, as its own cross-reference names it. */
  signedInfo(end: number): PDFDict | undefined {
    try {
      const rev = new Revision(this.file, this.file.chain(lastStartXref(this.file.bytes.subarray(0, end))));
      return rev.dict(rev.trailer.get(PDFName.of('Info')));
    } catch {
      return undefined;
    }
  }
}
