// The B-B CMS is copied from a per-chain template with the digest and signature value written in
// (src/pdf/seal/cms.ts, issue 36): every copy must be a CMS that openssl verifies over its own content,
// the first (which makes the template) and the later ones alike, made one after another and at once.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadSigningCertificate } from '../../src/pdf/seal/certificate.js';
import { signDetached } from '../../src/pdf/seal/detached-signature.js';

function opensslVerifies(dir: string, content: Buffer, cms: Buffer): string {
  const name = randomBytes(6).toString('hex');
  const contentFile = path.join(dir, `${name}.bin`);
  const cmsFile = path.join(dir, `${name}.p7s`);
  fs.writeFileSync(contentFile, content);
  fs.writeFileSync(cmsFile, cms);
  return execFileSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', cmsFile, '-content', contentFile, '-noverify', '-out', '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] }).toString() + 'ok';
}

describe('B-B CMS from the per-chain template', () => {
  it('verifies in openssl for every content, the template maker and its copies, sequential and concurrent; a changed byte fails', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-cms-'));
    try {
      const cert = loadSigningCertificate({ dataDir: dir, serviceName: 'Formsign CMS test' });
      const contents = Array.from({ length: 6 }, (_, i) => randomBytes(100 + i * 37));
      const sequential = [];
      for (const c of contents.slice(0, 3)) sequential.push(await signDetached(c, cert));
      const concurrent = await Promise.all(contents.slice(3).map((c) => signDetached(c, cert)));
      const all = [...sequential, ...concurrent];
      // Same chain, same shape: every copy is as long as the first.
      assert.deepEqual(new Set(all.map((d) => d.length)).size, 1);
      all.forEach((cms, i) => assert.match(opensslVerifies(dir, contents[i]!, cms), /ok$/, `content ${i}`));
      // The digest written in is the content's: another content does not verify under it.
      assert.throws(() => opensslVerifies(dir, contents[1]!, all[0]!), /verif|digest/i);
      // A signature value written in wrongly (one byte flipped at the end, inside the signature) fails.
      const broken = Buffer.from(all[2]!);
      broken.writeUInt8(broken.readUInt8(broken.length - 1) ^ 0x01, broken.length - 1);
      assert.throws(() => opensslVerifies(dir, contents[2]!, broken));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
