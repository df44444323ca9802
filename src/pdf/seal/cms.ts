// The CMS SignedData a PAdES signature carries (ETSI EN 319 142-1, baseline B-B): detached, SHA-256
// with RSA, and signed attributes contentType, messageDigest and signingCertificateV2 (which binds
// the signer's certificate into what is signed). No signing-time attribute: PAdES puts the claimed
// time in the signature dictionary's /M instead. Structures come from pkijs/asn1js; the signature
// itself from node:crypto. With a TSA (B-T), the signer info also carries, unsigned, an RFC 3161
// token over the signature value (id-aa-signatureTimeStampToken): proof the signature existed then.
import { createHash, sign } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { certificateHash, type SigningCertificate } from './certificate.js';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
} as const;

const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

interface Prepared { certs: pkijs.Certificate[]; signer: pkijs.Certificate; essCertIdV2: asn1js.Sequence; template?: Template | null }

/**
 * A B-B SignedData of one certificate chain as DER, with where its two variable parts go: the
 * messageDigest (32 bytes, in the signed attributes) and the signature value (the key's modulus
 * length: RSA PKCS#1 v1.5 always gives exactly that many bytes). Everything else in a B-B CMS is the
 * same for every seal, so a seal copies this and writes those two in, instead of building the
 * structures with pkijs and encoding them (the certificates included) again: most of the CMS's CPU
 * (issue 36). The bytes are the same as pkijs's: the template is made by pkijs itself, twice, with
 * two different fillers, and kept only if exactly those two ranges differ.
 */
interface Template { der: Buffer; signedAttrs: Buffer; digestInAttrs: number; digestInDer: number; signatureInDer: number; signatureLength: number }
// Parsing the certificates once: every seal signs with the same ones. Keyed by their bytes, not the
// object: each pool job gets its own copy of the certificate (structured clone).
const prepared = new Map<string, Prepared>();
const chainKey = (cert: SigningCertificate): string =>
  [cert.certificateDer, ...cert.chainDer].map((der) => createHash('sha256').update(der).digest('hex')).join(' ');

function prepare(cert: SigningCertificate): Prepared {
  const key = chainKey(cert);
  let p = prepared.get(key);
  if (!p) {
    const certs = [cert.certificateDer, ...cert.chainDer].map((der) => pkijs.Certificate.fromBER(toArrayBuffer(der)));
    const signer = certs[0]!;
    // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }; ESSCertIDv2 with the
    // hash algorithm left at its default (SHA-256, so DER omits it) and IssuerSerial.
    const essCertIdV2 = new asn1js.Sequence({
      value: [new asn1js.Sequence({
        value: [new asn1js.Sequence({
          value: [
            new asn1js.OctetString({ valueHex: toArrayBuffer(certificateHash(cert)) }),
            new asn1js.Sequence({
              value: [
                // GeneralNames with one directoryName [4] (explicit: Name is a CHOICE).
                new asn1js.Sequence({ value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [signer.issuer.toSchema()] })] }),
                signer.serialNumber,
              ],
            }),
          ],
        })],
      })],
    });
    p = { certs, signer, essCertIdV2 };
    // A replaced certificate (a restart with a new SIGNING_CERT_P12) need not stay in memory.
    if (prepared.size >= 4) prepared.clear();
    prepared.set(key, p);
  }
  return p;
}

/**
 * Given the signature value, the TimeStampToken (a CMS ContentInfo, DER) over it; throws when no TSA
 * gives one.
 */
export type SignatureTimestamper = (signatureValue: Uint8Array) => Promise<Uint8Array>;

/** DER of a detached CMS SignedData over a document whose SHA-256 is `digest`, timestamped when a timestamper is given. */
export async function buildCadesSignature(digest: Uint8Array, cert: SigningCertificate, timestamper?: SignatureTimestamper): Promise<Buffer> {
  const p = prepare(cert);
  if (timestamper || digest.length !== 32) return encodeCades(p, digest, cert, timestamper);
  if (p.template === undefined) p.template = await makeTemplate(p, cert);
  if (!p.template) return encodeCades(p, digest, cert);
  const t = p.template;
  const signedAttrs = Buffer.from(t.signedAttrs);
  signedAttrs.set(digest, t.digestInAttrs);
  const signature = sign('sha256', signedAttrs, cert.key);
  if (signature.length !== t.signatureLength) return encodeCades(p, digest, cert);
  const der = Buffer.from(t.der);
  der.set(digest, t.digestInDer);
  der.set(signature, t.signatureInDer);
  return der;
}

