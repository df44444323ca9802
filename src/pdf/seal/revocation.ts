// Revocation data for the DSS: for each certificate a seal depends on (the signing chain, each TSA's
// chain) that names where its status is published (Authority Information Access → OCSP, CRL
// Distribution Points → a CRL over HTTP), that status, fetched now. Best effort: a responder that is
// down leaves its entry out (the DSS still holds the chain; the seal's level then says B-T, not B-LT).
// A self-signed certificate (a root, or the default service certificate) is a trust anchor: nothing
// to fetch. What the data says is read too: a revoked signing certificate never seals (seal-pdf.ts).
import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const AIA = '1.3.6.1.5.5.7.1.1';
const OCSP_METHOD = '1.3.6.1.5.5.7.48.1';
const CRL_DP = '2.5.29.31';
const URI = 6; // GeneralName uniformResourceIdentifier [6]

const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

export interface Revocation {
  readonly ocsps: Uint8Array[];
  readonly crls: Uint8Array[];
  /** SHA-256 (hex) of each certificate an OCSP response or a CRL above speaks for. */
  readonly covered: Set<string>;
  /** Certificates that data says are revoked, named for a person. */
  readonly revoked: string[];
}

const hex = (der: Uint8Array): string => createHash('sha256').update(der).digest('hex');
const sameName = (a: pkijs.RelativeDistinguishedNames, b: pkijs.RelativeDistinguishedNames): boolean =>
  Buffer.from(a.toSchema().toBER()).equals(Buffer.from(b.toSchema().toBER()));

/** A self-signed certificate (a root): a trust anchor, which no OCSP response or CRL speaks for. */
export function isSelfSigned(der: Uint8Array): boolean {
  const cert = pkijs.Certificate.fromBER(toArrayBuffer(der));
  return sameName(cert.subject, cert.issuer);
}

/**
 * OCSP responses and CRLs for the certificates of `chain` (DER, in any order; each certificate's issuer
 * is looked for among them), with the status they give. One CRL serves every certificate it lists
 * the issuer of, and is fetched once. Certificates in `already` (SHA-256 hex) are covered elsewhere.
 */
export async function fetchRevocation(chain: readonly Uint8Array[], timeoutMs: number, already: ReadonlySet<string> = new Set()): Promise<Revocation> {
  const certs = chain.map((der) => ({ der, cert: pkijs.Certificate.fromBER(toArrayBuffer(der)) }));
  const out: Revocation = { ocsps: [], crls: [], covered: new Set(), revoked: [] };
  const crlByUri = new Map<string, Promise<pkijs.CertificateRevocationList | undefined>>();
  for (const { der, cert } of certs) {
    if (sameName(cert.subject, cert.issuer) || already.has(hex(der))) continue;
    const issuer = certs.find((c) => c.cert !== cert && sameName(c.cert.subject, cert.issuer))?.cert;
    const ocspUrl = uris(cert, AIA).find((u) => u.method === OCSP_METHOD)?.uri;
    if (ocspUrl && issuer) {
      const response = await fetchOcsp(ocspUrl, cert, issuer, timeoutMs).catch(() => undefined);
      const status = response ? ocspStatus(response, cert) : undefined;
      if (response && status) {
        out.ocsps.push(response);
        out.covered.add(hex(der));
        if (status === 'revoked') out.revoked.push(`${describe(cert)} (OCSP, ${ocspUrl})`);
        continue;
      }
    }
    for (const { uri } of uris(cert, CRL_DP)) {
      let pending = crlByUri.get(uri);
      if (!pending) {
        crlByUri.set(uri, (pending = fetchCrl(uri, timeoutMs).then((body) => {
          out.crls.push(body);
          return pkijs.CertificateRevocationList.fromBER(toArrayBuffer(body));
        }, () => undefined)));
      }
      const crl = await pending;
      if (!crl || !sameName(crl.issuer, cert.issuer)) continue;
      out.covered.add(hex(der));
      if (crl.revokedCertificates?.some((r) => r.userCertificate.isEqual(cert.serialNumber))) out.revoked.push(`${describe(cert)} (CRL, ${uri})`);
      break;
    }
  }
  return out;
}

