// The one storage seam for PDFs and other binary artefacts, so the rest of the service never knows
// whether bytes live on local disk (single-node installs, tests) or in an S3-compatible bucket.
export interface BlobStore {
  put(key: string, data: Uint8Array, contentType?: string): Promise<void>;
  /** Resolves to null when the key is absent. */
  get(key: string): Promise<Uint8Array | null>;
  exists(key: string): Promise<boolean>;
  /** Deleting an absent key is not an error, so retries and cleanup jobs stay idempotent. */
  delete(key: string): Promise<void>;
  /** Every blob whose key starts with `prefix` (a whole segment path such as `renders/`), in no order. */
  list(prefix: string): Promise<BlobInfo[]>;
  /** True when the backing store answers (used by /readyz). */
  ping(): Promise<boolean>;
}

export interface BlobInfo {
  key: string;
  size: number;
  /** Milliseconds since the epoch when the blob was last written. */
  modifiedAt: number;
}
