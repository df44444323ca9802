export type { BlobInfo, BlobStore } from './blob-store.js';
export { assertValidBlobKey } from './blob-key.js';
export { createFsBlobStore } from './fs-blob-store.js';
export { createS3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.js';
