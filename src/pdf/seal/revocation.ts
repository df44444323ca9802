// Revocation data for the DSS: for each certificate of the signing chain that names where its status
// is published (Authority Information Access → OCSP, CRL Distribution Points → a CRL over HTTP), that
// status, fetched now. Best effort: a responder that is down leaves its entry out (the DSS still holds
// the chain, and a verifier can fetch the status itself while the CA lives). A self-signed certificate
// names none, so with the default certificate there is nothing to fetch.
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
}

/** OCSP responses and CRLs for `chain` (DER, signer first, each followed by its issuer when known). */
export async function fetchRevocation(chain: readonly Uint8Array[], timeoutMs: number): Promise<Revocation> {
  const certs = chain.map((der) => pkijs.Certificate.fromBER(toArrayBuffer(der)));
  const out: Revocation = { ocsps: [], crls: [] };
  const seenCrl = new Set<string>();
  for (const cert of certs) {
    const issuer = certs.find((c) => c !== cert && Buffer.from(c.subject.toSchema().toBER()).equals(Buffer.from(cert.issuer.toSchema().toBER())));
    const ocspUrl = uris(cert, AIA).find((u) => u.method === OCSP_METHOD)?.uri;
    if (ocspUrl && issuer) {
      const response = await fetchOcsp(ocspUrl, cert, issuer, timeoutMs).catch(() => undefined);
      if (response) {
        out.ocsps.push(response);
        continue;
      }
    }
    for (const { uri } of uris(cert, CRL_DP)) {
      if (seenCrl.has(uri)) continue;
      seenCrl.add(uri);
      const crl = await fetchCrl(uri, timeoutMs).catch(() => undefined);
      if (crl) {
        out.crls.push(crl);
        break;
      }
    }
  }
  return out;
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
