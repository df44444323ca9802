// A detached CMS signature over any bytes with the service's seal key (issue 40: the evidence
// bundle's manifest.json.p7s). The same SignedData the PDF seal makes (cms.ts), so `openssl cms
// -verify -binary -content FILE` and the verifier check it like a PDF signature's.
import { createHash } from 'node:crypto';
import type { SigningCertificate } from './certificate.js';
import { buildCadesSignature } from './cms.js';

/** DER of a detached CMS SignedData over `content`, signed with `cert`. */
export function signDetached(content: Uint8Array, cert: SigningCertificate): Promise<Buffer> {
  return buildCadesSignature(createHash('sha256').update(content).digest(), cert);
}
