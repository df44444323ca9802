// The validation data a PDF carries in its DSS (PAdES B-LT): what each stream must parse as (a
// certificate, an OCSP response, a CRL, a timestamp token) for a later update to count as a
// validation update, and what the OCSP responses and CRLs say about a signer's certificate. This is
// reading what the file carries, not fetching anything: a verifier offline sees the same answer.
import { createHash, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export type DssKind = 'certificate' | 'ocsp' | 'crl' | 'timestamp';

const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
const HASHES: Readonly<Record<string, string>> = { '1.3.14.3.2.26': 'sha1', '2.16.840.1.101.3.4.2.1': 'sha256', '2.16.840.1.101.3.4.2.2': 'sha384', '2.16.840.1.101.3.4.2.3': 'sha512' };

/** `der` is a whole DER structure of the given kind (trailing bytes make it something else). */
export function parsesAs(kind: DssKind, der: Uint8Array): boolean {
  try {
    switch (kind) {
      case 'certificate':
        new X509Certificate(Buffer.from(der));
        return true;
      case 'ocsp':
        return basicResponse(der) !== undefined;
      case 'crl':
        return crlOf(der) !== undefined;
      case 'timestamp': {
        const asn = asn1js.fromBER(toArrayBuffer(der));
        if (asn.offset !== der.length) return false;
        return new pkijs.ContentInfo({ schema: asn.result }).contentType === '1.2.840.113549.1.7.2';
      }
    }
  } catch {
    return false;
  }
}

function whole(der: Uint8Array): asn1js.AsnType | undefined {
  const asn = asn1js.fromBER(toArrayBuffer(der));
  return asn.offset === -1 || asn.offset !== der.length ? undefined : asn.result;
}

function basicResponse(der: Uint8Array): pkijs.BasicOCSPResponse | undefined {
  const asn = whole(der);
  if (!asn) return undefined;
  const response = new pkijs.OCSPResponse({ schema: asn });
  const bytes = response.responseBytes;
  // A non-successful answer (tryLater, unauthorized…) is still an OCSP response; it says nothing.
  if (!bytes) return new pkijs.BasicOCSPResponse();
  if (bytes.responseType !== OCSP_BASIC) return undefined;
  return new pkijs.BasicOCSPResponse({ schema: asn1js.fromBER(bytes.response.valueBlock.valueHexView).result });
}

function crlOf(der: Uint8Array): pkijs.CertificateRevocationList | undefined {
  const asn = whole(der);
  return asn ? new pkijs.CertificateRevocationList({ schema: asn }) : undefined;
}

export interface Revoked {
  at: Date;
  /** `OCSP` or `CRL`: which kind of answer said so. */
  source: 'OCSP' | 'CRL';
}

/** The first OCSP response or CRL among those given that says `cert` is revoked, with when. */
export function revokedBy(cert: X509Certificate, ocsps: readonly Uint8Array[], crls: readonly Uint8Array[]): Revoked | undefined {
  let parsed: pkijs.Certificate;
  try {
    parsed = pkijs.Certificate.fromBER(toArrayBuffer(cert.raw));
  } catch {
    return undefined;
  }
  const serial = Buffer.from(parsed.serialNumber.valueBlock.valueHexView);
  const issuerName = Buffer.from(parsed.issuer.toSchema().toBER(false));
  for (const der of ocsps) {
    try {
      const basic = basicResponse(der);
      for (const single of basic?.tbsResponseData?.responses ?? []) {
        if (!Buffer.from(single.certID.serialNumber.valueBlock.valueHexView).equals(serial)) continue;
        const hash = HASHES[single.certID.hashAlgorithm.algorithmId];
        if (!hash || !createHash(hash).update(issuerName).digest().equals(Buffer.from(single.certID.issuerNameHash.valueBlock.valueHexView))) continue;
        const status = single.certStatus as asn1js.BaseBlock;
        if (status.idBlock.tagNumber !== 1) continue;
        const inner = (status as asn1js.Constructed).valueBlock.value[0];
        const at = inner instanceof asn1js.GeneralizedTime ? inner.toDate() : new Date(0);
        return { at, source: 'OCSP' };
      }
    } catch {
      // An unreadable answer says nothing.
    }
  }
  for (const der of crls) {
    try {
      const crl = crlOf(der);
      if (!crl || !Buffer.from(crl.issuer.toSchema().toBER(false)).equals(issuerName)) continue;
      const entry = (crl.revokedCertificates ?? []).find((r) => Buffer.from(r.userCertificate.valueBlock.valueHexView).equals(serial));
      if (entry) return { at: entry.revocationDate.value, source: 'CRL' };
    } catch {
      // As above.
    }
  }
  return undefined;
}
