// Formsign on SQLite with one account and the forms the PDF-load benchmark renders: a 13-page form
// merged by qpdf from two fixtures, imported once, and four forms of it, none rendered yet.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';
import { createAccount, setAccountLimits } from '../../src/domain/accounts/manage-accounts.js';
import { createForm } from '../../src/domain/forms/create-form.js';
import { createApiKey } from '../../src/domain/keys/manage-keys.js';
import { importTemplate } from '../../src/domain/templates/import-template.js';
import { parseJson } from '../../src/domain/json.js';

const FIXTURES = path.join(import.meta.dirname, '../../test/fixtures/pdfs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-bench-pdf-'));
const big = path.join(dir, 'big.pdf');
const merged = spawnSync('qpdf', ['--empty', '--pages', path.join(FIXTURES, 'cdc_icar_ltc_assessment.pdf'), path.join(FIXTURES, 'uscis_i90_encrypted_xfa.pdf'), '--', big]);
if (merged.status !== 0 && merged.status !== 3) throw new Error(`qpdf: ${merged.stderr.toString()}`);

const deps = await createDeps(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }));
const account = await createAccount(deps.domain, { name: 'bench', plan: 'paid' });
// Limits are checked on every request, but the benchmark's load is not refused.
await setAccountLimits(deps.domain, account.id, { monthly: 1_000_000_000, perMinute: 1_000_000_000 });
const key = await createApiKey(deps.domain, { accountId: account.id, mode: 'test' });
const p = { accountId: account.id, mode: 'test' as const };
const template = await importTemplate(deps.domain, p, { pdf: new Uint8Array(fs.readFileSync(big)) });
const text = template.fields.filter((f) => f.type === 'text');
const forms: string[] = [];
for (let i = 0; i < 4; i++) {
  const prefill = Object.fromEntries(text.map((f, j) => [f.name, `Value ${i}-${j}`.slice(0, f.max_length ?? 100)]));
  forms.push(parseJson((await createForm(deps.domain, p, { template_id: template.id, prefill })).form).id);
}

const app = await buildApp(deps.http, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const info = { port: (app.server.address() as { port: number }).port, key: key.key, forms, pages: template.page_count, fields: template.fields.length, workers: deps.config.pdf.workers, bigPath: big };
process.stdout.write(`${JSON.stringify(info)}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => deps.close()).finally(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
