import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GENERATED_CERT_FILE, loadSigningCertificate } from '../../src/pdf/index.js';

// A new DATA_DIR makes the service generate its self-signed RSA-2048 certificate at the first start:
// about a second of CPU, paid by every harness, store and server a test starts (hundreds a run). Test
// stores are given one certificate instead, made by that same code once per run (FORMSIGN_TEST_RUN,
// set by scripts/run-tests.ts, which removes it at the end) or once per process for a file run alone.
// The generation itself is tested in test/pdf/seal-certificate.test.ts, on empty directories.

const RUN_ID = process.env.FORMSIGN_TEST_RUN;

/** Where a run keeps its one certificate: the runner removes its run's `formsign-test-<run>-*` files. */
function runCertificateFile(runId: string): string {
  return path.join(os.tmpdir(), `formsign-test-${runId}-service-certificate.pem`);
}

let pem: string | undefined;

function generate(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-cert-'));
  try {
    loadSigningCertificate({ dataDir: dir, serviceName: 'Formsign' });
    return fs.readFileSync(path.join(dir, GENERATED_CERT_FILE), 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function certificatePem(): string {
  if (pem !== undefined) return pem;
  if (!RUN_ID) return (pem = generate());
  const shared = runCertificateFile(RUN_ID);
  if (!fs.existsSync(shared)) {
    // Files starting at once may each make one; the first link wins and all use that one.
    const temp = `${shared}.${process.pid}.tmp`;
    fs.writeFileSync(temp, generate(), { mode: 0o600 });
    try {
      fs.linkSync(temp, shared);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  return (pem = fs.readFileSync(shared, 'utf8'));
}

/**
 * Puts the run's service certificate into a new DATA_DIR, where the service would have generated its
 * own (same file, same modes), unless the store's env names an operator's certificate instead.
 */
export function seedServiceCertificate(dataDir: string, env: Record<string, string | undefined> = {}): void {
  if (env['SIGNING_CERT_P12']) return;
  const file = path.join(dataDir, GENERATED_CERT_FILE);
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, certificatePem(), { mode: 0o600, flag: 'wx' });
}
