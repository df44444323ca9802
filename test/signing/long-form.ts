import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Actor, Harness } from '../harness.js';
import { FIXTURES_DIR } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';

// A real 13-page form for the large-document tests and the time-to-interactive benchmark: the DS-11
// (6 pages), the CDC assessment (6) and the first page of the 1040, joined by qpdf (which keeps their
// form fields). Built once per process into the temporary folder rather than kept as a 2.5 MB fixture.

let built: Buffer | undefined;

export function thirteenPagePdf(): Buffer {
  if (built) return built;
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-13-')), 'thirteen-pages.pdf');
  const f = (name: string) => path.join(FIXTURES_DIR, name);
  execFileSync('qpdf', ['--empty', '--pages', f('us_state_ds11_passport_application.pdf'), f('cdc_icar_ltc_assessment.pdf'), f('irs_f1040_2019_xfa_hybrid.pdf'), '1', '--', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  built = fs.readFileSync(out);
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return built;
}

/** The 13-page form imported as a template through the API; its id. */
export async function thirteenPageTemplate(h: Harness, as: Actor): Promise<string> {
  const m = multipart([{ name: 'file', value: thirteenPagePdf(), filename: 'thirteen-pages.pdf' }, { name: 'name', value: 'Passport, care assessment and tax return' }]);
  const res = await h.request({ method: 'POST', url: '/api/v1/templates', as, payload: m.payload, headers: m.headers });
  assert.equal(res.status, 201, res.body);
  const t = res.json<{ id: string; page_count: number }>();
  assert.equal(t.page_count, 13);
  return t.id;
}
