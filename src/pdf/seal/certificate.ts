// The service certificate sealed PDFs are signed with: an operator's PKCS#12 file
// (SIGNING_CERT_P12 / SIGNING_CERT_PASSWORD), or else a self-signed one generated on first start
// into DATA_DIR and reused afterwards. Loaded once at start; anything wrong stops the start with a
// message naming the variable to fix.
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type forge from 'node-forge';
import { loadOnFirstUse } from '../../lib/load-on-first-use.js';

export interface SigningCertificate {
  readonly key: KeyObject;
  /** The signer's certificate (DER). */
  readonly certificateDer: Buffer;
  /** Issuing certificates from the PKCS#12 file, if any (DER), placed in the signature beside it. */
  readonly chainDer: readonly Buffer[];
  /** One-line subject, e.g. "CN=Formsign document signing, O=Formsign". */
  readonly subject: string;
}

export interface SigningCertificateOptions {
  p12Path?: string | undefined;
  password?: string | undefined;
  dataDir: string;
  serviceName: string;
}

/** A certificate that cannot be used; `variable` is the setting to fix. */
export class SigningCertificateError extends Error {
  constructor(readonly variable: string, readonly detail: string) {
    super(`${variable} ${detail}`);
    this.name = 'SigningCertificateError';
  }
}

/** Where the generated certificate and its key live (one file, so they are replaced together). */
export const GENERATED_CERT_FILE = path.join('signing', 'service-certificate.pem');
const VALID_YEARS = 10;

// node-forge (reading a PKCS#12 file, making the self-signed certificate) costs tens of milliseconds
// to load and is needed only on a first start or with SIGNING_CERT_P12, so it is required then; a
// stored certificate is read with node:crypto alone.
const loadForge = loadOnFirstUse<typeof forge>('node-forge');

export function loadSigningCertificate(opts: SigningCertificateOptions): SigningCertificate {
  if (opts.p12Path) return fromP12(opts.p12Path, opts.password ?? '');
  return generatedCertificate(opts.dataDir, opts.serviceName);
}

function fromP12(p12Path: string, password: string): SigningCertificate {
  const forge = loadForge();
  let der: Buffer;
  try {
    der = fs.readFileSync(p12Path);
  } catch (err) {
    throw new SigningCertificateError('SIGNING_CERT_P12', `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}): ${p12Path}`);
  }
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(der.toString('binary')));
  } catch {
    throw new SigningCertificateError('SIGNING_CERT_P12', `is not a PKCS#12 (.p12/.pfx) file: ${p12Path}`);
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // forge checks the file's MAC with the password first: a mismatch is a wrong password.
    if (/MAC could not be verified|Invalid password/i.test(message)) {
      throw new SigningCertificateError('SIGNING_CERT_PASSWORD', `does not open ${p12Path} (wrong password)`);
    }
    throw new SigningCertificateError('SIGNING_CERT_P12', `could not be read as PKCS#12 (${message.split('\n')[0]}): ${p12Path}`);
  }
  const keyBags = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag!] ?? []),
  ];
  const certBags = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag!] ?? [];
  const keyBag = keyBags.find((b) => b.key);
  if (!keyBag?.key) throw new SigningCertificateError('SIGNING_CERT_P12', `holds no RSA private key (or SIGNING_CERT_PASSWORD is wrong): ${p12Path}`);
  const key = createPrivateKey(forge.pki.privateKeyToPem(keyBag.key));
  const certs = certBags.flatMap((b) => (b.cert ? [Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(b.cert)).getBytes(), 'binary')] : []));
  const own = certs.find((c) => new X509Certificate(c).checkPrivateKey(key));
  if (!own) throw new SigningCertificateError('SIGNING_CERT_P12', `holds no certificate for its private key: ${p12Path}`);
  return described(key, own, certs.filter((c) => c !== own));
}

function described(key: KeyObject, certificateDer: Buffer, chainDer: Buffer[]): SigningCertificate {
  if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
    throw new SigningCertificateError('SIGNING_CERT_P12', 'must hold an RSA key of at least 2048 bits');
  }
  const subject = new X509Certificate(certificateDer).subject.split('\n').join(', ');
  return Object.freeze({ key, certificateDer, chainDer: Object.freeze(chainDer), subject });
}

function generatedCertificate(dataDir: string, serviceName: string): SigningCertificate {
  const file = path.join(dataDir, GENERATED_CERT_FILE);
  if (!fs.existsSync(file)) writeOnce(file, makeSelfSigned(serviceName));
  const pem = fs.readFileSync(file, 'utf8');
  try {
    const key = createPrivateKey(pem);
    const cert = new X509Certificate(pem);
    if (!cert.checkPrivateKey(key)) throw new Error('the key does not match the certificate');
    return described(key, Buffer.from(cert.raw), []);
  } catch (err) {
    throw new SigningCertificateError('DATA_DIR', `holds an unusable ${GENERATED_CERT_FILE} (${err instanceof Error ? err.message : String(err)}); remove it to generate a new one`);
  }
}

/**
 * Writes the file only if it does not exist yet (two processes starting at once both end up with
 * the one that won), readable by the owner only since it holds the private key.
 */
function writeOnce(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, content, { mode: 0o600 });
  try {
    fs.linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** An RSA-2048 self-signed certificate naming the service, as PEM (key, then certificate). */
function makeSelfSigned(serviceName: string, now = new Date()): string {
  const forge = loadForge();
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  // A positive 16-byte serial (the top bit clear).
  cert.serialNumber = `${(randomBytes(1)[0]! & 0x7f).toString(16).padStart(2, '0')}${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime());
  cert.validity.notAfter.setUTCFullYear(now.getUTCFullYear() + VALID_YEARS);
  const name = [{ name: 'commonName', value: `${serviceName} document signing` }, { name: 'organizationName', value: serviceName }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return `${keyPem}${forge.pki.certificateToPem(cert)}`;
}

/** SHA-256 of the signer's certificate, as ESS signingCertificateV2 names it. */
export function certificateHash(cert: SigningCertificate): Buffer {
  return createHash('sha256').update(cert.certificateDer).digest();
}
