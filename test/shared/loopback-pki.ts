// A loopback PKI for long-term-validation tests: a root CA, an intermediate CA under it, and
// certificates the intermediate issues (a sealing certificate, TSA certificates), each naming where
// its status is published on one loopback HTTP server — an OCSP responder (`openssl ocsp`, one run
// per request, real RFC 6960 wire format) per CA and a CRL per CA (`openssl ca -gencrl`, DER). The
// CAs' databases are openssl index files written here, so a certificate can be revoked (`revoke()`)
// and both the responder and the next CRL say so. `down` makes every responder and CRL answer 500.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestTsaCa } from './tsa.js';

const run = promisify(execFile);

export interface IssuedCertificate {
  readonly name: string;
  readonly certFile: string;
  readonly keyFile: string;
  readonly der: Buffer;
  /** Serial number, upper-case hex as openssl prints it. */
  readonly serial: string;
}

export interface IssueOptions {
  /** Extensions for the certificate besides AIA and CRL DP (openssl x509 -extfile lines). */
  extensions: string;
  /** Name an OCSP responder in AIA (default true); a CRL distribution point is always named. */
  ocsp?: boolean;
}

export interface LoopbackPki {
  readonly dir: string;
  readonly root: IssuedCertificate;
  readonly intermediate: IssuedCertificate;
  /** Issued by the intermediate CA. */
  issue(name: string, opts: IssueOptions): IssuedCertificate;
  /** The certificate is revoked: in its CA's OCSP answers and, regenerated now, its CRL. */
  revoke(cert: IssuedCertificate): void;
  /** A PKCS#12 file of `cert` with the intermediate and root (algorithms node-forge reads). */
  p12(cert: IssuedCertificate, password: string): string;
  /** `cert` as a TSA for test/shared/tsa.ts's `startTsa`, its chain (intermediate, root) in each token. */
  tsa(cert: IssuedCertificate): TestTsaCa;
  /** Every OCSP responder and CRL server answers HTTP 500 while set. */
  down: boolean;
  readonly requests: { ocsp: number; crl: number };
  close(): Promise<void>;
}

const TS_CONFIG = `[ tsa ]\ndefault_tsa = tsa_config\n[ tsa_config ]\nserial = $dir/tsserial\ncrypto_device = builtin\nsigner_digest = sha256\n` +
  `default_policy = 1.3.6.1.4.1.4146.2.3\ndigests = sha256\naccuracy = secs:1\nordering = yes\ntsa_name = yes\ness_cert_id_chain = no\ness_cert_id_alg = sha256\n`;

