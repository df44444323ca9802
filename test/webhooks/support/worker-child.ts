// A worker process for the webhook crash tests: the real composition root from the environment, with
// a short lease so a killed worker's deliveries come back within the test's patience.
import { loadConfig } from '../../../src/config.js';
import { createDeps } from '../../../src/deps.js';

const deps = await createDeps(loadConfig(), { worker: { leaseMs: Number(process.env['TEST_LEASE_MS'] ?? 1500), concurrency: 8, pollMs: 200, log: () => undefined } });
await deps.worker.start();
process.stdout.write(`ready ${deps.worker.id}\n`);
process.once('SIGTERM', () => {
  void deps.close().then(() => process.exit(0));
});
