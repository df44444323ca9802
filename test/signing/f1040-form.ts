import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { Harness } from '../harness.js';
import { fixture } from '../shared/fixtures.js';
import { multipart } from '../shared/multipart.js';

// The IRS 1040 as the signing page's browser tests use it: uploaded, a few fields made required, one
// made an e-mail field, and a signature box added on page 2; and a signature drawn on the page's pad.

const P1 = 'topmostSubform[0].Page1[0]';
export const SINGLE = `${P1}.FilingStatus[0].c1_01[0]`;
export const FIRST = `${P1}.f1_02[0]`;
export const LAST = `${P1}.f1_03[0]`;
export const MAIL = `${P1}.ReadOrderControl[0].Address[0].f1_09[0]`;
export const SIGNATURE = 'signature';
/** The required fields in the panel's (the template's) order. */
export const REQUIRED = [SINGLE, FIRST, LAST, MAIL, SIGNATURE];

interface Field { name: string; type: string; label?: string; required: boolean; [k: string]: unknown }

/** The 1040 as a template of account A's test mode; its id. */
export async function f1040Template(h: Harness): Promise<string> {
  const m = multipart([{ name: 'file', value: fixture('irs_f1040_2019_xfa_hybrid.pdf'), filename: 'f1040.pdf' }, { name: 'name', value: 'Form 1040 (2019)' }]);
  const res = await h.request({ method: 'POST', url: '/api/v1/templates', as: h.actors.aTest, payload: m.payload, headers: m.headers });
  assert.equal(res.status, 201, res.body);
  const t = res.json<{ id: string; fields: Field[] }>();
  // The sender marks a few fields required, makes one an e-mail field and adds a signature box.
  const fields: Field[] = t.fields.map((f) => {
    if (f.name === MAIL) return { ...f, type: 'email', label: 'Your e-mail address', required: true, max_length: undefined };
    return [SINGLE, FIRST, LAST].includes(f.name) ? { ...f, required: true } : f;
  });
  fields.push({ name: SIGNATURE, type: 'signature', label: 'Your signature', required: true, signer: 1, page: 2, x: 100, y: 620, width: 200, height: 30 });
  const patched = await h.request({ method: 'PATCH', url: `/api/v1/templates/${t.id}`, as: h.actors.aTest, json: { fields } });
  assert.equal(patched.status, 200, patched.body);
  return t.id;
}

/** Opens the signature dialog with `button`, draws a wave on the pad and applies it. */
export async function drawSignature(page: Page, button: Locator): Promise<void> {
  await button.click();
  await page.locator('#sig-dialog').waitFor({ state: 'visible' });
  const box = await page.locator('#pad').boundingBox();
  assert.ok(box);
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 20, y);
  await page.mouse.down();
  for (let i = 1; i <= 30; i++) await page.mouse.move(box.x + 20 + i * ((box.width - 40) / 30), y + Math.sin(i / 3) * box.height * 0.3, { steps: 2 });
  await page.mouse.up();
  await page.locator('#sig-apply').click();
  await page.locator('#sig-dialog').waitFor({ state: 'hidden' });
}
