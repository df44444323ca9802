// A worker process for the seal crash test: the real composition root with a short lease, whose seal
// job stops once the PDF is signed and before it is stored. It writes `<SEAL_GATE_DIR>/<form id>` there
// and waits for good: the test sees the file, knows the job is mid-way, and SIGKILLs this process.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';

const gateDir = process.env['SEAL_GATE_DIR'];
if (!gateDir) throw new Error('SEAL_GATE_DIR is not set');

const deps = await createDeps(loadConfig(), {
  worker: { leaseMs: Number(process.env['TEST_LEASE_MS'] ?? 1500), concurrency: 4, pollMs: 200, log: () => undefined },
  afterSeal: async (formId) => {
    fs.writeFileSync(path.join(gateDir, formId), `${process.pid}\n`);
    await new Promise<never>(() => undefined);
  },
});
await deps.worker.start();
process.stdout.write(`ready ${deps.worker.id}\n`);
process.once('SIGTERM', () => {
  void deps.close().then(() => process.exit(0));
});
