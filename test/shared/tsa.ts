// Loopback RFC 3161 time-stamping authorities for tests. `makeTestTsaCa()` makes a test CA and a TSA
// certificate under it with Debian's openssl in a temp folder; `startTsa()` serves RFC 3161 over HTTP
// (POST `application/timestamp-query` → `application/timestamp-reply`) by running `openssl ts -reply`
// for each request. A TSA can be switched to fail (HTTP 500) or hang (never answer) and back, and can
// require HTTP basic credentials, and can be made to answer bad tokens: one whose CMS signature does not
// verify (`bad-signature`: a byte of the signature value flipped), or one signed, with the same key, by a
// certificate without the extended key usage timeStamping (`no-eku`: the TSTInfo re-signed with
// `openssl cms`, which does not insist on it as `openssl ts` does). `verifyTimestampToken()` runs `openssl ts -verify` on a token against
// the test CA, independently of the code under test.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as pkijs from 'pkijs';

const run = promisify(execFile);

export interface TestTsaCa {
  readonly dir: string;
  /** The root CA certificate (PEM file): what `openssl ts -verify -CAfile` trusts. */
  readonly caCertFile: string;
  readonly caCertPem: string;
  /** The TSA's certificate (extendedKeyUsage timeStamping, critical) and key, PEM files. */
  readonly tsaCertFile: string;
  readonly tsaKeyFile: string;
  /** A certificate for the same key without extendedKeyUsage timeStamping (for `no-eku`). */
  readonly noEkuCertFile: string;
  /** `openssl ts` configuration naming the TSA section. */
  readonly configFile: string;
  remove(): void;
}

