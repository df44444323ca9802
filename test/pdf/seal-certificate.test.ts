// The service certificate: generated once into DATA_DIR and reused, or read from a PKCS#12 file; a
// file that cannot be used stops the start with one line naming the variable to fix.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import forge from 'node-forge';
import { GENERATED_CERT_FILE, loadSigningCertificate, SigningCertificateError } from '../../src/pdf/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];
const tempDir = (): string => { const d = mkdtempSync(join(tmpdir(), 'formsign-cert-')); dirs.push(d); return d; };
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

/** A PKCS#12 file made with node-forge: an RSA key, its certificate, and an issuer certificate. */
function makeP12(password: string): { file: string; certDer: Buffer; caDer: Buffer } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const make = (cn: string, serial: string) => {
    const c = forge.pki.createCertificate();
    c.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
    c.serialNumber = serial;
    c.validity.notBefore = new Date(Date.now() - 86_400_000);
    c.validity.notAfter = new Date(Date.now() + 86_400_000 * 365);
    c.setSubject([{ name: 'commonName', value: cn }, { name: 'organizationName', value: 'Acme Test Ltd' }]);
    c.setIssuer([{ name: 'commonName', value: cn }]);
    c.sign(key, forge.md.sha256.create());
    return c;
  };
  const own = make('Acme Signing', '0a01');
  const ca = make('Acme Test CA', '0a02');
  const der = forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [own, ca], password, { algorithm: '3des' })).getBytes();
  const file = join(tempDir(), 'service.p12');
  writeFileSync(file, Buffer.from(der, 'binary'));
  const toDer = (c: forge.pki.Certificate) => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(c)).getBytes(), 'binary');
  return { file, certDer: toDer(own), caDer: toDer(ca) };
}

function failure(fn: () => unknown): SigningCertificateError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof SigningCertificateError, String(err));
    return err;
  }
  assert.fail('expected a SigningCertificateError');
}

describe('the generated service certificate', () => {
  it('is made once in DATA_DIR (RSA 2048+, naming the service, key readable by the owner only) and reused', () => {
    const dataDir = tempDir();
    const first = loadSigningCertificate({ dataDir, serviceName: 'Formsign Example' });
    const x509 = new X509Certificate(first.certificateDer);
    assert.match(first.subject, /CN=Formsign Example document signing/);
    assert.match(first.subject, /O=Formsign Example/);
    assert.equal(x509.issuer, x509.subject, 'self-signed');
    assert.ok(x509.verify(x509.publicKey));
    assert.equal(first.key.asymmetricKeyType, 'rsa');
    assert.ok((first.key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048);
    assert.ok(x509.checkPrivateKey(first.key));
    assert.ok(new Date(x509.validTo).getTime() > Date.now() + 5 * 365 * 86_400_000);
    assert.equal(statSync(join(dataDir, GENERATED_CERT_FILE)).mode & 0o777, 0o600);
    const again = loadSigningCertificate({ dataDir, serviceName: 'Formsign Example' });
    assert.deepEqual(again.certificateDer, first.certificateDer);
  });

  it('stops with DATA_DIR named when the stored file is damaged', () => {
    const dataDir = tempDir();
    loadSigningCertificate({ dataDir, serviceName: 'x' });
    writeFileSync(join(dataDir, GENERATED_CERT_FILE), 'not a certificate');
    assert.equal(failure(() => loadSigningCertificate({ dataDir, serviceName: 'x' })).variable, 'DATA_DIR');
  });
});

describe('a PKCS#12 certificate (SIGNING_CERT_P12)', () => {
  const p12 = makeP12('correct horse');

  it('loads the key, its certificate and the rest of the chain', () => {
    const cert = loadSigningCertificate({ p12Path: p12.file, password: 'correct horse', dataDir: tempDir(), serviceName: 'x' });
    assert.deepEqual(cert.certificateDer, p12.certDer);
    assert.deepEqual(cert.chainDer, [p12.caDer]);
    assert.match(cert.subject, /CN=Acme Signing/);
    assert.ok(new X509Certificate(cert.certificateDer).checkPrivateKey(cert.key));
  });

  it('with a wrong password: a clear error naming SIGNING_CERT_PASSWORD', () => {
    const err = failure(() => loadSigningCertificate({ p12Path: p12.file, password: 'wrong', dataDir: tempDir(), serviceName: 'x' }));
    assert.equal(err.variable, 'SIGNING_CERT_PASSWORD');
    assert.match(err.message, /^SIGNING_CERT_PASSWORD does not open .*service\.p12 \(wrong password\)$/);
  });

  it('not a PKCS#12 file, or missing: an error naming SIGNING_CERT_P12', () => {
    const junk = join(tempDir(), 'junk.p12');
    writeFileSync(junk, 'hello');
    assert.equal(failure(() => loadSigningCertificate({ p12Path: junk, password: '', dataDir: tempDir(), serviceName: 'x' })).variable, 'SIGNING_CERT_P12');
    assert.equal(failure(() => loadSigningCertificate({ p12Path: join(tempDir(), 'absent.p12'), password: '', dataDir: tempDir(), serviceName: 'x' })).variable, 'SIGNING_CERT_P12');
  });

  it('stops `formsign serve` with one line naming the variable', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'bin/formsign.js'), 'serve'], {
      cwd: ROOT, encoding: 'utf8', timeout: 60_000,
      env: { PATH: process.env.PATH, DATA_DIR: tempDir(), PORT: '0', SIGNING_CERT_P12: p12.file, SIGNING_CERT_PASSWORD: 'wrong' },
    });
    assert.equal(run.status, 2, run.stderr);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr, /^Invalid configuration: SIGNING_CERT_PASSWORD does not open .*\(wrong password\)$/m);
    assert.equal(run.stdout, '');
  });
});
