import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptedTags, CATALOGUES, canonicalLocaleTag, directionOf, LANGUAGE_NAMES, LOCALES, pickLocale, t, type Locale, type MessageKey } from '../../src/lib/i18n/index.js';

// Every catalogue complete: the English keys, each with the same placeholders, none empty, none left
// in English; and the choice of a signer's language.

const en = CATALOGUES.en;
const KEYS = Object.keys(en) as MessageKey[];
const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

describe('translation catalogues', () => {
  it('at least 20 languages, Arabic and Hebrew among them, each named in its own language', () => {
    assert.ok(LOCALES.length >= 20, `${LOCALES.length} languages`);
    for (const l of ['ar', 'he', 'de', 'ja', 'zh', 'ru'] as Locale[]) assert.ok(LOCALES.includes(l), l);
    assert.deepEqual(Object.keys(LANGUAGE_NAMES).sort(), [...LOCALES].sort());
  });

  for (const locale of LOCALES) {
    it(`${locale}: every key of en, no other, the same placeholders, nothing blank`, () => {
      const cat: Readonly<Record<string, string>> = CATALOGUES[locale];
      assert.deepEqual(Object.keys(cat).sort(), [...KEYS].sort());
      for (const key of KEYS) {
        const text = cat[key]!;
        assert.ok(text.trim().length > 0, `${locale} ${key} is blank`);
        assert.deepEqual(placeholders(text), placeholders(en[key]), `${locale} ${key}: placeholders`);
        assert.notEqual(text, key, `${locale} ${key} is the key itself`);
      }
    });

    if (locale !== 'en') {
      it(`${locale}: translated, not English left in place`, () => {
        const cat: Readonly<Record<string, string>> = CATALOGUES[locale];
        // A handful may rightly read the same ("Document", "{done} / {total}"); whole sentences may not.
        const same = KEYS.filter((k) => cat[k] === en[k]);
        assert.ok(same.length <= 6, `${locale} has ${same.length} texts still in English: ${same.join(', ')}`);
        for (const k of same) assert.ok(en[k].length < 25, `${locale} ${k}: a sentence left in English`);
      });
    }
  }

  it('t() fills placeholders in any order the language puts them', () => {
    assert.equal(t('en', 'sign.marker', { label: 'Rent', page: 2 }), 'Rent, on page 2');
    assert.equal(t('ko', 'sign.pageLabel', { page: 3, total: 13 }), '13페이지 중 3페이지');
    assert.equal(t('de', 'sign.progress', { done: 1, total: 5 }), '1 von 5');
  });

  it('Arabic and Hebrew are right to left; the others left to right', () => {
    assert.equal(directionOf('ar'), 'rtl');
    assert.equal(directionOf('he'), 'rtl');
    for (const l of LOCALES.filter((x) => x !== 'ar' && x !== 'he')) assert.equal(directionOf(l), 'ltr', l);
  });
});

describe('choosing the language', () => {
  it('a BCP 47 tag is canonicalised, anything else refused', () => {
    assert.equal(canonicalLocaleTag('pt-br'), 'pt-BR');
    assert.equal(canonicalLocaleTag('zh-hans-cn'), 'zh-Hans-CN');
    assert.equal(canonicalLocaleTag('de'), 'de');
    for (const bad of ['', 'englishlanguage', 'de_DE', 'de DE', '12', 'x', 'de-', '<b>']) assert.equal(canonicalLocaleTag(bad), null, bad);
  });

  it('Accept-Language: by weight, then order; q=0 and * left out', () => {
    assert.deepEqual(acceptedTags('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5'), ['fr-CH', 'fr', 'en', 'de']);
    assert.deepEqual(acceptedTags('en;q=0.2, ar'), ['ar', 'en']);
    assert.deepEqual(acceptedTags('de;q=0, it'), ['it']);
    assert.deepEqual(acceptedTags(undefined), []);
  });

  it('the first choice a catalogue exists for wins: region and script dropped, Norwegian read as Bokmål', () => {
    assert.equal(pickLocale(['de-AT']), 'de');
    assert.equal(pickLocale([null, 'xx', ...acceptedTags('sw, he-IL;q=0.8'), 'fr']), 'he');
    assert.equal(pickLocale(['no']), 'nb');
    assert.equal(pickLocale(['zh-Hans-CN']), 'zh');
    assert.equal(pickLocale([undefined, 'tlh', null]), 'en');
  });
});
