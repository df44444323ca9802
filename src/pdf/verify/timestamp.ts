// RFC 3161 timestamp tokens: the one a signature carries over its signature value
// (id-aa-signatureTimeStampToken, PAdES B-T) and a document timestamp (/SubFilter /ETSI.RFC3161,
// PAdES B-LTA) over its byte ranges. A token is valid when its own CMS verifies with the TSA's
// certificate and its imprint is the hash of what it claims to stamp.
import { createHash, type X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';
import { checkCms, digestName, oneLine, type CmsCheck } from './cms-check.js';
import type { TimestampSummary } from './verification.js';

const NAME_TYPES: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN', '2.5.4.10': 'O', '2.5.4.11': 'OU', '2.5.4.6': 'C', '2.5.4.7': 'L', '2.5.4.8': 'ST', '2.5.4.5': 'serialNumber',
};

const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

export interface CheckedToken {
  summary: TimestampSummary;
  cms: CmsCheck;
  /** The token's imprint is the hash of what it stamps. */
  imprintMatches: boolean;
}

/** Checks `token` as a stamp over the concatenation of `stamped`. */
export function checkTimestampToken(token: Uint8Array, stamped: readonly Uint8Array[]): CheckedToken {
  const cms = checkCms(token);
  if (!cms.eContent) throw new Error('the timestamp token carries no TSTInfo');
  const tst = pkijs.TSTInfo.fromBER(toArrayBuffer(cms.eContent));
  const hash = digestName(tst.messageImprint.hashAlgorithm.algorithmId);
  let imprintMatches = false;
  if (hash) {
    const h = createHash(hash);
    for (const s of stamped) h.update(s);
    imprintMatches = h.digest().equals(Buffer.from(tst.messageImprint.hashedMessage.getValue()));
  }
  return {
    cms,
    imprintMatches,
    summary: {
      time: tst.genTime.toISOString(),
      tsa: tsaName(tst.tsa, cms.certificate),
      valid: imprintMatches && cms.digestMatches && cms.signatureVerifies,
    },
  };
}

function tsaName(name: pkijs.GeneralName | undefined, cert: X509Certificate | undefined): string {
  // directoryName [4]: a Name; other forms (a URI, a DNS name) are strings.
  if (name?.type === 4 && name.value instanceof pkijs.RelativeDistinguishedNames) {
    const parts = name.value.typesAndValues.map((tv) => `${NAME_TYPES[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value)}`);
    if (parts.length > 0) return parts.join(', ');
  }
  if (name && typeof name.value === 'string') return name.value;
  return cert ? oneLine(cert.subject) : 'unknown';
}
