// Spelling as evidence of a language, for the two places where franc's trigrams cannot tell (see
// language.ts): whether a description is in a given supported language at all when franc is unsure (or
// its preference is between near copies), and which of two sister languages franc ranks as equals
// (Czech and Slovak) to name. Only alphabets and spelling rules are used, never a list of words: a rule
// reads any word of the language, a word list only the words someone thought of.
import type { Language } from './spec.js';

/**
 * What each supported language cannot write in a word of its own: a letter outside its alphabet (the
 * loanword accents English and German take, "café", are in theirs), and a few rules of its spelling:
 * - Italian puts a grave accent only on a word's last vowel ("città", "perché"): Catalan "telèfon",
 *   "gràcies", "mòbil" are not Italian.
 * - Portuguese ends no word of its own in an accented vowel and "n" ("também", "ação"), and has no
 *   "non": Galician "non", "tamén", "inscrición" are not Portuguese. An unaccented vowel and "n" is left
 *   alone: the loanwords a Portuguese form uses ("login", "pin", "hífen") end so.
 * - Spanish spells no word beginning "x" and a vowel (since 1815 "j": "ya", "junto") and none ending in
 *   "nha": Galician "xa", "xente", "unha" are not Spanish.
 * "·" (Catalan "al·lèrgia") and "º"/"ª" ("nº", "1ª") are dealt with apart: the first is no supported
 * language's, the others every Romance one's.
 */
const CANNOT_SPELL: Record<Language, RegExp> = {
  en: /[^a-zàâçéèêëïîôñöüœæ]/,
  es: /[^a-záéíóúüñ]|^x[aeiouáéíóú]|nhas?$/,
  fr: /[^a-zàâæçéèêëîïôœùûüÿ]/,
  de: /[^a-zäöüßé]/,
  it: /[^a-zàèéìíîòóù]|[àèìòù]\p{L}/u,
  pt: /[^a-záâãàçéêíóôõúü]|[áéíóúâêô]n$|^non$/,
};

/**
 * How many lower-case words of the text `lang` cannot spell. Capitalised words are left out: names of
 * people and places ("Łukasz", "Sant Cugat del Vallès", "A Coruña") say nothing of the language around
 * them; so are words in another script (franc ranks scripts apart).
 */
export function unspellable(text: string, lang: Language): number {
  const words = text.split(/[^\p{Script=Latin}·ºª'’-]+/u).filter((w) => /^\p{Ll}/u.test(w));
  return words.filter((w) => CANNOT_SPELL[lang].test(w.replace(/['’ºª-]/g, ''))).length;
}

/**
 * Czech and Slovak: franc's models score them within a thousandth of each other on a form, so the letters
 * only one of them writes name it: ř, ů and ě are Czech; ä, ľ, ĺ, ŕ and ô Slovak.
 */
const SISTER_LETTERS: Record<string, { pair: string; own: RegExp }> = {
  ces: { pair: 'slk', own: /[řůě]/giu },
  slk: { pair: 'ces', own: /[äľĺŕô]/giu },
};

/** The language to name: `first`, or its sister `second` when the text's letters are only the sister's. */
export function nameBetween(text: string, first: string, second: string | undefined): string {
  const mine = SISTER_LETTERS[first];
  if (!mine || mine.pair !== second) return first;
  const own = text.match(mine.own)?.length ?? 0;
  const sisters = text.match(SISTER_LETTERS[second]!.own)?.length ?? 0;
  return sisters > 0 && own === 0 ? second : first;
}
