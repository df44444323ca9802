// RFC 3161 tokens for the verifier's tests, made by Debian's openssl under a test CA in a temp folder:
// a TSA certificate (extendedKeyUsage timeStamping) and `openssl ts -query` / `-reply -token_out` over
// a digest we give. (The seal's own tests run a loopback TSA over HTTP; here only the token matters.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TokenMaker {
  /** A DER TimeStampToken (a CMS ContentInfo) over the SHA-256 `digest`. */
  token(digest: Buffer): Buffer;
  remove(): void;
}

export function makeTokenMaker(): TokenMaker {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-ts-'));
  const f = (name: string): string => path.join(dir, name);
  const ssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  };
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '30', '-subj', '/CN=Verify Test Root CA/O=Formsign tests',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('tsa.key'), '-out', f('tsa.csr'), '-subj', '/CN=Verify Test TSA/O=Formsign tests');
  fs.writeFileSync(f('tsa.ext'), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n');
  ssl('x509', '-req', '-in', f('tsa.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('tsa.pem'), '-days', '30', '-extfile', f('tsa.ext'));
  fs.writeFileSync(f('serial'), '01\n');
  fs.writeFileSync(f('ts.cnf'), `[ tsa ]\ndefault_tsa = tsa_config\n[ tsa_config ]\nserial = ${f('serial')}\ncrypto_device = builtin\nsigner_digest = sha256\ndefault_policy = 1.2.3.4.1\ndigests = sha256\naccuracy = secs:1\nordering = yes\ntsa_name = yes\ness_cert_id_alg = sha256\n`);
  let n = 0;
  return {
    token(digest) {
      n++;
      ssl('ts', '-query', '-digest', digest.toString('hex'), '-sha256', '-cert', '-no_nonce', '-out', f(`q${n}.tsq`));
      ssl('ts', '-reply', '-config', f('ts.cnf'), '-queryfile', f(`q${n}.tsq`), '-signer', f('tsa.pem'), '-inkey', f('tsa.key'), '-chain', f('ca.pem'), '-token_out', '-out', f(`t${n}.der`));
      return fs.readFileSync(f(`t${n}.der`));
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
