import type * as S3Sdk from '@aws-sdk/client-s3';
import { loadOnFirstUse } from '../../lib/load-on-first-use.js';
import { FILE_STORE_UNAVAILABLE } from '../../lib/storage-health.js';
import { assertValidBlobKey } from './blob-key.js';
import type { BlobInfo, BlobStore } from './blob-store.js';

export interface S3BlobStoreOptions {
  /** Set for MinIO, s3rver and other S3-compatible services; omit for AWS. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Defaults to true when `endpoint` is set, false otherwise. */
  forcePathStyle?: boolean;
}

// /readyz must answer promptly even when the bucket host blackholes packets.
const PING_TIMEOUT_MS = 5_000;

// HeadObject reports absence as a bare 404 ("NotFound"); GetObject as "NoSuchKey". A missing bucket
// is a misconfiguration, so where S3 names it (GET/DELETE) it surfaces instead of reading as "no
// object"; HEAD responses carry no body to tell the two apart, which is what ping() is for.
function isAbsent(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const name = 'name' in err ? err.name : undefined;
  if (name === 'NoSuchKey' || name === 'NotFound') return true;
  if (name === 'NoSuchBucket') return false;
  const metadata = '$metadata' in err ? err.$metadata : undefined;
  return typeof metadata === 'object' && metadata !== null && 'httpStatusCode' in metadata && metadata.httpStatusCode === 404;
}

/**
 * The S3 endpoint could not be reached or failed on its side (a reset or refused connection, a
 * timeout, a 5xx after the SDK's own retries): retrying later may succeed, so the HTTP layer answers
 * 503 `storage_unavailable` with Retry-After rather than a 500, and a job retries on its schedule.
 * Found by the cluster fault test (issue 27): a signature submitted while S3 refused answered 500.
 */
export class BlobStoreUnavailableError extends Error {
  /** What lib/storage-health.ts recognises (the HTTP layer does not import providers). */
  readonly code = FILE_STORE_UNAVAILABLE;
  constructor(override readonly cause: unknown) {
    super(`The file store is unavailable (${cause instanceof Error ? cause.message : String(cause)}).`);
    this.name = 'BlobStoreUnavailableError';
  }
}

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED', 'EAI_AGAIN', 'ENOTFOUND']);

function unreachable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (name === 'TimeoutError' || (typeof message === 'string' && /socket hang up/i.test(message))) return true;
    const status = (e as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode;
    if (typeof status === 'number' && status >= 500) return true;
  }
  return false;
}

/** Runs one store operation, turning "S3 cannot be reached" into BlobStoreUnavailableError. */
async function reachable<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw unreachable(err) ? new BlobStoreUnavailableError(err) : err;
  }
}

const s3Sdk = loadOnFirstUse<typeof S3Sdk>('@aws-sdk/client-s3');

export function createS3BlobStore(opts: S3BlobStoreOptions): BlobStore {
  const { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } = s3Sdk();
  const client = new S3Client({
    region: opts.region,
    credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
    // Virtual-host addressing needs wildcard DNS per bucket, which MinIO/s3rver setups rarely have.
    forcePathStyle: opts.forcePathStyle ?? opts.endpoint !== undefined,
    // Explicit rather than inherited from AWS_* env vars or ~/.aws/config, and limited to
    // operations that require them because many S3-compatible servers reject the newer checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(opts.endpoint !== undefined ? { endpoint: opts.endpoint } : {}),
  });
  const Bucket = opts.bucket;
  const keyOf = (key: string): string => {
    assertValidBlobKey(key);
    return key;
  };

  return {
    async put(key, data, contentType) {
      await reachable(() => client.send(
        new PutObjectCommand({
          Bucket,
          Key: keyOf(key),
          Body: data,
          ContentLength: data.byteLength,
          ContentType: contentType ?? 'application/octet-stream',
        }),
      ));
    },

    async get(key) {
      const Key = keyOf(key);
      try {
        return await reachable(async () => {
          const res = await client.send(new GetObjectCommand({ Bucket, Key }));
          if (res.Body === undefined) return new Uint8Array(0);
          return res.Body.transformToByteArray();
        });
      } catch (err) {
        if (isAbsent(err)) return null;
        throw err;
      }
    },

    async exists(key) {
      const Key = keyOf(key);
      try {
        await reachable(() => client.send(new HeadObjectCommand({ Bucket, Key })));
        return true;
      } catch (err) {
        if (isAbsent(err)) return false;
        throw err;
      }
    },

    async delete(key) {
      const Key = keyOf(key);
      try {
        await reachable(() => client.send(new DeleteObjectCommand({ Bucket, Key })));
      } catch (err) {
        // S3 itself answers 204 for absent keys, but some compatible servers send 404.
        if (!isAbsent(err)) throw err;
      }
    },

    async list(prefix) {
      const found: BlobInfo[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await reachable(() => client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ...(ContinuationToken ? { ContinuationToken } : {}) })));
        for (const o of page.Contents ?? []) {
          if (o.Key !== undefined) found.push({ key: o.Key, size: o.Size ?? 0, modifiedAt: o.LastModified?.getTime() ?? 0 });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return found;
    },

    async ping() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(PING_TIMEOUT_MS) });
        return true;
      } catch {
        return false;
      }
    },
  };
}
