// The shape of test/fixtures/pdfs/attacks/manifest.json: what make-attack-corpus.ts writes and
// test/evidence/verify-attacks.test.ts checks each file against.

export type Level = 'none' | 'ltv_updates' | 'form_filling' | 'annotations' | 'other';

export interface ExpectedSignature {
  field: string;
  kind: 'signature' | 'document_timestamp';
  valid: boolean;
  modification_level: Level;
  /** Changes that must be listed (kind, and page when given). */
  changes_include?: { kind: string; page?: number }[];
  /** When true, `changes` must be empty. */
  no_changes?: boolean;
  reason_matches?: string;
}

export interface CorpusEntry {
  file: string;
  attack: string;
  /** `formsign verify` exits 0 and the /verify page says "Valid". */
  verified: boolean;
  issued_by_this_service: boolean;
  intact: boolean;
  modified_after_signing: boolean;
  signatures: ExpectedSignature[];
}

export interface CorpusManifest {
  description: string;
  service_certificate: { p12: string; password: string };
  form_id: string;
  files: CorpusEntry[];
}
