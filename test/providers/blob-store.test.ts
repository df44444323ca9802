import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  assertValidBlobKey,
  createFsBlobStore,
  createS3BlobStore,
  type BlobStore,
} from '../../src/providers/blob/index.js';

// s3rver ships no type declarations; describe just the surface the tests drive.
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  vhostBuckets: boolean;
}) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

const INVALID_KEYS = ['../x', '/abs', 'a//b', 'a/b c', '', 'a/', 'a/./b', 'a/../b', 'a\\b', 'ä.pdf'];

function assertBytes(actual: Uint8Array | null, expected: Uint8Array): void {
  assert.ok(actual, 'expected bytes, got null');
  assert.equal(actual.byteLength, expected.byteLength);
  // Buffer.equals keeps a mismatch in a 3 MiB blob from dumping megabytes into the report.
  assert.ok(Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).equals(expected), 'bytes differ');
}

async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `formsign-${prefix}-`));
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
}

/** The contract every BlobStore must honour; `store` is read lazily because S3 starts in before(). */
function behavesLikeABlobStore(store: () => BlobStore): void {
  it('round-trips all 256 byte values', async () => {
    const data = Uint8Array.from({ length: 256 }, (_, i) => i);
    await store().put('acct_x/test/templates/tmpl_bytes.pdf', data, 'application/pdf');
    assertBytes(await store().get('acct_x/test/templates/tmpl_bytes.pdf'), data);
    assert.equal(await store().exists('acct_x/test/templates/tmpl_bytes.pdf'), true);
  });

  it('round-trips a 3 MiB buffer', async () => {
    const data = randomBytes(3 * 1024 * 1024);
    await store().put('acct_x/test/documents/doc_big.pdf', data);
    assertBytes(await store().get('acct_x/test/documents/doc_big.pdf'), data);
  });

  it('round-trips an empty blob', async () => {
    await store().put('acct_x/test/empty.bin', new Uint8Array(0));
    assertBytes(await store().get('acct_x/test/empty.bin'), new Uint8Array(0));
    assert.equal(await store().exists('acct_x/test/empty.bin'), true);
  });

  it('reports a missing key as null / false', async () => {
    assert.equal(await store().get('acct_x/test/missing/nothing.pdf'), null);
    assert.equal(await store().exists('acct_x/test/missing/nothing.pdf'), false);
  });

  it('overwrites an existing key', async () => {
    await store().put('acct_x/test/over.txt', Buffer.from('first version, longer'));
    await store().put('acct_x/test/over.txt', Buffer.from('second'));
    assertBytes(await store().get('acct_x/test/over.txt'), Buffer.from('second'));
  });

  it('deletes a key, and deleting a missing key is not an error', async () => {
    await store().put('acct_x/test/gone.txt', Buffer.from('x'));
    await store().delete('acct_x/test/gone.txt');
    assert.equal(await store().get('acct_x/test/gone.txt'), null);
    assert.equal(await store().exists('acct_x/test/gone.txt'), false);
    await store().delete('acct_x/test/gone.txt');
    await store().delete('acct_x/never/existed.txt');
  });

  it('rejects invalid keys in every method', async () => {
    for (const key of INVALID_KEYS) {
      await assert.rejects(store().put(key, new Uint8Array([1])), /invalid blob key/, `put ${key}`);
      await assert.rejects(store().get(key), /invalid blob key/, `get ${key}`);
      await assert.rejects(store().exists(key), /invalid blob key/, `exists ${key}`);
      await assert.rejects(store().delete(key), /invalid blob key/, `delete ${key}`);
    }
  });

  it('answers ping', async () => {
    assert.equal(await store().ping(), true);
  });

  it('lists the keys under a prefix with their sizes and times', async () => {
    const before = Date.now() - 5_000;
    await store().put('listing/acct_l/test/a.pdf', Buffer.from('aaa'));
    await store().put('listing/acct_l/live/b.pdf', Buffer.from('bbbbb'));
    await store().put('listing-other/c.pdf', Buffer.from('c'));
    const listed = (await store().list('listing/')).sort((x, y) => x.key.localeCompare(y.key));
    assert.deepEqual(listed.map((b) => [b.key, b.size]), [['listing/acct_l/live/b.pdf', 5], ['listing/acct_l/test/a.pdf', 3]]);
    for (const b of listed) assert.ok(b.modifiedAt >= before && b.modifiedAt <= Date.now() + 5_000, `time of ${b.key}`);
    assert.deepEqual(await store().list('listing-none/'), []);
  });
}