/** The template of `p`'s B-B CMS, or null when the two fillers differ anywhere else (then pkijs builds each one). */
async function makeTemplate(p: Prepared, cert: SigningCertificate): Promise<Template | null> {
  const length = sign('sha256', Buffer.alloc(1), cert.key).length;
  const filled = (fill: number) => encodeCadesWith(p, Buffer.alloc(32, fill), () => Buffer.alloc(length, fill));
  const [a, b] = [await filled(0x00), await filled(0xff)];
  const differing = (x: Buffer, y: Buffer): Array<[number, number]> => {
    const ranges: Array<[number, number]> = [];
    for (let i = 0; i < x.length; i++) {
      if (x[i] === y[i]) continue;
      const last = ranges[ranges.length - 1];
      if (last && last[1] === i) last[1] = i + 1;
      else ranges.push([i, i + 1]);
    }
    return ranges;
  };
  if (a.der.length !== b.der.length || a.signedAttrs.length !== b.signedAttrs.length) return null;
  const inAttrs = differing(a.signedAttrs, b.signedAttrs);
  const inDer = differing(a.der, b.der);
  const width = (r: [number, number] | undefined) => (r ? r[1] - r[0] : -1);
  if (inAttrs.length !== 1 || width(inAttrs[0]) !== 32 || inDer.length !== 2 || width(inDer[0]) !== 32 || width(inDer[1]) !== length) return null;
  return { der: a.der, signedAttrs: a.signedAttrs, digestInAttrs: inAttrs[0]![0], digestInDer: inDer[0]![0], signatureInDer: inDer[1]![0], signatureLength: length };
}

async function encodeCades(p: Prepared, digest: Uint8Array, cert: SigningCertificate, timestamper?: SignatureTimestamper): Promise<Buffer> {
  return (await encodeCadesWith(p, digest, (toSign) => sign('sha256', toSign, cert.key), timestamper)).der;
}

/** The CMS built by pkijs (`der`), `signWith` giving the signature value of the signed attributes (`signedAttrs`, as signed). */
async function encodeCadesWith(p: Prepared, digest: Uint8Array, signWith: (toSign: Buffer) => Buffer, timestamper?: SignatureTimestamper): Promise<{ der: Buffer; signedAttrs: Buffer }> {
  const { certs, signer, essCertIdV2 } = p;
  const attributes = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: toArrayBuffer(digest) })] }),
    new pkijs.Attribute({ type: OID.signingCertificateV2, values: [essCertIdV2] }),
  ];
  // DER orders a SET OF by the encodings of its members.
  const encoded = (a: pkijs.Attribute): Buffer => Buffer.from(a.toSchema().toBER());
  attributes.sort((a, b) => Buffer.compare(encoded(a), encoded(b)));
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes });
  // What is signed is the attributes as a SET (tag 0x31), not as the [0] they are stored with.
  const toSign = Buffer.from(signedAttrs.toSchema().toBER());
  toSign[0] = 0x31;
  const signature = signWith(toSign);
  const sha256 = () => new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 });
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
    digestAlgorithm: sha256(),
    signedAttrs,
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.rsaEncryption, algorithmParams: new asn1js.Null() }),
    signature: new asn1js.OctetString({ valueHex: toArrayBuffer(signature) }),
  });
  if (timestamper) {
    const token = await timestamper(signature);
    const asn = asn1js.fromBER(toArrayBuffer(token));
    if (asn.offset === -1) throw new Error('The timestamp token is not DER');
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [asn.result] })],
    });
  }
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    digestAlgorithms: [sha256()],
    certificates: certs,
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return { der: Buffer.from(contentInfo.toSchema().toBER()), signedAttrs: toSign };
}
