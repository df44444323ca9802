// Checking a detached CMS signature over bytes outside a PDF (issue 40: the evidence bundle's
// manifest.json.p7s), with the same CMS check a PDF signature gets (cms-check.ts).
import { checkCms } from './cms-check.js';
import type { ServiceCertificates } from './verification.js';

export interface DetachedCheck {
  /** The content's digest matches and the signature verifies with the certificate the CMS carries. */
  valid: boolean;
  /** The signer's certificate is the service's own (when the service's certificate is known). */
  issuedByThisService: boolean;
  /** One-line subject of the signer's certificate. */
  signer: string | null;
  reason: string | null;
}

export function checkDetachedSignature(der: Uint8Array, content: Uint8Array, service: ServiceCertificates | undefined): DetachedCheck {
  let c: ReturnType<typeof checkCms>;
  try {
    c = checkCms(der, [content]);
  } catch (err) {
    return { valid: false, issuedByThisService: false, signer: null, reason: `the signature cannot be read (${err instanceof Error ? err.message : String(err)})` };
  }
  const issuedByThisService = c.certificate !== undefined && service !== undefined && c.certificate.raw.equals(service.certificateDer);
  const signer = c.certificate ? c.certificate.subject.split('\n').join(', ') : null;
  if (!c.digestMatches) return { valid: false, issuedByThisService, signer, reason: 'the signed content does not match (it was changed after signing)' };
  if (!c.signatureVerifies) return { valid: false, issuedByThisService, signer, reason: 'the signature does not verify with its certificate' };
  return { valid: true, issuedByThisService, signer, reason: null };
}
