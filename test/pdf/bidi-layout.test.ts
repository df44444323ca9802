import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forLayout, ltr, textDirection, visualPieces, visualRuns } from '../../src/pdf/shared/bidi-layout.js';

// The audit page's lines in visual order (UAX #9 through bidi-js): runs drawn left to right, each
// right-to-left run kept in logical order for the font's layout (which shapes and reverses it).

describe('visualRuns', () => {
  it('a left-to-right line without right-to-left letters is one run, controls removed', () => {
    assert.deepEqual(visualRuns(`Agreed ${ltr('2026-11-27 09:06:00 UTC')}`, 'ltr'), [{ text: 'Agreed 2026-11-27 09:06:00 UTC', rtl: false }]);
  });

  it('an Arabic sentence with a name in Latin letters: the runs in right-to-left order', () => {
    const runs = visualRuns('رفض Ada Lovelace التوقيع', 'rtl');
    assert.deepEqual(runs.map((r) => r.text.trim()), ['التوقيع', 'Ada Lovelace', 'رفض']);
    assert.deepEqual(runs.map((r) => r.rtl), [true, false, true]);
  });

  it('a time kept whole inside an Arabic sentence (an isolate), brackets mirrored', () => {
    const runs = visualRuns(`${ltr('2026-11-27 09:11:00 UTC')}: سحب (ألغاه)`, 'rtl');
    assert.ok(runs.some((r) => !r.rtl && r.text === '2026-11-27 09:11:00 UTC'), JSON.stringify(runs));
    assert.equal(runs.at(-1)!.text, '2026-11-27 09:11:00 UTC', 'the time, first in reading order, is drawn rightmost');
    assert.ok(runs.some((r) => r.rtl && r.text.includes(')ألغاه(')), 'brackets swapped for the right-to-left run');
  });

  it('neutrals alone in a right-to-left run are reversed for layout; letters are left to the font', () => {
    assert.equal(forLayout(': ·', true), '· :');
    assert.equal(forLayout('سجل', true), 'سجل');
    assert.equal(forLayout(': ·', false), ': ·');
  });
});

describe('values: the paragraph direction and the pieces handed to the font', () => {
  it('a value takes the direction of its first strong letter (as dir="auto" does)', () => {
    assert.equal(textDirection('12 شارع النخيل'), 'rtl');
    assert.equal(textDirection('רחוב הרצל 10'), 'rtl');
    assert.equal(textDirection('Acme שלום'), 'ltr');
    assert.equal(textDirection('2024'), 'ltr');
  });

  it('digits inside right-to-left text stay left to right, drawn left of the street name', () => {
    const pieces = visualPieces('12 شارع النخيل', 'rtl', (text) => [{ font: 'f', text }]);
    assert.equal(pieces[pieces.length - 1]!.text.trim(), '12', 'the number, first in reading order, is drawn rightmost');
    assert.ok(pieces.every((p) => !p.text.includes('21')));
    const hebrew = visualPieces('רחוב הרצל 10', 'rtl', (text) => [{ font: 'f', text }]);
    assert.equal(hebrew[0]!.text, '10', 'the number, last in reading order, is drawn leftmost');
  });

  it('Arabic-Indic digits, which the font would reverse as Arabic script, are handed over reversed', () => {
    assert.equal(forLayout('١٢', false), '٢١');
    assert.equal(forLayout('12', false), '12');
  });
});
