import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Verification } from '../../src/pdf/index.js';
import { createHarness, type Harness } from '../harness.js';
import { flipSignedByte, formsignCli as run, sealedWithServiceCertificate } from './support.js';

// `formsign verify FILE.pdf [--json]` offline, against the DATA_DIR whose certificate sealed the file:
// exit 0 and "VERIFIED" for our seal, exit 3 and intact:false for a copy with one byte changed.

describe('formsign verify (CLI)', () => {
  let h: Harness;
  let sealedFile: string;
  let flippedFile: string;
  before(async () => {
    h = await createHarness('sqlite');
    const sealed = await sealedWithServiceCertificate(h);
    sealedFile = path.join(h.dataDir, 'sealed.pdf');
    flippedFile = path.join(h.dataDir, 'changed.pdf');
    fs.writeFileSync(sealedFile, sealed);
    fs.writeFileSync(flippedFile, flipSignedByte(sealed));
  });
  after(() => h.close());

  it('our seal: exit 0, VERIFIED, issued by this service', async () => {
    const r = await run(['verify', sealedFile], h.dataDir);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /VERIFIED/);
    assert.match(r.out, /issued by this service: yes \(form form_VerifyPageTest0000000001\)/);
  });

  it('one byte flipped, --json: exit 3 and intact false', async () => {
    const r = await run(['verify', flippedFile, '--json'], h.dataDir);
    assert.equal(r.code, 3, r.err);
    const v = JSON.parse(r.out) as Verification;
    assert.equal(v.intact, false);
    assert.equal(v.signatures[0]!.valid, false);
  });
});
