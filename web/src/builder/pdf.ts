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

/**
 * Fetched whole, then handed to pdf.js: a template PDF is at most 20 MB, and pdf.js's own streaming
 * loader cancels its first request when it switches strategy, which shows as a failed request.
 */
export async function openPdf(url: string): Promise<PDFDocumentProxy> {
  const [lib, res] = await Promise.all([pdfjs(), fetch(url, { credentials: 'same-origin' })]);
  if (!res.ok) throw new Error(`The template's PDF could not be loaded (HTTP ${res.status}). Reload the page to try again.`);
  const data = new Uint8Array(await res.arrayBuffer());
  return lib.getDocument({ data, isEvalSupported: false, standardFontDataUrl: pageConfig().standardFonts, useWasm: false, enableXfa: false }).promise;
}
