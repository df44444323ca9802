// Checking one CMS SignedData (a PDF signature's /Contents, or an RFC 3161 timestamp token): the
// digest of what it signs against its messageDigest attribute, and its signature against its
// certificate's public key. pkijs reads the structures; node:crypto computes and verifies, so no
// WebCrypto engine is involved and everything stays synchronous inside the worker thread.
import { createHash, verify, X509Certificate, constants, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export const OID = {
  signedData: '1.2.840.113549.1.7.2',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
} as const;

const DIGESTS: Readonly<Record<string, string>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '2.16.840.1.101.3.4.2.4': 'sha224',
};

// Signature algorithms that name their own hash; the rest (rsaEncryption, id-ecPublicKey) use the
// signer's digest algorithm.
const SIGNATURE_HASH: Readonly<Record<string, string>> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.113549.1.1.14': 'sha224',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};
const RSASSA_PSS = '1.2.840.113549.1.1.10';
const ED25519 = '1.3.101.112';

const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const bytesOf = (b: ArrayBuffer): Buffer => Buffer.from(b);

/** The node name of a digest algorithm OID, or undefined for one we do not know. */
export function digestName(oid: string): string | undefined {
  return DIGESTS[oid];
}

export interface CmsCheck {
  /** The content's digest equals the messageDigest attribute (or, without signed attributes, the signature covers the content directly). */
  digestMatches: boolean;
  /** The signature verifies with the signer certificate's public key. */
  signatureVerifies: boolean;
  certificate: X509Certificate | undefined;
  /** Every certificate the CMS carries (the signer's issuers among them). */
  certificates: X509Certificate[];
  signingTime: Date | undefined;
  /** The signer's signature value: what a signature timestamp stamps. */
  signatureValue: Buffer;
  /** An RFC 3161 token in the unsigned attributes (id-aa-signatureTimeStampToken). */
  timestampToken: Buffer | undefined;
  /** The encapsulated content, when the CMS carries its content (a timestamp token's TSTInfo). */
  eContent: Buffer | undefined;
}

/** The DER (or BER) element at the start of `bytes` (a /Contents is padded with zeros after it). */
export function firstDerElement(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 2 || bytes[0] !== 0x30) throw new Error('not a DER SEQUENCE');
  const first = bytes[1]!;
  if (first < 0x80) return bytes.subarray(0, 2 + first);
  // BER's indefinite length (older Acrobat writes it): the parser finds the end-of-contents itself.
  if (first === 0x80) return bytes;
  const count = first & 0x7f;
  if (count === 0 || count > 4 || bytes.length < 2 + count) throw new Error('unsupported DER length');
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + bytes[2 + i]!;
  const end = 2 + count + length;
  if (end > bytes.length) throw new Error('DER element longer than its room');
  return bytes.subarray(0, end);
}

export function parseSignedData(der: Uint8Array): pkijs.SignedData {
  const info = pkijs.ContentInfo.fromBER(toArrayBuffer(firstDerElement(der)));
  if (info.contentType !== OID.signedData) throw new Error(`not a CMS SignedData (${info.contentType})`);
  return new pkijs.SignedData({ schema: info.content });
}

/**
 * Checks the first SignerInfo of `der` over `content`: the chunks of bytes it signs (a PDF's byte
 * ranges), or, when omitted, the content the CMS encapsulates (a timestamp token).
 */