/** What the OCSP response says of `cert`: undefined when it says nothing of it. */
function ocspStatus(body: Uint8Array, cert: pkijs.Certificate): 'good' | 'revoked' | 'unknown' | undefined {
  const response = pkijs.OCSPResponse.fromBER(toArrayBuffer(body));
  if (!response.responseBytes) return undefined;
  const basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes.response.valueBlock.valueHexView);
  const single = basic.tbsResponseData.responses.find((r) => r.certID.serialNumber.isEqual(cert.serialNumber));
  if (!single) return undefined;
  // CertStatus ::= CHOICE { good [0], revoked [1], unknown [2] }
  const tag = (single.certStatus as { idBlock?: { tagNumber?: number } }).idBlock?.tagNumber;
  return tag === 0 ? 'good' : tag === 1 ? 'revoked' : 'unknown';
}

/** "CN=…, serial 0a1b…": the certificate named for an operator. */
export function describe(cert: pkijs.Certificate): string {
  const cn = cert.subject.typesAndValues.find((t) => t.type === '2.5.4.3');
  const name = cn ? `CN=${String(cn.value.valueBlock.value)}` : 'a certificate';
  return `${name}, serial ${Buffer.from(cert.serialNumber.valueBlock.valueHexView).toString('hex')}`;
}

/** The http(s) URIs a certificate extension names (AIA: with their access method). */
function uris(cert: pkijs.Certificate, extnID: string): Array<{ uri: string; method?: string }> {
  const ext = cert.extensions?.find((e) => e.extnID === extnID);
  if (!ext?.parsedValue) return [];
  const found: Array<{ uri: string; method?: string }> = [];
  const add = (name: pkijs.GeneralName, method?: string): void => {
    if (name.type === URI && typeof name.value === 'string' && /^https?:\/\//i.test(name.value)) found.push({ uri: name.value, ...(method ? { method } : {}) });
  };
  if (ext.parsedValue instanceof pkijs.InfoAccess) {
    for (const d of ext.parsedValue.accessDescriptions) add(d.accessLocation, d.accessMethod);
  } else if (ext.parsedValue instanceof pkijs.CRLDistributionPoints) {
    for (const dp of ext.parsedValue.distributionPoints) {
      if (Array.isArray(dp.distributionPoint)) for (const n of dp.distributionPoint) add(n);
    }
  }
  return found;
}

async function fetchOcsp(url: string, cert: pkijs.Certificate, issuer: pkijs.Certificate, timeoutMs: number): Promise<Uint8Array> {
  const req = new pkijs.OCSPRequest();
  await req.createForCertificate(cert, { hashAlgorithm: 'SHA-1', issuerCertificate: issuer });
  const res = await fetch(url, {
    method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: Buffer.from(req.toSchema(true).toBER()), signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`OCSP responder answered ${res.status}`);
  const body = new Uint8Array(await res.arrayBuffer());
  const parsed = pkijs.OCSPResponse.fromBER(toArrayBuffer(body));
  if (parsed.responseStatus.valueBlock.valueDec !== 0) throw new Error('OCSP responder refused');
  return body;
}

async function fetchCrl(url: string, timeoutMs: number): Promise<Uint8Array> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`CRL server answered ${res.status}`);
  let body = Buffer.from(await res.arrayBuffer());
  const text = body.subarray(0, 64).toString('latin1');
  if (text.includes('-----BEGIN X509 CRL-----')) {
    body = Buffer.from(body.toString('latin1').replace(/-----(BEGIN|END) X509 CRL-----|\s+/g, ''), 'base64');
  }
  const asn = asn1js.fromBER(toArrayBuffer(body));
  if (asn.offset === -1) throw new Error('not a CRL');
  pkijs.CertificateRevocationList.fromBER(toArrayBuffer(body));
  return body;
}
