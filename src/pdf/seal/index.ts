// The seal area: turning a filled, signed-off form into the final document (flattened, marks drawn,
// audit trail appended, PAdES-signed), and the service certificate it is signed with.
export { checkSigningCertificate, sealPdf, sealPdfWithEvidence, type SealRequest } from './seal-pdf.js';
export {
  GENERATED_CERT_FILE, loadSigningCertificate, SigningCertificateError,
  type SigningCertificate, type SigningCertificateOptions,
} from './certificate.js';
export type { Mark } from './stamp-marks.js';
export { signDetached } from './detached-signature.js';
