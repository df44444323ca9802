// What the verifier answers about a PDF (POST /api/v1/verify, the /verify page, `formsign verify`):
// the shape of openapi.yaml's Verification, kept here as plain types so the PDF layer needs nothing
// from the HTTP layer and the CLI can print it without a server.
import type { Change, ModificationLevel } from './diff-analysis.js';

export type { Change, ChangeKind, ModificationLevel } from './diff-analysis.js';

export interface CertificateSummary {
  /** One-line subject, e.g. "CN=Formsign document signing, O=Formsign". */
  subject: string;
  issuer: string;
  /** Subject equals issuer and the certificate's own key verifies its signature. */
  self_signed: boolean;
  /** The certificate is this service's seal certificate, or was issued by one in its chain. */
  trusted_by_service: boolean;
}

export interface TimestampSummary {
  /** The TSA's genTime (RFC 3339). */
  time: string;
  /** The TSA's name as the token gives it (its `tsa` field, else its certificate's subject). */
  tsa: string;
  /** The token's own signature verifies and its imprint is the hash of what it stamps. */
  valid: boolean;
}

export interface SignatureSummary {
  /** `signature` for an approval signature; `document_timestamp` for an RFC 3161 document timestamp (PAdES B-LTA). */
  kind: 'signature' | 'document_timestamp';
  /** The signature field's full name; `Perms/UR3` or `Perms/DocMDP` for a permissions signature. */
  field: string;
  signer_name?: string;
  /** The claimed signing time (the signature dictionary's /M, else the CMS signing-time), RFC 3339; null when neither is given. */
  signed_at: string | null;
  /** The ByteRange reaches from the first byte to the last byte of the file, leaving out only the signature itself. */
  covers_whole_document: boolean;
  /**
   * The digest of the ByteRange matches the CMS messageDigest, the CMS signature verifies with its
   * certificate's key, and that certificate was neither expired nor (by the revocation data the file
   * carries) revoked when it signed.
   */
  valid: boolean;
  /** Why `valid` is false, in a sentence. */
  reason?: string;
  /** What the revisions after this signature change, at worst (`none` when nothing follows it). */
  modification_level: ModificationLevel;
  /** Each change after this signature: validation data, metadata and content alike. */
  changes: Change[];
  certificate: CertificateSummary | null;
  timestamp?: TimestampSummary;
}

export interface Verification {
  object: 'verification';
  issued_by_this_service: boolean;
  form_id?: string;
  /** There is at least one signature and every signed byte range is unchanged (each digest matches). */
  intact: boolean;
  /** A revision after some signature changes more than validation data (a DSS, document timestamps) or metadata: some `modification_level` is beyond `ltv_updates`. */
  modified_after_signing: boolean;
  signatures: SignatureSummary[];
  ltv: { dss: boolean; ocsp: boolean; crl: boolean };
}

/** The service's seal certificate (DER) and its issuers: what `issued_by_this_service` and `trusted_by_service` compare with. */
export interface ServiceCertificates {
  certificateDer: Uint8Array;
  chainDer: readonly Uint8Array[];
}
