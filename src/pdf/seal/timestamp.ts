// RFC 3161 time-stamp requests over HTTP (`application/timestamp-query`), to the configured TSAs in
// order: the first that answers with a token for our digest wins. A TSA that answers an error, a
// malformed reply, a token for other data, a token whose CMS signature does not verify with the
// certificate it carries or whose signer certificate lacks the critical extended key usage
// id-kp-timeStamping (RFC 3161 2.3), or that takes longer than its timeout, counts as failed and the
// next is asked; when every one fails the caller gets TimestampUnavailableError and no seal is
// written (a seal is never silently given the service's own clock instead of a timestamp).
import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { TimestampUnavailableError, type TsaFailure, type TsaSettings } from '../work.js';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const ID_CT_TSTINFO = '1.2.840.113549.1.9.16.1.4';
const EXTENDED_KEY_USAGE = '2.5.29.37';
const ID_KP_TIMESTAMPING = '1.3.6.1.5.5.7.3.8';
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const SUBJECT_KEY_IDENTIFIER = '2.5.29.14';
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
// Digest algorithms a TSA may sign with, by OID, as WebCrypto names them.
const DIGESTS: Readonly<Record<string, string>> = {
  '1.3.14.3.2.26': 'SHA-1', [SHA256]: 'SHA-256', '2.16.840.1.101.3.4.2.2': 'SHA-384', '2.16.840.1.101.3.4.2.3': 'SHA-512',
};

const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

export interface Timestamp {
  /** The TimeStampToken: a CMS ContentInfo (DER), as it goes into the signature or /Contents. */
  readonly token: Buffer;
  readonly url: string;
  /** The TSA's genTime. */
  readonly time: Date;
  /** The certificates the token carries (DER): the TSA's chain, for the DSS. */
  readonly certificates: readonly Buffer[];
}

/** SHA-256, the one digest seals and their timestamps use. */
export const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest();

/** Asks each TSA in turn for a token over a SHA-256 `digest`; `failures` lists the ones that failed first. */
export async function requestTimestamp(settings: TsaSettings, digest: Buffer): Promise<{ timestamp: Timestamp; failures: TsaFailure[] }> {
  const failures: TsaFailure[] = [];
  for (const url of settings.urls) {
    try {
      return { timestamp: await askOne(settings, url, digest), failures };
    } catch (err) {
      failures.push({ url, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  throw new TimestampUnavailableError(failures);
}

/**
 * The content octets of a DER INTEGER for the non-negative number `bytes` holds (big-endian): leading
 * zero bytes dropped, one kept only where the next byte's top bit would otherwise make it negative
 * (X.690 8.3.2). A strict TSA refuses `00 7f …` as not DER.
 */
export function minimalIntegerBytes(bytes: Uint8Array): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && bytes[start + 1]! < 0x80) start++;
  const out = Buffer.from(bytes.subarray(start));
  return out.length > 0 && out[0]! >= 0x80 ? Buffer.concat([Buffer.from([0]), out]) : out;
}

/** The DER TimeStampReq for a SHA-256 `digest`, with `nonce` (any bytes, read as a non-negative number). */
export function timestampRequest(digest: Buffer, nonce: Uint8Array): Buffer {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(digest) }),
    }),
    nonce: new asn1js.Integer({ valueHex: toArrayBuffer(minimalIntegerBytes(nonce)) }),
    certReq: true,
  });
  return Buffer.from(request.toSchema().toBER());
}

async function askOne(settings: TsaSettings, url: string, digest: Buffer): Promise<Timestamp> {
  const nonce = randomBytes(8);
  const headers: Record<string, string> = { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' };
  if (settings.username !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${settings.username}:${settings.password ?? ''}`).toString('base64')}`;
  }
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers, body: timestampRequest(digest, nonce), signal: AbortSignal.timeout(settings.timeoutMs), redirect: 'error' });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (e.name === 'TimeoutError') throw new Error(`no answer within ${settings.timeoutMs} ms`);
    throw new Error(`could not be reached (${e.cause?.code ?? e.message})`);
  }
  const body = Buffer.from(await readBody(res, settings.timeoutMs));
  if (!res.ok) throw new Error(`answered HTTP ${res.status}`);
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(toArrayBuffer(body));
  } catch {
    throw new Error('answered something that is not an RFC 3161 time-stamp response');
  }
  const status = response.status.status;
  if ((status !== 0 && status !== 1) || !response.timeStampToken) {
    const text = response.status.statusStrings?.map((s) => s.valueBlock.value).join('; ');
    throw new Error(`refused the request (PKIStatus ${status}${text ? `: ${text}` : ''})`);
  }
  const token = response.timeStampToken;
  const signed = new pkijs.SignedData({ schema: token.content });
  if (signed.encapContentInfo.eContentType !== ID_CT_TSTINFO || !signed.encapContentInfo.eContent) throw new Error('answered a token without TSTInfo');
  const info = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent.getValue());
  const imprint = Buffer.from(info.messageImprint.hashedMessage.getValue());
  if (info.messageImprint.hashAlgorithm.algorithmId !== SHA256 || !imprint.equals(digest)) throw new Error('answered a token for other data');
  if (!info.nonce || asNumber(Buffer.from(info.nonce.valueBlock.valueHexView)) !== asNumber(nonce)) throw new Error('answered a token with another nonce');
  await checkTokenSignature(signed, info.genTime);
  const certificates = (signed.certificates ?? []).flatMap((c) => (c instanceof pkijs.Certificate ? [Buffer.from(c.toSchema().toBER())] : []));
  return { token: Buffer.from(token.toSchema().toBER()), url, time: info.genTime, certificates };
}

