import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { toAppError } from '../../src/http/error-body.js';
import { createS3BlobStore, type BlobStore } from '../../src/providers/blob/index.js';
import { S3RVER_CREDENTIALS, startS3rver } from '../shared/s3rver.js';
import { startTcpProxy, type TcpProxy } from '../shared/tcp-proxy.js';

// An S3 endpoint that cannot be reached (its connections reset, as a restart or a proxy in between
// gives): every store operation fails as BlobStoreUnavailableError, which the API answers 503
// `storage_unavailable` with Retry-After. Before, the SDK's own error went up and a signature submitted
// meanwhile answered 500 (found by test/cluster/fault.test.ts, issue 27).

describe('S3 blob store while S3 cannot be reached (s3rver behind a proxy)', () => {
  const bucket = 'formsign-unreachable';
  let dir: string;
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let proxy: TcpProxy;
  let store: BlobStore;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-s3-unreachable-'));
    s3 = await startS3rver(dir);
    const admin = new S3Client({ endpoint: `http://127.0.0.1:${s3.port}`, region: 'us-east-1', credentials: S3RVER_CREDENTIALS, forcePathStyle: true });
    await admin.send(new CreateBucketCommand({ Bucket: bucket }));
    admin.destroy();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: s3.port });
    store = createS3BlobStore({ endpoint: `http://127.0.0.1:${proxy.port}`, bucket, region: 'us-east-1', ...S3RVER_CREDENTIALS });
  });
  after(async () => {
    await proxy.close();
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fails put, get, exists, delete and list as unavailable, answered 503 storage_unavailable; works again after', async () => {
    await store.put('acct_x/test/a.pdf', Buffer.from('%PDF-1.7 a'), 'application/pdf');
    const cut = proxy.cut(4000);
    const ops: Array<[string, () => Promise<unknown>]> = [
      ['put', () => store.put('acct_x/test/b.pdf', Buffer.from('%PDF-1.7 b'))],
      ['get', () => store.get('acct_x/test/a.pdf')],
      ['exists', () => store.exists('acct_x/test/a.pdf')],
      ['delete', () => store.delete('acct_x/test/a.pdf')],
      ['list', () => store.list('acct_x/')],
    ];
    for (const [name, op] of ops) {
      const err = await op().then(() => assert.fail(`${name} succeeded while S3 refused`), (e: unknown) => e as Error & { code?: string });
      assert.equal(err.name, 'BlobStoreUnavailableError', `${name}: ${err.message}`);
      assert.equal(err.code, 'FORMSIGN_BLOB_UNAVAILABLE');
      assert.match(err.message, /^The file store is unavailable \(/);
      const answer = toAppError(err);
      assert.deepEqual([answer.status, answer.code, answer.headers], [503, 'storage_unavailable', { 'Retry-After': '5' }], name);
      assert.equal(answer.message, 'The file store cannot be reached right now. Try again in 5 seconds.');
    }
    await cut;
    assert.equal(Buffer.from((await store.get('acct_x/test/a.pdf'))!).toString(), '%PDF-1.7 a');
    assert.equal(await store.get('acct_x/test/missing.pdf'), null, 'an absent object is still null, not unavailable');
  });
});
