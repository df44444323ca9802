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

/**
 * Letters only one of the languages franc knows well writes (ř ů ě Czech; ľ ĺ ŕ ô Slovak; ą ę ł ń ś ź ż
 * Polish; ă ș ț Romanian; ğ ı Turkish; ő ű Hungarian). On a short text franc's trigrams can rank a
 * language that writes none of them first (a Czech form with ř and ě read as Galician): the refusal
 * then names the language whose letters the text has most of, franc's first five first. This only
 * names a refused text; whether a text is refused is decided apart (language.ts).
 */
const OWN_LETTERS: Record<string, RegExp> = {
  ces: /[řůě]/giu,
  slk: /[ľĺŕô]/giu,
  pol: /[ąęłńśźż]/giu,
  ron: /[ășțşţ]/giu,
  tur: /[ğı]/giu,
  hun: /[őű]/giu,
};

/** The language whose own letters the text has most of (franc's first five first), when franc's first has none of its own there. */
export function namedByLetters(text: string, ranked: ReadonlyArray<readonly [string, number]>): string | undefined {
  const count = (code: string): number => (OWN_LETTERS[code] ? text.match(OWN_LETTERS[code])?.length ?? 0 : 0);
  const top = ranked[0]?.[0];
  if (top === undefined || count(top) > 0) return top;
  let best: string | undefined;
  let most = 0;
  // franc's first five, then (a short text can leave the right one out of them) every language above.
  for (const code of [...ranked.slice(0, 5).map(([c]) => c), ...Object.keys(OWN_LETTERS)]) {
    const n = count(code);
    if (n > most) [best, most] = [code, n];
  }
  return best ?? top;
}

/** Every letter the six supported languages write in words of their own (the union of their alphabets). */
const SIX_ALPHABETS = /^[a-zàâæçéèêëîïôœùûüÿáíóúñäößìòãõ]+$/u;

/**
 * Whether the text is written in letters none of the six languages writes: at least two of its
 * lower-case words, and a fifth of them, have such a letter (a Czech "potřebuji formulář přihlášky",
 * franc's short-text trigrams ranking Portuguese first). A supported description quoting a foreign word
 * or two, or full of capitalised foreign names, is not.
 */
export function writtenInOtherLetters(text: string): boolean {
  const words = text.split(/[^\p{Script=Latin}'’-]+/u).filter((w) => /^\p{Ll}/u.test(w)).map((w) => w.replace(/['’-]/g, ''));
  const foreign = words.filter((w) => w !== '' && !SIX_ALPHABETS.test(w)).length;
  return foreign >= 2 && foreign >= 0.2 * words.length;
}
