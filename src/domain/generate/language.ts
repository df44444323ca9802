// Which language a description is in: franc (trigram language identification, ~190 languages, offline)
// decides, the built-in stop-word count only breaks ties and reads text too short to identify. A
// description franc clearly places in a language the generator does not read is refused naming that
// language; one it cannot place (short, a list of nouns, mixed) is never refused.
import { francAll } from 'franc';
import { detectLanguage, fold } from './lexicon.js';
import { UnsupportedLanguageError, type Language } from './spec.js';

const SUPPORTED: Record<string, Language> = { eng: 'en', spa: 'es', fra: 'fr', deu: 'de', ita: 'it', por: 'pt' };
/** Below this many letters franc guesses too often (a form is often a handful of nouns): never refused. */
const MIN_LETTERS = 60;
/**
 * How close (franc's score, 1 for the best) a supported language must come to the best one to be taken
 * instead: Spanish read as Galician or Asturian, Portuguese as Galician, English as Scots come within it.
 */
const NEAR = 0.9;

/** The description's language, or UnsupportedLanguageError naming the detected one. */
export function identifyLanguage(text: string): Language {
  // Addresses, numbers and blanks carry no language.
  const plain = text.replace(/\S+@\S+|https?:\/\/\S+|www\.\S+/g, ' ').replace(/[\d_|[\]☐□]+/g, ' ').replace(/\s+/g, ' ').trim();
  const letters = plain.match(/\p{L}/gu)?.length ?? 0;
  const byWords = detectLanguage(plain);
  if (letters < MIN_LETTERS) return shortText(plain, byWords);
  // 600 characters place a language as well as 4000 do, at a seventh of the cost.
  const ranked = francAll(plain.slice(0, 600), { minLength: 10 });
  const [top, topScore] = ranked[0] ?? ['und', 0];
  if (top === 'und') return byWords;
  // The supported languages that come near the top one: the stop words choose among them (franc reads a
  // list of English nouns as French as readily as English), else the best of them.
  const near = ranked.filter(([code, score]) => SUPPORTED[code] !== undefined && score >= NEAR * topScore).map(([code]) => SUPPORTED[code]!);
  // A supported language franc puts first, or one near an unsupported first whose common words make up a
  // tenth of the text: Catalan comes near Italian and Spanish, Romanian near French, Galician near
  // Portuguese, but their words are not those languages' words.
  const firm = (l: Language): boolean => SUPPORTED[top] !== undefined || stopShare(plain, l) >= 0.1;
  if (near.includes(byWords) && stopShare(plain, byWords) > 0 && firm(byWords)) return byWords;
  const best = near.find(firm);
  if (best) return best;
  // A text the stop words place firmly in a supported language (half its words or more) is not refused.
  const words = fold(plain).split(/[^a-z]+/).filter((w) => w.length > 0);
  if (words.length > 0 && stopShare(plain, byWords) >= 0.4) return byWords;
  throw new UnsupportedLanguageError(languageName(top), top);
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
