// Formsign itself on the embedded default (SQLite in a temp DATA_DIR), seeded for the benchmarks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';
import { createAccount, setAccountLimits } from '../../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { createSampleTemplate } from '../../src/domain/templates/import-template.js';
import { seedWide } from './seed-wide.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-bench-'));
const deps = await createDeps(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }));
const account = await createAccount(deps.domain, { name: 'bench' });
// Limits are checked on every request, but the benchmark's load is not refused.
await setAccountLimits(deps.domain, account.id, { monthly: 1_000_000_000, perMinute: 1_000_000_000 });
const key = await createApiKey(deps.domain, { accountId: account.id, mode: 'test' });
const p = { accountId: account.id, mode: 'test' as const };
for (let i = 0; i < 20; i++) await createSampleTemplate(deps.domain, p);

const wide = await seedWide(deps, p);

const app = await buildApp(deps.http, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port, key: key.key, wideTemplateId: wide })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => deps.close()).finally(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