const TS_CONFIG = `
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = $dir/serial
crypto_device = builtin
signer_digest = sha256
default_policy = 1.3.6.1.4.1.4146.2.3
other_policies = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

/** A test CA and a TSA certificate signed by it, made with openssl in a temp folder. */
export function makeTestTsaCa(): TestTsaCa {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-tsa-'));
  const f = (name: string): string => path.join(dir, name);
  const ssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  };
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '30',
    '-subj', '/CN=Formsign Test Root CA/O=Formsign tests',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('tsa.key'), '-out', f('tsa.csr'), '-subj', '/CN=Formsign Test TSA/O=Formsign tests');
  fs.writeFileSync(f('tsa.ext'), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n');
  ssl('x509', '-req', '-in', f('tsa.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('tsa.pem'), '-days', '30', '-extfile', f('tsa.ext'));
  fs.writeFileSync(f('noeku.ext'), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n');
  ssl('x509', '-req', '-in', f('tsa.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('tsa-noeku.pem'), '-days', '30', '-extfile', f('noeku.ext'));
  fs.writeFileSync(f('serial'), '01\n');
  fs.writeFileSync(f('ts.cnf'), TS_CONFIG.replace('$dir', dir));
  return {
    dir,
    caCertFile: f('ca.pem'),
    caCertPem: fs.readFileSync(f('ca.pem'), 'utf8'),
    tsaCertFile: f('tsa.pem'),
    tsaKeyFile: f('tsa.key'),
    noEkuCertFile: f('tsa-noeku.pem'),
    configFile: f('ts.cnf'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export type TsaMode = 'ok' | 'fail' | 'hang' | 'bad-signature' | 'no-eku';

export interface LoopbackTsa {
  readonly url: string;
  /** Requests received (any mode), and those answered with a token. */
  readonly requests: number;
  readonly stamped: number;
  setMode(mode: TsaMode): void;
  close(): Promise<void>;
}

export interface TsaOptions {
  mode?: TsaMode;
  /** When set, requests without these HTTP basic credentials are answered 401. */
  credentials?: { username: string; password: string };
  /** After this many tokens, answer HTTP 500 (a TSA that fails between two requests of one seal). */
  failAfter?: number;
}

/** An RFC 3161 TSA on 127.0.0.1 (port 0) answering with `openssl ts -reply` under `ca`. */
export async function startTsa(ca: TestTsaCa, opts: TsaOptions = {}): Promise<LoopbackTsa> {
  let mode: TsaMode = opts.mode ?? 'ok';
  let requests = 0;
  let stamped = 0;
  let seq = 0;
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      if (mode === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (mode === 'fail' || (opts.failAfter !== undefined && stamped >= opts.failAfter)) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('TSA unavailable');
        return;
      }
      if (opts.credentials) {
        const expected = `Basic ${Buffer.from(`${opts.credentials.username}:${opts.credentials.password}`).toString('base64')}`;
        if (req.headers.authorization !== expected) {
          res.writeHead(401, { 'www-authenticate': 'Basic realm="tsa"' }).end();
          return;
        }
      }
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(400).end();
        return;
      }
      const n = ++seq;
      const query = path.join(ca.dir, `q${n}-${process.pid}.tsq`);
      const reply = path.join(ca.dir, `r${n}-${process.pid}.tsr`);
      fs.writeFileSync(query, Buffer.concat(chunks));
      run('openssl', ['ts', '-reply', '-config', ca.configFile, '-queryfile', query, '-signer', ca.tsaCertFile,
        '-inkey', ca.tsaKeyFile, '-chain', ca.caCertFile, '-out', reply])
        .then(async () => {
          const body = await tampered(ca, mode, fs.readFileSync(reply), reply);
          stamped++;
          res.writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': body.length }).end(body);
        })
        .catch((err: unknown) => {
          res.writeHead(500).end(String(err));
        })
        .finally(() => {
          fs.rmSync(query, { force: true });
          fs.rmSync(reply, { force: true });
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    get requests() { return requests; },
    get stamped() { return stamped; },
    setMode: (m) => { mode = m; },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const toArrayBuffer = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** openssl's reply as it is (`ok`), or with its token spoilt the way `mode` says. */
async function tampered(ca: TestTsaCa, mode: TsaMode, reply: Buffer, replyFile: string): Promise<Buffer> {
  if (mode !== 'bad-signature' && mode !== 'no-eku') return reply;
  const resp = pkijs.TimeStampResp.fromBER(toArrayBuffer(reply));
  const signed = new pkijs.SignedData({ schema: resp.timeStampToken!.content });
  if (mode === 'bad-signature') {
    const value = new Uint8Array(signed.signerInfos[0]!.signature.valueBlock.valueHexView);
    value[value.length - 1]! ^= 0x01;
    signed.signerInfos[0]!.signature.valueBlock.valueHexView = value;
    resp.timeStampToken!.content = signed.toSchema(true);
  } else {
    const tst = `${replyFile}.tst`;
    const token = `${replyFile}.p7`;
    fs.writeFileSync(tst, Buffer.from(signed.encapContentInfo.eContent!.getValue()));
    await run('openssl', ['cms', '-sign', '-binary', '-nodetach', '-econtent_type', '1.2.840.113549.1.9.16.1.4', '-md', 'sha256', '-in', tst,
      '-signer', ca.noEkuCertFile, '-inkey', ca.tsaKeyFile, '-certfile', ca.caCertFile, '-outform', 'DER', '-out', token]);
    resp.timeStampToken = pkijs.ContentInfo.fromBER(toArrayBuffer(fs.readFileSync(token)));
    fs.rmSync(tst, { force: true });
    fs.rmSync(token, { force: true });
  }
  return Buffer.from(resp.toSchema().toBER());
}

/**
 * `openssl ts -verify` of a TimeStampToken (DER, a CMS ContentInfo) against the test CA, for the data
 * whose SHA-256 is `digestHex`. Returns openssl's output; throws when it does not verify.
 */
export function verifyTimestampToken(ca: TestTsaCa, token: Uint8Array, digestHex: string): string {
  const file = path.join(ca.dir, `token-${process.pid}-${Date.now()}.der`);
  fs.writeFileSync(file, token);
  try {
    return execFileSync('openssl', ['ts', '-verify', '-token_in', '-in', file, '-digest', digestHex, '-CAfile', ca.caCertFile,
      '-untrusted', ca.tsaCertFile], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } finally {
    fs.rmSync(file, { force: true });
  }
}
