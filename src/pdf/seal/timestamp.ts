// RFC 3161 time-stamp requests over HTTP (`application/timestamp-query`), to the configured TSAs in
// order: the first that answers with a token for our digest wins. A TSA that answers an error, a
// malformed reply or a token for other data, or that takes longer than its timeout, counts as failed
// and the next is asked; when every one fails the caller gets TimestampUnavailableError and no seal is
// written (a seal is never silently given the service's own clock instead of a timestamp).
import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { TimestampUnavailableError, type TsaFailure, type TsaSettings } from '../work.js';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const ID_CT_TSTINFO = '1.2.840.113549.1.9.16.1.4';

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

async function askOne(settings: TsaSettings, url: string, digest: Buffer): Promise<Timestamp> {
  const nonce = randomBytes(8);
  nonce[0]! &= 0x7f; // a positive INTEGER
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(digest) }),
    }),
    nonce: new asn1js.Integer({ valueHex: toArrayBuffer(nonce) }),
    certReq: true,
  });
  const headers: Record<string, string> = { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' };
  if (settings.username !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${settings.username}:${settings.password ?? ''}`).toString('base64')}`;
  }
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers, body: Buffer.from(request.toSchema().toBER()), signal: AbortSignal.timeout(settings.timeoutMs), redirect: 'error' });
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
  const certificates = (signed.certificates ?? []).flatMap((c) => (c instanceof pkijs.Certificate ? [Buffer.from(c.toSchema().toBER())] : []));
  return { token: Buffer.from(token.toSchema().toBER()), url, time: info.genTime, certificates };
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
