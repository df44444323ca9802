// The certificate this service seals with, recorded in DATA_DIR at every start (public parts only:
// the certificate and its chain, PEM), so that `formsign verify` offline can say "issued by this
// service" from the data directory alone, whether the service seals with its generated certificate
// or with an operator's SIGNING_CERT_P12 (whose password the CLI is not given).
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceCertificates } from './verification.js';

export const SEAL_CERTIFICATE_RECORD = path.join('signing', 'seal-certificate.pem');

const pem = (der: Uint8Array): string => new X509Certificate(Buffer.from(der)).toString();

/** Writes (or rewrites, when it changed) the record of the service's seal certificate; false when DATA_DIR cannot be written. */
export function recordServiceCertificate(dataDir: string, cert: ServiceCertificates): boolean {
  const file = path.join(dataDir, SEAL_CERTIFICATE_RECORD);
  const content = [cert.certificateDer, ...cert.chainDer].map(pem).join('');
  try {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === content) return true;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written aside and renamed: a CLI reading at the same moment sees the old record or the new one.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, content, { mode: 0o644 });
    fs.renameSync(temp, file);
    return true;
  } catch {
    return false;
  }
}

/** The recorded seal certificate and its chain, or undefined when none is recorded or it cannot be read. */
export function readServiceCertificate(dataDir: string): ServiceCertificates | undefined {
  const file = path.join(dataDir, SEAL_CERTIFICATE_RECORD);
  try {
    const blocks = fs.readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    const [first, ...chain] = blocks.map((b) => new X509Certificate(b).raw);
    return first ? { certificateDer: first, chainDer: chain } : undefined;
  } catch {
    return undefined;
  }
}