export async function startLoopbackPki(): Promise<LoopbackPki> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-pki-'));
  const f = (name: string): string => path.join(dir, name);
  const ssl = (...args: string[]): string => execFileSync('openssl', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const requests = { ocsp: 0, crl: 0 };
  let seq = 0;
  const state = { down: false };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '';
      const crl = /^\/crl\/(root|intermediate)\.crl$/.exec(url);
      const ocsp = /^\/ocsp\/(root|intermediate)$/.exec(url);
      if (crl) requests.crl++;
      if (ocsp) requests.ocsp++;
      if (state.down || (!crl && !ocsp)) {
        res.writeHead(state.down ? 500 : 404).end();
        return;
      }
      if (crl) {
        res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(fs.readFileSync(f(`${crl[1]}.crl`)));
        return;
      }
      const ca = ocsp![1]!;
      const n = ++seq;
      fs.writeFileSync(f(`ocsp${n}.req`), Buffer.concat(chunks));
      run('openssl', ['ocsp', '-index', f(`${ca}.index`), '-rsigner', f(`${ca}.pem`), '-rkey', f(`${ca}.key`), '-CA', f(`${ca}.pem`),
        '-reqin', f(`ocsp${n}.req`), '-respout', f(`ocsp${n}.resp`), '-ndays', '1'])
        .then(() => res.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(fs.readFileSync(f(`ocsp${n}.resp`))))
        .catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const expiryOf = (certFile: string): string => {
    const end = new Date(ssl('x509', '-in', certFile, '-noout', '-enddate').trim().replace('notAfter=', ''));
    return `${end.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`;
  };
  const described = (name: string): IssuedCertificate => {
    const certFile = f(`${name}.pem`);
    ssl('x509', '-in', certFile, '-outform', 'DER', '-out', f(`${name}.der`));
    return {
      name, certFile, keyFile: f(`${name}.key`), der: fs.readFileSync(f(`${name}.der`)),
      serial: ssl('x509', '-in', certFile, '-noout', '-serial').trim().replace('serial=', '').toUpperCase(),
    };
  };
  const subjectOf = (name: string): string => `/CN=Formsign Test ${name}/O=Formsign tests`;
  const indexLine = (cert: IssuedCertificate, revokedAt?: string): string =>
    `${revokedAt ? 'R' : 'V'}\t${expiryOf(cert.certFile)}\t${revokedAt ?? ''}\t${cert.serial}\tunknown\t${subjectOf(cert.name)}\n`;
  const gencrl = (ca: 'root' | 'intermediate'): void => {
    fs.writeFileSync(f(`${ca}.cnf`), `[ ca ]\ndefault_ca = x\n[ x ]\ndatabase = ${f(`${ca}.index`)}\ncrlnumber = ${f(`${ca}.crlnumber`)}\ndefault_md = sha256\ndefault_crl_days = 30\n`);
    ssl('ca', '-gencrl', '-config', f(`${ca}.cnf`), '-keyfile', f(`${ca}.key`), '-cert', f(`${ca}.pem`), '-out', f(`${ca}.crl.pem`));
    ssl('crl', '-in', f(`${ca}.crl.pem`), '-outform', 'DER', '-out', f(`${ca}.crl`));
  };
  const statusExtensions = (ca: 'root' | 'intermediate', ocsp: boolean): string =>
    `${ocsp ? `authorityInfoAccess=OCSP;URI:${base}/ocsp/${ca}\n` : ''}crlDistributionPoints=URI:${base}/crl/${ca}.crl\n`;
  const signWith = (ca: 'root' | 'intermediate', name: string, extensions: string): IssuedCertificate => {
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f(`${name}.key`), '-out', f(`${name}.csr`), '-subj', subjectOf(name));
    fs.writeFileSync(f(`${name}.ext`), extensions);
    ssl('x509', '-req', '-in', f(`${name}.csr`), '-CA', f(`${ca}.pem`), '-CAkey', f(`${ca}.key`), '-set_serial', `0x${(Date.now() * 1000 + ++seq).toString(16)}`,
      '-out', f(`${name}.pem`), '-days', '30', '-extfile', f(`${name}.ext`));
    const cert = described(name);
    fs.appendFileSync(f(`${ca}.index`), indexLine(cert));
    gencrl(ca);
    return cert;
  };

  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('root.key'), '-out', f('root.pem'), '-days', '60', '-subj', subjectOf('root'),
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  const root = described('root');
  for (const ca of ['root', 'intermediate']) {
    fs.writeFileSync(f(`${ca}.index`), '');
    fs.writeFileSync(f(`${ca}.crlnumber`), '01\n');
  }
  gencrl('root');
  // The intermediate's status: the root's CRL only (the root runs no OCSP responder).
  const intermediate = signWith('root', 'intermediate', `basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n${statusExtensions('root', false)}`);
  gencrl('intermediate');
  const chainFile = f('chain.pem');
  fs.writeFileSync(chainFile, `${fs.readFileSync(intermediate.certFile, 'utf8')}${fs.readFileSync(root.certFile, 'utf8')}`);

  const pki: LoopbackPki = {
    dir, root, intermediate,
    get down() { return state.down; },
    set down(v: boolean) { state.down = v; },
    requests,
    issue: (name, opts) => signWith('intermediate', name, `${opts.extensions}${statusExtensions('intermediate', opts.ocsp ?? true)}`),
    revoke(cert) {
      const ca = cert === intermediate ? 'root' : 'intermediate';
      const now = `${new Date(Date.now() - 60_000).toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`;
      const lines = fs.readFileSync(f(`${ca}.index`), 'utf8').split('\n').filter((l) => l && l.split('\t')[3] !== cert.serial);
      fs.writeFileSync(f(`${ca}.index`), `${lines.map((l) => `${l}\n`).join('')}${indexLine(cert, now)}`);
      gencrl(ca);
    },
    p12(cert, password) {
      const out = f(`${cert.name}.p12`);
      ssl('pkcs12', '-export', '-inkey', cert.keyFile, '-in', cert.certFile, '-certfile', chainFile, '-out', out, '-passout', `pass:${password}`,
        '-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1');
      return out;
    },
    tsa(cert) {
      fs.writeFileSync(f('tsserial'), '01\n');
      fs.writeFileSync(f(`${cert.name}.ts.cnf`), TS_CONFIG.replace('$dir', dir));
      return {
        dir, caCertFile: chainFile, caCertPem: fs.readFileSync(root.certFile, 'utf8'), tsaCertFile: cert.certFile, tsaKeyFile: cert.keyFile,
        noEkuCertFile: cert.certFile, configFile: f(`${cert.name}.ts.cnf`), remove: () => undefined,
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return pki;
}
