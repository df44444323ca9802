import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { createHarness, DIALECTS, PG_URL, type ApiError, type Harness } from '../harness.js';
import { startTcpProxy, type TcpProxy } from '../shared/tcp-proxy.js';

// /readyz tells a load balancer whether this process can serve: 503 naming the part that is down
// (the database, the S3 file store) while it is unreachable, 200 again once it is back; /healthz (the
// process is up) answers 200 throughout, so an orchestrator does not restart a process that only
// waits for its database.

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: { address: string; port: number; directory: string; silent: boolean; vhostBuckets: boolean }) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

async function probes(h: Harness) {
  const health = await h.request({ url: '/healthz' });
  const ready = await h.request({ url: '/readyz' });
  return { health: health.status, healthBody: health.json<unknown>(), ready: ready.status, readyBody: ready.body, retryAfter: ready.headers['retry-after'] };
}

async function waitUntil(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('/readyz while PostgreSQL is unreachable (postgres)', () => {
  let proxy: TcpProxy;
  let h: Harness;
  before(async () => {
    const target = new URL(PG_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const through = new URL(PG_URL);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    h = await createHarness('postgres', { env: { DATABASE_URL: through.toString() } });
  });
  after(async () => {
    await proxy.restore();
    await h.close();
    await proxy.close();
  });

  it('answers 503 naming the database while the connection is cut, 200 once it is back; /healthz stays 200', async () => {
    assert.deepEqual(await probes(h), { health: 200, healthBody: { status: 'ok' }, ready: 200, readyBody: '{"status":"ok"}', retryAfter: undefined });
    await proxy.cut();
    const started = performance.now();
    const down = await probes(h);
    assert.ok(performance.now() - started < 10_000, 'the probe answers promptly');
    assert.equal(down.health, 200);
    assert.equal(down.ready, 503, down.readyBody);
    const e = (JSON.parse(down.readyBody) as ApiError).error;
    assert.equal(e.code, 'service_unavailable');
    assert.equal(e.type, 'api_error');
    assert.equal(e.message, 'Not ready: the database (PostgreSQL) is not reachable.');
    assert.equal(down.retryAfter, '5');
    await proxy.restore();
    await waitUntil('/readyz to answer 200 again', async () => (await probes(h)).ready === 200);
    assert.deepEqual(await probes(h), { health: 200, healthBody: { status: 'ok' }, ready: 200, readyBody: '{"status":"ok"}', retryAfter: undefined });
  });
});

for (const dialect of DIALECTS) {
  describe(`/readyz while S3 is unreachable (${dialect})`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-readyz-s3-'));
    let s3: S3rverServer;
    let port = 0;
    let h: Harness;
    const startS3 = async () => {
      s3 = new S3rver({ address: '127.0.0.1', port, directory: dir, silent: true, vhostBuckets: false });
      port = (await s3.run()).port;
    };
    before(async () => {
      await startS3();
      const endpoint = `http://127.0.0.1:${port}`;
      const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
      const admin = new S3Client({ endpoint, region: 'us-east-1', credentials, forcePathStyle: true });
      await admin.send(new CreateBucketCommand({ Bucket: 'formsign-readyz' }));
      admin.destroy();
      h = await createHarness(dialect, { env: { S3_ENDPOINT: endpoint, S3_BUCKET: 'formsign-readyz', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: credentials.accessKeyId, S3_SECRET_ACCESS_KEY: credentials.secretAccessKey } });
    });
    after(async () => {
      await h.close();
      await s3.close().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('answers 503 naming S3 while it is stopped, 200 once it runs again; /healthz stays 200', async () => {
      assert.equal((await probes(h)).ready, 200);
      await s3.close();
      const down = await probes(h);
      assert.equal(down.health, 200);
      assert.equal(down.ready, 503, down.readyBody);
      const e = (JSON.parse(down.readyBody) as ApiError).error;
      assert.equal(e.code, 'service_unavailable');
      assert.equal(e.message, 'Not ready: the file store (S3) is not reachable.');
      assert.ok(!e.message.includes('formsign-readyz'), 'the bucket is not named on a public probe');
      await startS3();
      await waitUntil('/readyz to answer 200 again', async () => (await probes(h)).ready === 200);
      assert.deepEqual(await probes(h), { health: 200, healthBody: { status: 'ok' }, ready: 200, readyBody: '{"status":"ok"}', retryAfter: undefined });
    });
  });
}
