// Keys become file paths in the fs store and object names in S3, so a single strict grammar keeps
// them portable between the two and makes path traversal impossible by construction.
const SEGMENT = /^[A-Za-z0-9._-]+$/;

// Generous for real keys (acct/env/kind/id.ext) yet well under S3's 1024-byte limit and PATH_MAX.
const MAX_KEY_LENGTH = 512;

/** Throws unless `key` is `segment(/segment)*` with segments of `[A-Za-z0-9._-]`, none `.` or `..`. */
export function assertValidBlobKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new Error(`invalid blob key (length ${key.length}): ${JSON.stringify(key.slice(0, 64))}`);
  }
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment) || segment === '.' || segment === '..') {
      throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
    }
  }
}
