import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** Opens the signature dialog of the field `name`, draws a stroke with the mouse and applies it (as a signer would). */
export async function drawSignature(page: Page, name: string): Promise<void> {
  await page.locator(`[data-field="${name}"]`).getByRole('button', { name: /Add signature/ }).click();
  await page.locator('#sig-dialog').waitFor({ state: 'visible' });
  const pad = await page.locator('#pad').boundingBox();
  assert.ok(pad);
  await page.mouse.move(pad.x + 20, pad.y + pad.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) await page.mouse.move(pad.x + 20 + i * ((pad.width - 40) / 20), pad.y + pad.height / 2 + Math.sin(i / 2) * 10, { steps: 2 });
  await page.mouse.up();
  await page.locator('#sig-apply').click();
  await page.locator('#sig-dialog').waitFor({ state: 'hidden' });
}
