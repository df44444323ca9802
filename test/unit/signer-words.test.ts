import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHECK_WORDS } from '../../src/http/pages/sign/check-words.js';
import { REASSIGN_WORDS } from '../../src/http/pages/sign/reassign-words.js';
import { ADOPT_WORDS } from '../../src/http/pages/sign/adopt-words.js';
import { LOCALES } from '../../src/lib/i18n/index.js';
import { CHECK_AUDIT_WORDS } from '../../src/pdf/audit/check-words.js';

// Issue 38's signer-facing words (the code screen, the meaning line, "Assign to someone else", the page
// of a replaced link, the audit trail's check and replacement lines) live beside the pages that show
// them, one table per set. Every language of the signing page must have every key, translated: this
// fails when a catalogue lacks a key, leaves one empty, keeps the English, or drops a placeholder.

const SETS = { 'check-words': CHECK_WORDS, 'reassign-words': REASSIGN_WORDS, 'adopt-words': ADOPT_WORDS, 'audit check-words': CHECK_AUDIT_WORDS } as const;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
// Words that are the same in some languages (a code is a "Code" in German and Dutch too).
const SAME_AS_ENGLISH = new Set(['codeLabel', 'upload']);

for (const [name, set] of Object.entries(SETS)) {
  describe(`signer words: ${name}`, () => {
    const english = set.en as Record<string, string>;
    const keys = Object.keys(english).sort();
    it('has a table for every language of the signing page', () => {
      assert.deepEqual(Object.keys(set).sort(), [...LOCALES].sort());
    });
    for (const locale of LOCALES) {
      it(`${locale}: every key, translated, with the English placeholders`, () => {
        const words = (set as Record<string, Record<string, string> | undefined>)[locale];
        assert.ok(words, `${locale} has no table`);
        assert.deepEqual(Object.keys(words).sort(), keys, `${locale} lacks or adds keys`);
        for (const key of keys) {
          const text: string = words[key]!;
          assert.equal(typeof text, 'string');
          assert.ok(text.trim().length > 0, `${locale}.${key} is empty`);
          assert.deepEqual(placeholders(text), placeholders(english[key]!), `${locale}.${key} placeholders`);
          if (locale !== 'en' && !SAME_AS_ENGLISH.has(key) && english[key]!.length > 12) assert.notEqual(text, english[key], `${locale}.${key} is still English`);
        }
      });
    }
  });
}
