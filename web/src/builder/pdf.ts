import type { PDFDocumentProxy } from 'pdfjs-dist';
import { pageConfig } from '../config';

// pdf.js is the copy the server already serves to the signing page (one origin, cached by hash); it is
// loaded only when the builder opens.

type PdfJs = typeof import('pdfjs-dist');
let loaded: Promise<PdfJs> | undefined;

function pdfjs(): Promise<PdfJs> {
  loaded ??= (async () => {
    const config = pageConfig();
    const lib = (await import(/* @vite-ignore */ config.pdfjs)) as PdfJs;
    lib.GlobalWorkerOptions.workerSrc = config.pdfjsWorker;
    return lib;
  })();
  return loaded;
}

export async function openPdf(url: string): Promise<PDFDocumentProxy> {
  const lib = await pdfjs();
  return lib.getDocument({ url, isEvalSupported: false, standardFontDataUrl: pageConfig().standardFonts, useWasm: false, enableXfa: false, withCredentials: true }).promise;
}
