// Which language a description is in: franc (trigram language identification, ~190 languages, offline)
// decides, the built-in stop-word count only breaks ties and reads text too short to identify. A
// description franc places in a language the generator does not read is refused naming that language
// when, against each supported language, franc's evidence for it is more than chance
// (language-evidence.ts) or the description's own words are spelt as that language cannot spell
// (language-marks.ts). One it cannot place (short, a list of nouns, names, mixed) is never refused.
import { francAll } from 'franc';
import { nearCopy, separation, trigramCounts } from './language-evidence.js';
import { nameBetween, namedByLetters, unspellable, writtenInOtherLetters } from './language-marks.js';
import { detectLanguage, fold } from './lexicon.js';
import { UnsupportedLanguageError, type Language } from './spec.js';

const SUPPORTED: Record<string, Language> = { eng: 'en', spa: 'es', fra: 'fr', deu: 'de', ita: 'it', por: 'pt' };
/** Below this many letters franc guesses too often (a form is often a handful of nouns): never refused. */
const MIN_LETTERS = 60;
/**
 * How close (franc's score, 1 for the best) a supported language must come to a supported best one for
 * the stop words to choose between them: franc reads a list of English nouns as French as readily.
 */
const NEAR = 0.9;
/**
 * How many standard errors franc's preference for an unsupported language over a supported one must
 * reach to say the text is not in that one (language-evidence.ts: the margin grows with the length of the
 * text by itself). On the corpora and the checking set, supported descriptions franc puts under a
 * neighbour whose model is no near copy (German nouns under Low German, English under Danish or Sardinian,
 * Spanish full of Catalan names under Catalan) stay below 1.25; unsupported ones of 100 letters or more
 * mostly reach 1.5 or more against all six, and those that do not (Polish 0.5, Catalan 0.9, Czech 1.3 on
 * a short form) spell words no supported language can.
 */
const SURE = 1.4;
/** Lower-case words a supported language cannot spell, enough to say a text is not in it when franc is unsure. */
const MARKED_WORDS = 2;

/** The description's language, or UnsupportedLanguageError naming the detected one. */
export function identifyLanguage(text: string): Language {
  // Addresses, numbers and blanks carry no language.
  const plain = text.replace(/\S+@\S+|https?:\/\/\S+|www\.\S+/g, ' ').replace(/[\d_|[\]☐□]+/g, ' ').replace(/\s+/g, ' ').trim();
  const letters = plain.match(/\p{L}/gu)?.length ?? 0;
  const byWords = detectLanguage(plain);
  if (letters < MIN_LETTERS) return shortText(plain, byWords);
  // 600 characters place a language as well as 4000 do, at a seventh of the cost.
  const sample = plain.slice(0, 600);
  const ranked = francAll(sample, { minLength: 10 });
  const top = ranked[0]?.[0] ?? 'und';
  if (top === 'und') return byWords;
  if (SUPPORTED[top] !== undefined) {
    // franc's trigrams can rank a supported language first for a short text in another alphabet: the
    // letters say it is none of the six (then the refusal names the best of the others franc ranked).
    const others = ranked.filter(([code]) => SUPPORTED[code] === undefined);
    if (!writtenInOtherLetters(plain) || others.length === 0) return closest(ranked, plain, byWords);
    const named = namedByLetters(plain, others) ?? others[0]![0];
    throw new UnsupportedLanguageError(languageName(named), named);
  }
  // An unsupported first. It is refused only if it is not any supported language: for each, franc is
  // sure of its preference (more than SURE standard errors, and not between near copies), or the
  // description spells words as that language cannot. Else it is read in the closest supported one.
  const trigrams = trigramCounts(sample);
  const six = Object.keys(SUPPORTED);
  const notThat = (code: string): boolean =>
    (!nearCopy(top, code, six) && separation(trigrams, top, code) >= SURE) || unspellable(plain, SUPPORTED[code]!) >= MARKED_WORDS;
  // (A script none of the six is written in ranks none of them: nothing to weigh.)
  const inScript = ranked.some(([code]) => SUPPORTED[code] !== undefined);
  if (inScript && !six.every(notThat)) return closest(ranked, plain, byWords);
  const byLetters = namedByLetters(plain, ranked) ?? top;
  const named = byLetters === top ? nameBetween(plain, top, ranked[1]?.[0]) : byLetters;
  throw new UnsupportedLanguageError(languageName(named), named);
}

