import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { DIALECTS } from '../harness.js';
import { harnessWithWorker } from '../shared/worker-harness.js';
import { leftToRightRuns, MIXED_DIRECTION } from '../shared/mixed-direction.js';
import { sealedMixedDirectionForm, type MixedDirectionBox } from './support.js';

// Right-to-left values in the sealed PDF (the legal record): every string of the mixed-direction table,
// typed by a signer into an AcroForm field and a flat-page field, sealed by the worker, read back with
// pdftotext. Each run of digits (and each Latin word or address) must come out with its characters in
// the order they were typed: fontkit used to reverse a whole value whose first letter is Arabic or
// Hebrew, so "12 شارع النخيل" was printed "21 شارع النخيل". (rtl-values-browser.test.ts compares the
// drawing itself with Chromium's.)

// pdftotext marks directions with embedding controls; compare without them.
const CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** The text pdftotext reads inside one box of page 1 (PDF points from the top left). */
function textIn(file: string, box: MixedDirectionBox): string {
  const args = ['-f', '1', '-l', '1', '-r', '72', '-x', String(box.x), '-y', String(box.y), '-W', String(box.width), '-H', String(box.height), file, '-'];
  const run = spawnSync('pdftotext', args, { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.replace(CONTROLS, '').replace(/\s+/g, ' ').trim();
}

for (const dialect of DIALECTS) {
  describe(`right-to-left values in the sealed PDF (${dialect})`, () => {
    const harness = harnessWithWorker(dialect);
    let dir: string;
    let file: string;
    let boxes: MixedDirectionBox[];
    before(async () => {
      const sealed = await sealedMixedDirectionForm(harness());
      boxes = sealed.boxes;
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formsign-rtl-'));
      file = path.join(dir, 'sealed.pdf');
      fs.writeFileSync(file, sealed.pdf);
    });

    for (const [i, c] of MIXED_DIRECTION.entries()) {
      it(`${c.name}: "${c.text}" keeps each digit run and Latin word in order, in an AcroForm field and on a flat page`, () => {
        for (const box of boxes.filter((b) => b.name.endsWith(`_${i}`))) {
          const got = textIn(file, box);
          for (const run of leftToRightRuns(c.text)) {
            assert.ok(got.includes(run), `${box.drawn}: "${run}" in "${got}" (typed "${c.text}")`);
          }
          // Nothing lost or added: the same characters, whatever the order pdftotext puts the runs in.
          const letters = (s: string) => [...s.replace(/\s/g, '')].sort().join('');
          assert.equal(letters(got), letters(c.text), `${box.drawn}: the characters of "${c.text}", read "${got}"`);
        }
      });
    }

    it('the signer\'s Arabic name with its Latin part reads in order on the audit page', () => {
      const run = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' });
      const text = run.stdout.replace(CONTROLS, '');
      assert.ok(text.includes('Sara Ali'), 'the Latin part of the name');
      assert.ok(!text.includes('ilA araS'), 'never reversed');
      fs.rmSync(dir, { recursive: true, force: true });
    });
  });
}