/**
 * The token's CMS signature verifies with the signer certificate it carries (the messageDigest
 * attribute over the TSTInfo, the signature over the signed attributes), and that certificate is a
 * time-stamping one: the critical EKU id-kp-timeStamping, valid at the token's genTime. Whether the
 * TSA is one to trust is the verifier's question; this one is whether the token is what it claims.
 */
async function checkTokenSignature(signed: pkijs.SignedData, genTime: Date): Promise<void> {
  if (signed.signerInfos.length !== 1) throw new Error(`answered a token with ${signed.signerInfos.length} signers`);
  const signerInfo = signed.signerInfos[0]!;
  const signer = signerCertificate(signed, signerInfo);
  if (!signer) throw new Error('answered a token without its signer certificate');
  // pkijs's own SignedData.verify wants the stamped data itself (it re-checks the imprint), which we
  // do not have: the digest, the attributes and the signature are checked here instead.
  const engine = pkijs.getCrypto(true);
  const hash = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  const attrs = signerInfo.signedAttrs;
  const digestAttr = attrs?.attributes.find((a) => a.type === MESSAGE_DIGEST)?.values[0];
  const eContent = signed.encapContentInfo.eContent?.getValue();
  if (!hash || !attrs || !(digestAttr instanceof asn1js.OctetString) || !eContent) throw new Error('answered a token without a message digest over its TSTInfo');
  const computed = createHash(hash.replace('-', '').toLowerCase()).update(new Uint8Array(eContent)).digest();
  let verified = computed.equals(Buffer.from(digestAttr.valueBlock.valueHexView));
  if (verified) {
    try {
      verified = await engine.verifyWithPublicKey(attrs.encodedValue, signerInfo.signature, signer.subjectPublicKeyInfo, signerInfo.signatureAlgorithm,
        signerInfo.signatureAlgorithm.algorithmId === RSA_ENCRYPTION ? hash : undefined);
    } catch {
      verified = false;
    }
  }
  if (!verified) throw new Error('answered a token whose signature does not verify');
  const eku = signer.extensions?.find((e) => e.extnID === EXTENDED_KEY_USAGE);
  const usages = eku?.parsedValue instanceof pkijs.ExtKeyUsage ? eku.parsedValue.keyPurposes : [];
  if (!eku?.critical || !usages.includes(ID_KP_TIMESTAMPING)) {
    throw new Error('answered a token signed by a certificate without the critical extended key usage timeStamping');
  }
  if (genTime < signer.notBefore.value || genTime > signer.notAfter.value) throw new Error('answered a token signed outside its certificate\'s validity');
}

/** The certificate the signer info names (by issuer and serial, or by subject key identifier). */
function signerCertificate(signed: pkijs.SignedData, signerInfo: pkijs.SignerInfo): pkijs.Certificate | undefined {
  const certs = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const sid = signerInfo.sid as unknown;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certs.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber));
  }
  if (sid instanceof asn1js.Primitive) {
    const keyId = Buffer.from(sid.valueBlock.valueHexView);
    return certs.find((c) => {
      const ski = c.extensions?.find((e) => e.extnID === SUBJECT_KEY_IDENTIFIER)?.parsedValue;
      return ski instanceof asn1js.OctetString && Buffer.from(ski.valueBlock.valueHexView).equals(keyId);
    });
  }
  return undefined;
}

/** The body, within the same timeout (a TSA may send headers and then stall). */
async function readBody(res: Response, timeoutMs: number): Promise<ArrayBuffer> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([res.arrayBuffer(), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

// Compared as numbers: DER drops leading zero bytes of an INTEGER (and adds one before a high bit).
const asNumber = (b: Buffer): bigint => (b.length === 0 ? 0n : BigInt(`0x${b.toString('hex')}`));