export function checkCms(der: Uint8Array, content?: readonly Uint8Array[]): CmsCheck {
  const signed = parseSignedData(der);
  const signer = signed.signerInfos[0];
  if (!signer) throw new Error('the CMS has no signer');
  const eContent = encapsulated(signed);
  const chunks = content ?? (eContent ? [eContent] : []);
  const certs = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const nodeCerts = certs.map((c) => new X509Certificate(Buffer.from(c.toSchema().toBER())));
  const digestAlg = digestName(signer.digestAlgorithm.algorithmId);
  const signatureValue = bytesOf(signer.signature.valueBlock.valueHexView.slice().buffer);
  const attrs = signer.signedAttrs?.attributes ?? [];
  const attr = (oid: string) => attrs.find((a) => a.type === oid)?.values[0];
  let digestMatches = false;
  let toVerify: Buffer;
  if (signer.signedAttrs) {
    const md = attr(OID.messageDigest);
    if (digestAlg && md instanceof asn1js.OctetString) {
      const h = createHash(digestAlg);
      for (const c of chunks) h.update(c);
      digestMatches = h.digest().equals(bytesOf(md.getValue()));
    }
    // encodedValue is the attributes as received, already re-tagged as the SET that was signed.
    toVerify = bytesOf(signer.signedAttrs.encodedValue);
  } else {
    toVerify = Buffer.concat(chunks);
    digestMatches = true;
  }
  const matched = certs.findIndex((c) => matchesSid(c, signer.sid));
  const candidates = matched >= 0 ? [matched] : nodeCerts.map((_, i) => i);
  let certificate = matched >= 0 ? nodeCerts[matched] : nodeCerts[0];
  let signatureVerifies = false;
  for (const i of candidates) {
    if (verifies(signer, digestAlg, toVerify, signatureValue, nodeCerts[i]!.publicKey)) {
      signatureVerifies = true;
      certificate = nodeCerts[i];
      break;
    }
  }
  const time = attr(OID.signingTime);
  const signingTime = time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime ? time.toDate() : undefined;
  const tokenAttr = signer.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken)?.values[0];
  // The token's bytes as received: re-encoding a parsed BER token can change them (lengths), and its
  // own signature covers them.
  const timestampToken = tokenAttr ? Buffer.from(tokenAttr.valueBeforeDecodeView.byteLength > 0 ? tokenAttr.valueBeforeDecodeView : new Uint8Array(tokenAttr.toBER())) : undefined;
  return { digestMatches, signatureVerifies, certificate, certificates: nodeCerts, signingTime, signatureValue, timestampToken, eContent };
}

function encapsulated(signed: pkijs.SignedData): Buffer | undefined {
  const e = signed.encapContentInfo.eContent;
  return e instanceof asn1js.OctetString ? bytesOf(e.getValue()) : undefined;
}

function matchesSid(cert: pkijs.Certificate, sid: pkijs.SignerInfo['sid']): boolean {
  if (sid instanceof pkijs.IssuerAndSerialNumber) return cert.issuer.isEqual(sid.issuer) && cert.serialNumber.isEqual(sid.serialNumber);
  // SubjectKeyIdentifier, [0] IMPLICIT OCTET STRING.
  const ski = cert.extensions?.find((x) => x.extnID === '2.5.29.14')?.parsedValue;
  if (!(ski instanceof asn1js.OctetString) || !(sid instanceof asn1js.BaseBlock)) return false;
  const sidBytes = Buffer.from((sid as asn1js.Primitive).valueBlock.valueHexView);
  return sidBytes.equals(bytesOf(ski.getValue()));
}

function verifies(signer: pkijs.SignerInfo, digestAlg: string | undefined, data: Buffer, signature: Buffer, key: KeyObject): boolean {
  const alg = signer.signatureAlgorithm.algorithmId;
  try {
    if (alg === ED25519) return verify(null, data, key, signature);
    if (alg === RSASSA_PSS) {
      const params = new pkijs.RSASSAPSSParams({ schema: signer.signatureAlgorithm.algorithmParams });
      const hash = digestName(params.hashAlgorithm.algorithmId) ?? 'sha1';
      return verify(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: params.saltLength }, signature);
    }
    const hash = SIGNATURE_HASH[alg] ?? digestAlg;
    if (!hash) return false;
    return verify(hash, data, key.asymmetricKeyType === 'ec' ? { key, dsaEncoding: 'der' } : key, signature);
  } catch {
    return false;
  }
}

/** One-line form of a certificate name, as certificate.ts writes the service's ("CN=…, O=…"). */
export function oneLine(name: string): string {
  return name.split('\n').join(', ');
}