/**
 * Which supported language a description franc did not refuse is in: franc's best among the six, or the
 * stop words' one when it comes near that (franc reads a list of English nouns as French as readily) or
 * when they make up 40 % of the text (a list of form nouns: franc's models, made from one long text,
 * know few of them).
 */
function closest(ranked: ReadonlyArray<readonly [string, number]>, plain: string, byWords: Language): Language {
  if (stopShare(plain, byWords) >= 0.4) return byWords;
  const six = ranked.filter(([code]) => SUPPORTED[code] !== undefined);
  const best = six[0]?.[1] ?? 0;
  const near = six.filter(([, score]) => score >= NEAR * best).map(([code]) => SUPPORTED[code]!);
  return near.includes(byWords) && stopShare(plain, byWords) > 0 ? byWords : near[0] ?? byWords;
}

// Common words and the words of forms; in short text the language with most of them wins.
const STOPS: Record<Language, RegExp> = {
  en: /^(?:the|and|of|for|to|a|an|with|your|their|is|are|we|you|please|sign|signs|name|date|phone|email|address|number|or|if|in|on|at|by|it|this|that|form|describe|signature|birth)$/,
  es: /^(?:el|los|las|y|del|para|con|su|sus|por|firma|firman|nombre|fecha|telefono|direccion|en|es|al|formulario|explique|apellidos|nacimiento|correo|dni)$/,
  fr: /^(?:le|les|et|du|des|pour|avec|votre|vos|une|nom|prenom|adresse|telephone|signe|ou|est|au|aux|l|d|formulaire|decrivez|naissance|courriel|fiche)$/,
  de: /^(?:der|die|das|und|des|mit|fur|von|unterschrift|datum|vorname|nachname|anschrift|ihre|ich|oder|ein|eine|den|dem|zu|im|bitte|wir|formular|begrundung|angaben|geburtsdatum|antrag)$/,
  it: /^(?:il|lo|gli|della|dello|dell|di|per|nome|cognome|indirizzo|firma|firmano|telefono|che|dei|delle|del|modulo|motivazione|richiesta|nascita|codice|fiscale)$/,
  pt: /^(?:o|os|do|da|dos|das|com|nome|morada|telefone|assinatura|assina|assinam|um|uma|em|ao|ou|seu|sua|no|na|descreva|nascimento|telemovel|celular|endereco|cpf|nif)$/,
};
const LANGS = Object.keys(STOPS) as Language[];

/**
 * A short description ("Formular: Begründung.") is read, never refused: its common words (and field
 * words: "nombre", "telefone") decide, franc among the six languages only when there are none.
 */
function shortText(plain: string, byWords: Language): Language {
  const counts = LANGS.map((l) => stopCount(plain, l));
  const best = Math.max(...counts);
  const tied = LANGS.filter((_, i) => counts[i] === best);
  if (best > 0 && tied.length === 1) return tied[0]!;
  // None or several: franc among those (or all six).
  const only = Object.keys(SUPPORTED).filter((code) => best === 0 || tied.includes(SUPPORTED[code]!));
  const top = francAll(plain, { only, minLength: 1 })[0];
  return (top && SUPPORTED[top[0]]) ?? byWords;
}

function stopCount(text: string, lang: Language): number {
  return fold(text).split(/[^a-z]+/).filter((w) => w && STOPS[lang].test(w)).length;
}

function stopShare(text: string, lang: Language): number {
  const words = fold(text).split(/[^a-z]+/).filter(Boolean);
  return words.length === 0 ? 0 : words.filter((w) => STOPS[lang].test(w)).length / words.length;
}

/** "nld" → "Dutch" (the runtime's ICU names ISO 639 codes), else the code itself. */
export function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
    return name && name !== code ? name : code;
  } catch {
    return code;
  }
}
