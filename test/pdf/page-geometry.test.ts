import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { degrees, PDFDocument } from '@cantoo/pdf-lib';
import { rectFromTopLeft, rectToTopLeft } from '../../src/pdf/shared/page-geometry.js';

async function page(rotation: number, box?: [number, number, number, number]) {
  const doc = await PDFDocument.create();
  const p = doc.addPage([600, 800]);
  if (box) { p.setMediaBox(...box); p.setCropBox(...box); }
  p.setRotation(degrees(rotation));
  return p;
}

describe('page geometry', () => {
  it('flips the y axis and subtracts the box origin', async () => {
    const p = await page(0, [100, 50, 600, 800]);
    // A field whose top-left corner is 10 pt right of and 20 pt below the visible top-left corner.
    assert.deepEqual(rectToTopLeft(p, [110, 780, 140, 830]), { x: 10, y: 20, width: 30, height: 50 });
  });

  it('uses the visible part: the overlap of CropBox and MediaBox', async () => {
    const p = await page(0);
    p.setCropBox(50, 50, 500, 700);
    assert.deepEqual(rectToTopLeft(p, [60, 700, 70, 740]), { x: 10, y: 10, width: 10, height: 40 });
  });

  it('round-trips on every quarter turn', async () => {
    for (const rotation of [0, 90, 180, 270]) {
      const p = await page(rotation, [20, 30, 600, 800]);
      const user = { x: 120, y: 230, width: 80, height: 15 };
      const shown = rectToTopLeft(p, [user.x, user.y, user.x + user.width, user.y + user.height]);
      assert.deepEqual(rectFromTopLeft(p, shown), user, `rotation ${rotation}`);
      if (rotation % 180 !== 0) assert.deepEqual([shown.width, shown.height], [15, 80], 'width and height swap');
    }
  });

  it('accepts /Rect corners in any order', async () => {
    const p = await page(0);
    assert.deepEqual(rectToTopLeft(p, [140, 830, 110, 780]), rectToTopLeft(p, [110, 780, 140, 830]));
  });
});
