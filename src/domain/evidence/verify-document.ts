import type { JobOptions, PdfSource, ServiceCertificates, Verification } from '../../pdf/index.js';
import type { DomainDeps } from '../context.js';
import { fromPdfError } from '../pdf/pdf-errors.js';

/** The service's own certificates, as the verifier compares a PDF's signers with them. */
export function serviceCertificates(deps: Pick<DomainDeps, 'signingCertificate'>): ServiceCertificates {
  const { certificateDer, chainDer } = deps.signingCertificate;
  return { certificateDer, chainDer };
}

/**
 * What a PDF's signatures prove (POST /api/v1/verify, the /verify page): analysed in the PDF pool,
 * never on the event loop, with the pool's CPU-time and memory limits (a hostile file ends as
 * `pdf_invalid`), and nothing stored. `owner` keeps one client's uploads from crowding out the rest.
 */
export async function verifyDocument(deps: Pick<DomainDeps, 'verifyPdf' | 'signingCertificate'>, source: PdfSource, opts: JobOptions): Promise<Verification> {
  try {
    return await deps.verifyPdf(source, serviceCertificates(deps), opts);
  } catch (err) {
    throw fromPdfError(err, 'file');
  }
}