describe('assertValidBlobKey', () => {
  it('accepts keys made of [A-Za-z0-9._-] segments', () => {
    for (const key of ['acct_x/test/templates/tmpl_y.pdf', 'a', 'A-b_c.d/e', '.hidden/..x/x..', '...']) {
      assert.doesNotThrow(() => assertValidBlobKey(key), key);
    }
  });

  it('throws on traversal, empty segments, absolute paths and other characters', () => {
    for (const key of [...INVALID_KEYS, 'a/b/', '..', '.', `${'a'.repeat(600)}`, 'a\nb', 'a%2Fb']) {
      assert.throws(() => assertValidBlobKey(key), Error, JSON.stringify(key));
    }
  });
});

describe('fs blob store', () => {
  let root: string;
  before(async () => {
    root = await tempDir('blob-fs');
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  behavesLikeABlobStore(() => createFsBlobStore(root));

  it('syncs the directory after the rename, and the parents of directories it made', async () => {
    const dir = await tempDir('blob-fs-sync');
    const fsp = createRequire(import.meta.url)('node:fs/promises') as typeof import('node:fs/promises');
    const original = fsp.open;
    const synced: string[] = [];
    // The store imports `open` from node:fs/promises; syncBuiltinESMExports makes it see this spy.
    fsp.open = (async (path: string, flags?: string) => {
      const handle = await original(path, flags);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => { synced.push(String(path)); return sync(); };
      return handle;
    }) as typeof fsp.open;
    syncBuiltinESMExports();
    try {
      await createFsBlobStore(dir).put('acct_s/test/renders/r.pdf', Buffer.from('x'));
      const dirs = synced.filter((p) => !p.endsWith('.tmp'));
      assert.ok(synced.some((p) => p.endsWith('.tmp')), 'the file itself is synced');
      assert.deepEqual(dirs, [join(dir, 'acct_s/test/renders'), join(dir, 'acct_s/test'), join(dir, 'acct_s'), dir]);
      synced.length = 0;
      await createFsBlobStore(dir).put('acct_s/test/renders/r2.pdf', Buffer.from('y'));
      assert.deepEqual(synced.filter((p) => !p.endsWith('.tmp')), [join(dir, 'acct_s/test/renders')], 'an existing directory: only itself');
    } finally {
      fsp.open = original;
      syncBuiltinESMExports();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves no temp files behind after writes and overwrites', async () => {
    const dir = await tempDir('blob-fs-clean');
    try {
      const store = createFsBlobStore(dir);
      await store.put('acct_x/live/templates/tmpl_a.pdf', Buffer.from('a'));
      await store.put('acct_x/live/templates/tmpl_a.pdf', Buffer.from('a2'));
      await store.put('acct_x/live/templates/tmpl_b.pdf', Buffer.from('b'));
      await Promise.all(Array.from({ length: 10 }, (_, i) => store.put('acct_x/live/race.bin', Buffer.from([i]))));
      const entries = (await readdir(dir, { recursive: true })).sort();
      assert.deepEqual(entries, [
        'acct_x',
        join('acct_x', 'live'),
        join('acct_x', 'live', 'race.bin'),
        join('acct_x', 'live', 'templates'),
        join('acct_x', 'live', 'templates', 'tmpl_a.pdf'),
        join('acct_x', 'live', 'templates', 'tmpl_b.pdf'),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('never exposes a partially written file to concurrent readers', async () => {
    const store = createFsBlobStore(root);
    const old = Buffer.alloc(3 * 1024 * 1024, 1);
    const next = Buffer.alloc(3 * 1024 * 1024, 2);
    await store.put('acct_x/test/swap.bin', old);
    const reads: Promise<Uint8Array | null>[] = [];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 8; i++) {
      writes.push(store.put('acct_x/test/swap.bin', i % 2 === 0 ? next : old));
      reads.push(store.get('acct_x/test/swap.bin'), store.get('acct_x/test/swap.bin'));
    }
    await Promise.all(writes);
    for (const got of await Promise.all(reads)) {
      assert.ok(got);
      const buf = Buffer.from(got.buffer, got.byteOffset, got.byteLength);
      assert.ok(buf.equals(old) || buf.equals(next), `saw a torn read of ${buf.byteLength} bytes`);
    }
  });

  it('removes its temp file when the final rename fails', async () => {
    const dir = await tempDir('blob-fs-fail');
    try {
      const store = createFsBlobStore(dir);
      await store.put('a/b/c', Buffer.from('c'));
      // 'a/b' is now a directory, so renaming a file over it fails after the temp file exists.
      await assert.rejects(store.put('a/b', Buffer.from('b')));
      assert.deepEqual(await readdir(join(dir, 'a')), ['b']);
      assertBytes(await store.get('a/b/c'), Buffer.from('c'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('treats a key that is only a prefix of other keys as absent', async () => {
    const store = createFsBlobStore(root);
    await store.put('acct_x/test/prefix/child.txt', Buffer.from('c'));
    assert.equal(await store.get('acct_x/test/prefix'), null);
    assert.equal(await store.exists('acct_x/test/prefix'), false);
    await store.delete('acct_x/test/prefix');
    assert.equal(await store.exists('acct_x/test/prefix/child.txt'), true);
  });

  it('creates a missing root on ping, and reports false when the root cannot be a directory', async () => {
    const dir = await tempDir('blob-fs-ping');
    try {
      assert.equal(await createFsBlobStore(join(dir, 'not', 'yet')).ping(), true);
      await writeFile(join(dir, 'file'), 'x');
      assert.equal(await createFsBlobStore(join(dir, 'file')).ping(), false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('S3 blob store (against s3rver)', () => {
  // s3rver only knows its built-in account for signed requests.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const region = 'us-east-1';
  const bucket = 'formsign-test';
  let dir: string;
  let server: S3rverServer;
  let endpoint: string;
  let admin: S3Client;
  let store: BlobStore;

  before(async () => {
    dir = await tempDir('blob-s3rver');
    server = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true, vhostBuckets: false });
    const { port } = await server.run();
    assert.ok(port > 0);
    endpoint = `http://127.0.0.1:${port}`;
    admin = new S3Client({ endpoint, region, credentials, forcePathStyle: true });
    await admin.send(new CreateBucketCommand({ Bucket: bucket }));
    store = createS3BlobStore({ endpoint, bucket, region, ...credentials });
  });
  after(async () => {
    admin.destroy();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  behavesLikeABlobStore(() => store);

  it('stores the content type, defaulting to application/octet-stream', async () => {
    await store.put('acct_x/test/typed.pdf', Buffer.from('%PDF-1.7'), 'application/pdf');
    await store.put('acct_x/test/untyped.bin', Buffer.from('raw'));
    const typed = await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: 'acct_x/test/typed.pdf' }));
    const untyped = await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: 'acct_x/test/untyped.bin' }));
    assert.equal(typed.ContentType, 'application/pdf');
    assert.equal(untyped.ContentType, 'application/octet-stream');
  });

  it('propagates errors other than a missing object (here: a missing bucket)', async () => {
    const orphan = createS3BlobStore({ endpoint, bucket: 'no-such-bucket', region, ...credentials });
    await assert.rejects(orphan.get('acct_x/test/a.pdf'), { name: 'NoSuchBucket' });
    await assert.rejects(orphan.put('acct_x/test/a.pdf', Buffer.from('a')), { name: 'NoSuchBucket' });
    assert.equal(await orphan.ping(), false);
  });

  it('reports ping false when the endpoint does not answer', async () => {
    const probe = createServer();
    const port = await listen(probe);
    await close(probe);
    const dead = createS3BlobStore({ endpoint: `http://127.0.0.1:${port}`, bucket, region, ...credentials });
    assert.equal(await dead.ping(), false);
  });
});

// s3rver accepts any SigV4 signature, so verify ours against an independent implementation.
describe('S3 request signing', () => {
  interface Captured {
    method: string;
    url: string;
    headers: IncomingHttpHeaders;
    body: Buffer;
  }
  const accessKeyId = 'AKIDFORMSIGNTEST';
  const secretAccessKey = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYFORMSIGNKEY';
  const region = 'eu-central-1';
  const bucket = 'sig-bucket';
  const key = 'acct_x/test/templates/tmpl_y.pdf';
  const payload = Uint8Array.from({ length: 256 }, (_, i) => 255 - i);
  const captured: Captured[] = [];
  let fake: Server;
  let store: BlobStore;

  before(async () => {
    // Stands in for S3: records each request and answers just enough for PutObject/GetObject.
    fake = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        captured.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': payload.byteLength });
          res.end(payload);
        } else {
          res.writeHead(200, { etag: '"0123456789abcdef0123456789abcdef"', 'content-length': 0 });
          res.end();
        }
      });
    });
    const port = await listen(fake);
    store = createS3BlobStore({ endpoint: `http://127.0.0.1:${port}`, bucket, region, accessKeyId, secretAccessKey });
  });
  after(async () => {
    fake.closeAllConnections();
    await close(fake);
  });

  const rfc3986 = (s: string): string =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
  const hmac = (k: string | Buffer, data: string): Buffer => createHmac('sha256', k).update(data).digest();

  function headerValue(headers: IncomingHttpHeaders, name: string): string {
    const v = headers[name];
    assert.ok(v !== undefined, `signed header ${name} missing from the request`);
    return (Array.isArray(v) ? v.join(',') : v).trim().replace(/\s+/g, ' ');
  }

  /** SigV4 for S3 from the request as received on the wire, per the AWS documentation. */
  function signatureFor(req: Captured, secret: string, signedHeaders: string, scope: string): string {
    const [rawPath = '', rawQuery = ''] = req.url.split('?', 2);
    // S3 encodes each path segment exactly once (no double-encoding, no normalisation).
    const canonicalUri = rawPath.split('/').map((s) => rfc3986(decodeURIComponent(s))).join('/');
    const canonicalQuery = [...new URLSearchParams(rawQuery)]
      .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
      .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const names = signedHeaders.split(';');
    const canonicalHeaders = names.map((n) => `${n}:${headerValue(req.headers, n)}\n`).join('');
    const canonicalRequest = [
      req.method,
      canonicalUri,
      canonicalQuery,
      canonicalHeaders,
      signedHeaders,
      headerValue(req.headers, 'x-amz-content-sha256'),
    ].join('\n');
    const amzDate = headerValue(req.headers, 'x-amz-date');
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
    const [date = '', scopeRegion = '', service = ''] = scope.split('/');
    const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), scopeRegion), service), 'aws4_request');
    return createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  }

  function assertSigned(req: Captured): void {
    const amzDate = headerValue(req.headers, 'x-amz-date');
    assert.match(amzDate, /^\d{8}T\d{6}Z$/);
    const signedAt = Date.parse(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13)}`,
    );
    assert.ok(Math.abs(Date.now() - signedAt) < 5 * 60_000, `x-amz-date ${amzDate} is not now`);
    const yyyymmdd = amzDate.slice(0, 8);
    const scope = `${yyyymmdd}/${region}/s3/aws4_request`;

    const authorization = headerValue(req.headers, 'authorization');
    assert.ok(
      authorization.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/${scope}`),
      `unexpected Authorization: ${authorization}`,
    );
    const match = /SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
    assert.ok(match, `no SignedHeaders/Signature in ${authorization}`);
    const [, signedHeaders = '', signature = ''] = match;
    const names = signedHeaders.split(';');
    for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
      assert.ok(names.includes(required), `${required} not in SignedHeaders=${signedHeaders}`);
    }
    // The payload hash is part of what is signed, so it must describe the bytes actually sent.
    assert.equal(headerValue(req.headers, 'x-amz-content-sha256'), sha256Hex(req.body));

    assert.equal(signature, signatureFor(req, secretAccessKey, signedHeaders, scope));
    assert.notEqual(signature, signatureFor(req, `${secretAccessKey}x`, signedHeaders, scope));
  }

  it('signs PutObject with SigV4 over path, query, headers and payload', async () => {
    captured.length = 0;
    await store.put(key, payload, 'application/pdf');
    const [req] = captured;
    assert.ok(req);
    assert.equal(req.method, 'PUT');
    assert.equal(req.url.split('?')[0], `/${bucket}/${key}`);
    assertBytes(req.body, payload);
    assertSigned(req);
  });

  it('signs GetObject with SigV4 (empty payload)', async () => {
    captured.length = 0;
    assertBytes(await store.get(key), payload);
    const [req] = captured;
    assert.ok(req);
    assert.equal(req.method, 'GET');
    assertSigned(req);
  });
});
