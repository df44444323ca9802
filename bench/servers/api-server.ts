// Formsign itself on the embedded default (SQLite in a temp DATA_DIR), seeded for the benchmarks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { insertTemplate } from '../../src/db/repositories/templates.js';
import { createDeps } from '../../src/deps.js';
import { createAccount } from '../../src/domain/accounts/manage-accounts.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { createSampleTemplate } from '../../src/domain/templates/import-template.js';
import { newId } from '../../src/lib/ids.js';
import type { FieldDef } from '../../src/pdf/field.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-bench-'));
const deps = await createDeps(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }));
const account = await createAccount(deps.domain, { name: 'bench' });
const key = await createApiKey(deps.domain, { accountId: account.id, mode: 'test' });
const p = { accountId: account.id, mode: 'test' as const };
const sample = await createSampleTemplate(deps.domain, p);
for (let i = 1; i < 20; i++) await createSampleTemplate(deps.domain, p);

// A template with 20 text fields for the POST /forms benchmark (prefill of 20 keys).
const fields: FieldDef[] = Array.from({ length: 20 }, (_, i) => ({ name: `field_${i}`, type: 'text', required: false, signer: 1, page: 1, x: 50, y: 40 + i * 30, width: 300, height: 20 }));
const wide = newId('template');
const now = new Date().toISOString();
const sampleRow = await deps.database.db.selectFrom('templates').select(['pdf_key', 'pdf_sha256']).where('id', '=', sample.id).executeTakeFirstOrThrow();
await insertTemplate(deps.database.db, p, { id: wide, name: 'twenty fields', page_count: 1, fields: JSON.stringify(fields), signer_count: 1, warnings: '[]', ...sampleRow, created_at: now, updated_at: now });

const app = await buildApp(deps.http, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port, key: key.key, wideTemplateId: wide })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => deps.close()).finally(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
