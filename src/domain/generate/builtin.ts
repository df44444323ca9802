// The built-in generator: description in, title and fields out. Pure and deterministic (no network,
// no clock, no randomness): the same description always gives the same fields with the same names.
import type Nlp from 'compromise';
import { loadOnFirstUse } from '../../lib/load-on-first-use.js';
import type { FieldType } from '../../pdf/index.js';
import { withSignature } from './complete.js';
import {
  CONSENT, DATE_SIGNED, fold, INITIALS, isMultiline, OPTIONAL, PREFERENCE, REMARKS, REQUIRED, SIGNATURE, SIGNATURE_DE, typeOf, WORDS, YES_NO,
} from './lexicon.js';
import { decodeLabel, MULTI_MARK, ROW_MARK } from './choices.js';
import { identifyLanguage } from './language.js';
import { DATE_SIGNED_MARK, LONG_MARK, segmentLines } from './lines.js';
import { FIRST_PERSON, namedOwners, namesParty, signingClause } from './parties.js';
import { prepare, SECTION_MARK, TICK_REMARK } from './prepare.js';
import { glue, Groups, items, sentences, TITLE_NOUN, titleFromText, unglue, wordCount, type Item } from './segment.js';
import {
  MAX_FIELDS, MAX_LABEL, TooManyFieldsError, UnsupportedLanguageError, type GeneratedField, type GeneratedSpec, type Language, type Signer,
} from './spec.js';

// English nouns and number words; loaded on the first description, not at every start.
const nlp = loadOnFirstUse<typeof Nlp>('compromise');

export interface BuiltinOptions {
  language?: Language | undefined;
}

const DATES_ALL = /^(?:and\s+)?(?:everyone|everybody|all|both|each|they all|all of them|todos|ambos|tous|chacun|alle|beide|tutti|entrambi|todos|ambos)?\s*(?:dates?|date it|datent|datiert|datieren|datano|datam|fechan|ponen la fecha|pone la fecha|mettent la date|mettono la data|colocam a data)(?:\s+(?:it|them|lo|le|la|es))?\s*[.!]?$/;
const PRONOUN = /^(?:they|he|she|you|we|both|both parties|all parties|the parties|each party|everyone|all|the signer|signer|both of them|then|and|ellos|ellas|ils|elles|sie|er|al final|a la fin|am ende|finalmente|enfin|zum schluss|)$/i;
const LEAD_IN = /^(?:.{0,90}?\b(?:writes?|escribe|pone|ecrit|indique|schreibt|scrive|escreve|should have|must have|debe pedir|deve chiedere|doit demander|ci servono|ci serve|mi serve|wir brauchen|wir benotigen|il nous faut|necesitamos|precisamos d[oae]s?|necessitamos|(?:i|we|you) (?:also )?(?:need|want|require)|please (?:add|include)|want to know|would like to know|needs? to know|tell us|(?:should|must|will|to)\s+(?:give|enter|provide|state|list)|gives?|enters?|provides?|collects?|asks? for|includes?|chooses?|selects?|picks?|confirms? that they|confirm|deben (?:indicar|dar|escribir|proporcionar)|debe (?:indicar|dar|escribir)|indicar|indique|incluir|incluya|doivent (?:indiquer|donner|fournir)|doit (?:indiquer|donner)|indiquer|fournir|angeben|eintragen|mussen (?:angeben|eintragen))\s+)/i;
const FILLER_START = /^(?:their own|his own|her own|own|and|or|plus|also|then|with|including|the|a|an|their|your|his|her|our|its|any|whether|whether or not|they|he|she|it|me|us|dazu|y|e|et|und|ed|ademas|tambien|aussi|auch|sowie|inoltre|il|lo|gli|o|os|as|seu|sua|seus|suas|suo|son|sa|ses|propio|propia|propre|proprio|propria|proprios?|eigenen|eigene|el|la|los|las|le|les|der|die|das|den|dem|su|sus|votre|vos|ihre|ihr|un|una|une|des|ein|eine|einen|short|brief)\s+|^(?:l|d)['’]\s*/i;
const FILLER_END = /\s+(?:we should know about|at the (?:end|bottom|top)|as well|too|if needed|below|here|please|in full|angeben|eintragen|angibt)$/i;
const YES_NO_PHRASE = /^(?:willing to|able to|are you|do you|have you|can you|will you|would you|did you|is there|are there|has the|have there)\b/i;
const KNOWN_TEXT = /\b(?:name|nombre|nom|prenom|vorname|nachname|title|company|empresa|societe|firma|city|ciudad|ville|stadt|country|pais|pays|land|id|number|numero|nummer)\b/;
const UNDER_AGE = /\b(?:under \d+|minors?|menor(?:es)?|mineurs?|minderjahrig\w*|unter \d+|minori|minorenni|moins de \d+|menos de \d+)\b/;

interface Role { key: string; label: string; slot: number }

class Roles {
  readonly list: Role[] = [];
  constructor(private readonly lang: Language) {}
  slotOf(raw: string): number {
    // "signed by me": the writer signs, a signer of their own whom the description does not name.
    if (raw.trim() === FIRST_PERSON) return (this.list.find((r) => r.key === FIRST_PERSON) ?? this.add(FIRST_PERSON, WORDS[this.lang].signer)).slot;
    const label = cleanRole(raw, this.lang);
    const key = fold(label);
    if (key === '') return this.list[0]?.slot ?? this.add('', WORDS[this.lang].signer).slot;
    const found = this.list.find((r) => r.key === key || ((r.key === '' || r.key === FIRST_PERSON) && this.list.length === 1));
    if (found) {
      if (found.key === '') { found.key = key; found.label = label; }
      return found.slot;
    }
    return this.add(key, label).slot;
  }
  /** A signer the description does not name ("the person the form is about"). */
  addUnnamed(label: string): number {
    return this.add('', label).slot;
  }
  private add(key: string, label: string): Role {
    const r = { key, label, slot: this.list.length + 1 };
    this.list.push(r);
    return r;
  }
  /** The slot of the role a field's label names ("Seller address" → the seller's slot), else 0: the first signer's. */
  owner(label: string): number {
    const f = ` ${fold(label).replace(/[^a-z0-9]+/g, ' ')} `;
    for (const r of this.list) if (r.key !== '' && r.slot > 1 && f.includes(` ${r.key} `)) return r.slot;
    return 0;
  }
}

function cleanRole(raw: string, lang: Language): string {
  let s = raw.replace(/[^\p{L}\p{N}'’/ -]+/gu, ' ').replace(/\s+/g, ' ').trim();
  // "Signature of the tenant", "Firma del arrendador", "Unterschrift des Mieters", "Assinatura do senhorio".
  for (let i = 0; i < 2; i++) s = s.replace(/^(?:l|d|dell|all|de l|della|dall)['’]\s*/i, '').replace(/^(?:our|your|my|their|his|her|nuestro|nuestra|notre|unser(?:e[rm]?)?|il nostro|la nostra|o nosso|a nossa)\s+/i, '').replace(/^(?:the|a|an|and|by|of|from|del|de la|de los|de las|de|du|des|der|die|das|dem|von|le|la|les|il|lo|o|os|do|da|dos|das|della|dello|di)\s+/i, '');
  if (lang === 'de' && /^(?:des|der)\s/i.test(raw.trim().replace(/^(?:Unterschrift|Unterschriften)\s+/i, ''))) s = s.replace(/(?<=er)s$/u, '').replace(/(?<=[gd]|igt)en$/u, 'e');
  s = s
    .replace(/\s+(?:at the (?:end|bottom|top)|below|here|required|only|too)$/i, '')
    .replace(/\s+(?:for|if|when|bei|wenn|falls|si|para|pour|en caso)\s+.*$/i, '')
    // "responsable légal précédée de la mention …": what follows a participle or "with" is not the role.
    .replace(/\s+(?:pr[ée]c[ée]d[ée]e?s?|preceded|followed|suivie?s?|gefolgt|seguid[oa]s?|seguit[oa]|precedut[oa]|with|avec|mit|con|com)\b.*$/iu, '')
    .replace(/^(?:eines|einer|eine|ein|un|une|una|uno|d'un|d'une)\s+/i, '')
    .trim();
  if (lang === 'en' && s) {
    // "Parents / guardians" → "Parent / guardian".
    s = s.split(/\s*\/\s*/).map((alt) => (/\s/.test(alt) ? alt : nlp()(alt).nouns().toSingular().text() || alt)).join(' / ');
  }
  // "as landlord", "as the trainer": the role.
  s = s.replace(/^(?:as|als|comme|como|come)\s+(?:(?:the|a|an|der|die|das|le|la|el|il|o)\s+)?/i, '');
  // A role is a party's name: more than four words, or words that name no party ("As well", "Al lado de
  // cada"), are a sentence, and the signer stays unnamed.
  if (s.split(/\s*\/\s*/).some((alt) => alt.split(/\s+/).length > 4) || (s !== '' && !namesParty(s, lang))) return '';
  return PRONOUN.test(s) ? '' : s.charAt(0).toUpperCase() + s.slice(1);
}

/** "two witnesses" → ["Witness 1", "Witness 2"] (English number words via compromise, or digits; at most 10). */
function expandCount(raw: string): string[] {
  const m = /^(?:the\s+|of\s+|by\s+)*(\w+)\s+([\p{L}-]+)$/iu.exec(raw.trim());
  if (!m || /^(?:first|second|third|\w+th|\d+(?:st|nd|rd|th))$/i.test(m[1]!)) return [raw];
  const small = SMALL_NUMBER[fold(m[1]!).toLowerCase()];
  const words: unknown = /^\d+$/.test(m[1]!) ? Number(m[1]) : small ?? nlp()(m[1]!).numbers().get();
  const n: unknown = Array.isArray(words) ? (words as unknown[])[0] : words;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 2 || n > 10) return [raw];
  const single = singular(m[2]!);
  return Array.from({ length: n }, (_, i) => `${single} ${i + 1}`);
}

const SMALL_NUMBER: Record<string, number> = { dos: 2, deux: 2, zwei: 2, due: 2, dois: 2, duas: 2, tres: 3, trois: 3, drei: 3, tre: 3 };
/** The nouns that name parties in the plural, in the six languages: "genitori" → "genitore", "Eltern" → "Elternteil". */
const SINGULAR: Record<string, string> = { eltern: 'Elternteil', zeugen: 'Zeuge', genitori: 'genitore', testimoni: 'testimone', pais: 'progenitor', padres: 'padre', coniugi: 'coniuge' };
function singular(noun: string): string {
  const known = SINGULAR[fold(noun)];
  if (known) return /^\p{Lu}/u.test(noun) ? capitalise(known) : known;
  const en = nlp()(noun).nouns().toSingular().text();
  if (en && en !== noun) return en;
  // Romance plurals: "cónyuges", "témoins", "testigos"; "responsáveis" → "responsável".
  return noun.replace(/(?<=\p{L}{3})([áa])is$/u, '$1l').replace(/(?<=\p{L}{3})([ée])is$/u, (_, e: string) => (e === 'e' ? 'el' : 'él')).replace(/(?<=\p{L}{3})([^l])s$/u, '$1');
}

function capitalise(s: string): string {
  const t = s.trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

function slug(label: string): string {
  const words = fold(label).replace(/['’]/g, '').split(/[^a-z0-9]+/).filter(Boolean);
  let out = '';
  for (const word of words) {
    const next = out ? `${out}_${word}` : word;
    if (next.length > 48) break;
    out = next;
  }
  if (!out) out = 'field';
  return /^[0-9]/.test(out) ? `f_${out}` : out;
}

const CONSENT_DROP = new Set(['i', 'hereby', 'that', 'the', 'to', 'my', 'me', 'of', 'a', 'an', 'all', 'any', 'be', 'and', 'for', 'this', 'is', 'are', 'have', 'has', 'j', 'je', 'ich', 'bin', 'que', 'de', 'la', 'el', 'le', 'les', 'dass', 'mon', 'ma', 'mi']);
function consentSlug(label: string): string {
  return slug(fold(label).split(/[^a-z0-9]+/).filter((x) => x && !CONSENT_DROP.has(x)).slice(0, 4).join(' '));
}

function cleanPhrase(text: string): string {
  // "También un campo para observaciones", "aggiungi anche uno spazio per le note": the field is the remarks.
  let s = text.trim().replace(/^(?:(?:also|and|plus|tambien|también|aussi|auch|anche|tambem|também|aggiungi(?: anche)?|add|e|y|et|und)\s+)*(?:a|an|un|una|uno|um|uma|une|ein|eine|einen)\s+(?:field|space|box|section|campo|spazio|espace|champ|feld|espaco|espaço|casilla|riquadro|zone)\s+(?:for|para|per|pour|fur|für)\s+/iu, '');
  // "I need a form where customers give me their name": every lead-in goes, not only the first.
  for (let i = 0; i < 3; i++) {
    const lead = LEAD_IN.exec(s);
    if (!lead || wordCount(lead[0]) > 14 || s.length <= lead[0].length) break;
    s = s.slice(lead[0].length);
  }
  for (let i = 0; i < 4; i++) s = s.replace(FILLER_START, '');
  s = s.replace(FILLER_END, '').replace(/^[-–—:;,.\s]+|[-–—:;,.\s]+$/g, '');
  // German dative ("mit dem Namen des Kindes"): the label is the child's "Name".
  return s.replace(/^(Vor|Nach|Familien)?(N|n)amen(?=\s+(?:des|der|von)\b|$)/u, (_, pre: string | undefined, n: string) => `${pre ?? ''}${n}ame`);
}

/** Builds the spec: fields in the order the description gives them, signature blocks last. */
export function generateBuiltin(prompt: string, opts: BuiltinOptions = {}): GeneratedSpec {
  assertReadable(prompt);
  // Noise lines go first (headers, quotes, chat speakers): they would sway the language too.
  const lines = segmentLines(prompt);
  const language = opts.language ?? identifyLanguage(lines.replaceAll(SECTION_MARK, ' ').replace(/\u2064[\p{L}-]+/gu, ' '));
  const words = WORDS[language];
  const prepared = prepare(lines, language);
  const groups = new Groups();
  // A title from the subject or the request: the first line is then a field, not a second title.
  const seg = sentences(glue(prepared.text), groups, prepared.title !== undefined);
  const roles = new Roles(language);
  const fields: Array<GeneratedField & { order: number }> = [];
  const seen = new Set<string>();
  const signatures: Array<{ slot: number; label: string; required: boolean; order: number; condition?: string | undefined }> = [];
  const datesSigned: Array<{ slot: number; order: number; label: string }> = [];
  let order = 0;
  let section: string | undefined;

  const addField = (f: GeneratedField): void => {
    const key = `${fold(f.label)}|${f.signer}|${f.type}`;
    if (seen.has(key)) return;
    seen.add(key);
    fields.push({ ...f, ...(section ? { section } : {}), order: order++ });
  };
  const addSignature = (roleText: string, required: boolean, label?: string, condition?: string): number => {
    const slot = roles.slotOf(roleText);
    const had = signatures.find((s) => s.slot === slot);
    if (!had) signatures.push({ slot, label: label ?? '', required, order: order++, condition });
    else if (required) had.required = true;
    return slot;
  };
  const bothParties = (): string[] => {
    const owners = namedOwners(prompt, language);
    if (owners.length >= 2) return owners.slice(0, 2);
    const parties = [...new Set([...fold(prompt).matchAll(/\b([a-z]+ing|[a-z]+ive)\s+party\b/g)].map((m) => `${m[1]} party`))];
    if (parties.length >= 2) return parties;
    return language === 'en' ? ['Party 1', 'Party 2'] : [`${words.signer} 1`, `${words.signer} 2`];
  };

  for (const sentence of seg.sentences) {
    if (sentence.startsWith(SECTION_MARK)) {
      section = sentence.slice(SECTION_MARK.length).trim() || undefined;
      continue;
    }
    // "…; everyone dates it", "todos ponen la fecha": every signer so far dates their signature.
    if (DATES_ALL.test(fold(sentence).trim()) && signatures.length > 0) {
      for (const sig of signatures) if (!datesSigned.some((d) => d.slot === sig.slot)) datesSigned.push({ slot: sig.slot, order: order++, label: words.dateSigned });
      continue;
    }
    let rest = sentence;
    // Signing clauses first: their "and" joins signers, not fields. The fields written before the
    // clause are read first, so the parties come after them ("Testator signature, signatures of two witnesses").
    // "signed by us (Acme Studio)", "signé par moi (la propriétaire)": the party in brackets is who "me" is.
    const named = sentence.replace(/(?<![\p{L}])(?:me|us|moi|nous|m[ií]|mim|mich|uns|noi|n[oó]s|eu|yo|io)\s*\u2063(\d+)\u2063/giu, (all: string, i: string) => {
      const inner = groups.all[Number(i)] ?? '';
      return inner.split(/\s+/).length <= 4 ? inner : all;
    });
    const clause = /\bsign[-\s]?(?:up|in)\b/i.test(sentence) ? undefined : signingClause(named, language);
    const signClause = clause && (clause.parties.length > 0 || clause.both || !SIGNATURE.test(fold(sentence))) ? clause : undefined;
    if (signClause) rest = signClause.rest;
    // A condition ("If applicable,", "Only for minors:", "Si es estudiante,") holds to the end of its sentence.
    let condition: string | undefined;
    let owner: string | undefined;
    let last: GeneratedField | undefined;
    // "Signature of the tenant: ____ Date: ____": a date of signing right after a signature is that signer's.
    let lastSigned: number | undefined;
    const severalGive = (rest.match(GIVES_THEIR) ?? []).length >= 2;
    for (const item of items(rest, groups)) {
      const made = fieldOf(item, language, roles, condition, owner, severalGive);
      if (made.kind === 'conditional') {
        if (made.trailing && last && !last.description) {
          last.required = false;
          last.description = capitalise(made.text);
        } else {
          condition = made.text;
          owner = made.owner;
        }
        continue;
      }
      if (made.kind === 'signature') {
        const many = expandCount(made.role);
        if (many.length > 1) for (const role of many) lastSigned = addSignature(role, made.required);
        else lastSigned = addSignature(made.role, made.required && condition === undefined, made.label, made.condition ?? condition);
      } else if (made.kind === 'date_signed') {
        datesSigned.push({ slot: (roles.list.length > 0 ? roles.owner(made.label) : 0) || lastSigned || 1, order: order++, label: made.label });
      } else if (made.kind === 'field') {
        // Only a date right after a signature is that signature's.
        lastSigned = undefined;
        addField(made.field);
        last = fields[fields.length - 1];
        // "a parent or guardian's name and their signature": "their" is the parent's or guardian's.
        if (condition !== undefined) owner = /^(?:an?\s+|the\s+)?(.+?)['’]s\s+\S+$/i.exec(item.text)?.[1] ?? owner;
      }
    }
    if (signClause) {
      if (signClause.both) {
        for (const role of bothParties()) {
          const slot = addSignature(role, true);
          if (signClause.bothDated) datesSigned.push({ slot, order: order++, label: words.dateSigned });
        }
      }
      const parties = signClause.parties.length > 0 || signClause.both ? signClause.parties : [{ role: '', optional: false, dated: /\b(?:dates?|fecha|datent|datiert|data|datam)\b/i.test(sentence) }];
      for (const party of parties) {
        for (const role of expandCount(party.role)) {
          const slot = addSignature(role, !party.optional, undefined, party.condition);
          if (party.dated) datesSigned.push({ slot, order: order++, label: words.dateSigned });
        }
      }
    }
  }

  // A party that signs only under a condition ("a guardian, for minors") never stands alone: the
  // person the form is about signs first.
  if (signatures.length > 0 && signatures.every((s) => !s.required)) {
    signatures.unshift({ slot: roles.addUnnamed(words.signer), label: '', required: true, order: -1 });
  }
  // Fields named after a signer belong to that signer ("seller address").
  for (const f of fields) if (f.type !== 'initials') f.signer = roles.owner(f.label);
  // Slots follow the order named, parties that sign only under a condition last.
  const slotOrder = [...roles.list].sort((x, y) => rank(x.slot) - rank(y.slot) || x.slot - y.slot);
  function rank(slot: number): number {
    const sig = signatures.find((s) => s.slot === slot);
    return sig && !sig.required ? 1 : 0;
  }
  // Slot 0 is "the first signer", whoever that is once ordered.
  const renumber = new Map([[0, 1], ...slotOrder.map((r, i): [number, number] => [r.slot, i + 1])]);
  const slotOf = (slot: number): number => renumber.get(slot) ?? 1;

  const sigFields: Array<GeneratedField & { order: number }> = [];
  for (const s of [...signatures].sort((x, y) => slotOf(x.slot) - slotOf(y.slot))) {
    const role = roles.list.find((r) => r.slot === s.slot);
    const label = s.label || (role && role.key !== '' ? words.of(role.label) : words.signature);
    const sig: GeneratedField & { order: number } = { name: '', label: capitalise(label), type: 'signature', required: s.required, signer: slotOf(s.slot), order: s.order };
    if (s.condition) sig.description = capitalise(s.condition);
    sigFields.push(sig);
    for (const d of datesSigned.filter((x) => x.slot === s.slot)) {
      sigFields.push({ name: '', label: capitalise(d.label), type: 'date_signed', required: false, signer: slotOf(s.slot), order: d.order });
    }
  }
  // A date of signing without a signature still needs a place.
  for (const d of datesSigned.filter((x) => !signatures.some((s) => s.slot === x.slot))) {
    sigFields.push({ name: '', label: capitalise(d.label), type: 'date_signed', required: false, signer: slotOf(d.slot), order: d.order });
  }
  for (const f of fields) f.signer = slotOf(f.signer);
  const all = [...fields, ...sigFields];
  const names = new Set<string>();
  const out: GeneratedField[] = all.map(({ order: _o, ...f }) => {
    const base = f.name || (f.type === 'checkbox' && CONSENT.test(fold(f.label)) ? consentSlug(f.label) : slug(f.label));
    let name = base;
    for (let i = 2; names.has(name); i++) name = `${base}_${i}`;
    names.add(name);
    // Statements the signer agrees to keep their words (up to 300 characters); other labels are short.
    const done: GeneratedField = { ...f, name, label: unglue(f.label).slice(0, f.type === 'checkbox' ? 300 : MAX_LABEL) };
    if (f.options) done.options = f.options.map(unglue);
    if (f.description) done.description = unglue(f.description);
    if (f.section) done.section = unglue(f.section);
    return done;
  });
  // One unknown word or phrase is not a form ("hello"): the caller answers with an example instead.
  if (out.length === 1 && out[0]!.type === 'text' && !out[0]!.multiline && !KNOWN_TEXT.test(fold(out[0]!.label))) out.length = 0;
  if (out.length > MAX_FIELDS) throw new TooManyFieldsError(out.length);
  const signers: Signer[] = roles.list.length > 0
    ? slotOrder.map((r) => ({ slot: slotOf(r.slot), role: r.key === '' || r.key === FIRST_PERSON ? words.signer : unglue(r.label) }))
    : [{ slot: 1, role: words.signer }];
  const heading = seg.title !== undefined && /^(?:we|our|my|i|please|this)\b/i.test(seg.title) ? titleFromText(seg.title) ?? seg.title : seg.title;
  const rawTitle = (prepared.title ?? heading ?? titleFromText(prompt) ?? words.form)
    .replace(/^(?:please\s+)?(?:create|make|build|generate|design|i need|we need|i want|we want)\s+(?:me\s+|us\s+)?(?:a|an)\s+(?:(?:simple|short|new)\s+)?(?:form|document)\s+(?:for|to)\s+(?:a|an|the|our|my)?\s*/i, '')
    .replace(/^(?:(?:i|we)\s+)?(?:need|want)\s+(?:a|an)\s+/i, '')
    .replace(/^(?:necesitamos|necesito|queremos|nous avons besoin d['’]\s*|j['’]ai besoin d['’]\s*|nous voulons|wir brauchen|ich brauche|wir mochten|wir möchten|mi serve|ci serve|preciso de|precisamos de)\s*(?:una|uma|une|un['’]|un|um|eine|einen|ein)\s+/i, '');
  // "Bill of sale between buyer and seller" → "Bill of sale": the parties are in the signature blocks.
  const title = capitalise(unglue(rawTitle).replace(/\s+(?:between|entre|zwischen|tra)\s+.*$/i, '') || words.form).slice(0, 200);
  return withSignature({ title, language, fields: out, signers });
}

/** Text mostly in a script the generator does not read (Japanese, Arabic, …) is refused, not guessed at. */
function assertReadable(prompt: string): void {
  const letters = prompt.match(/\p{L}/gu)?.length ?? 0;
  const latin = prompt.match(/\p{Script=Latin}/gu)?.length ?? 0;
  if (letters > 0 && latin / letters < 0.5) throw new UnsupportedLanguageError(undefined);
}

type Made =
  | { kind: 'field'; field: GeneratedField }
  | { kind: 'signature'; role: string; required: boolean; label: string; condition?: string | undefined }
  | { kind: 'date_signed'; label: string }
  | { kind: 'conditional'; text: string; owner?: string | undefined; trailing: boolean }
  | { kind: 'none' };

// "If applicable", "Only for minors", "Si es estudiante", "Bei Studenten", "le cas échéant".
const CONDITION_START = /^(?:if|only (?:for|if|when)|just for|when|where applicable|falls|wenn|nur (?:bei|fur|wenn)|bei|si|solo (?:para|si|per|se)|solamente|en caso|en su caso|s['’ ]il|s['’ ]ils|seulement|uniquement|le cas|dans le cas|se|in caso|em caso|apenas|somente|para menores|per i minori|pour les mineurs)\b/;
const TRAILING_CONDITION = /^(?:if any|if applicable|if needed|if relevant|le cas echeant|si (?:las|los|la|lo) hay|si corresponde|en su caso|falls vorhanden|falls zutreffend|gegebenenfalls|se presenti?|se applicabile|se houver|se aplicavel|se tiver|if there is one)$/;
/** "If yes the injured person's name": the condition and its field in one piece. */
const IF_YES = /^(if (?:yes|so)|si oui|si es asi|en caso afirmativo|wenn ja|falls ja|in caso affermativo|se si|se sim|em caso afirmativo)\b[,:]?\s*(.+)$/;
/** "Bei Studenten die Hochschule": a German condition joined to its field by the article. */
const BEI = /^((?:nur\s+)?(?:bei|fur|für)\s+\S+)\s+((?:die|der|das|den|dessen|deren|ein|eine)\s+.+)$/i;
/** "a volunteer agreement where the volunteer writes their name": the form and who fills it, then a field. */
const FORM_WHERE = /^.{0,60}?\b(?:form|agreement|application|waiver|sheet|slip|certificate|contract|formulario|solicitud|formulaire|formular|modulo|ficha|demande|domanda|attestation|certificat|contrat|contrato|contratto|vertrag)\b\s+(?:where|in which|that|with|donde|en (?:el|la) que|con|où|dans lequel|avec|wo|in dem|mit|dove|in cui|onde|em que|com)\s+(?:(?:the|el|la|le|il|o|a|der|die|das|l['’])\s*[\p{L}-]+\s+(?:writes?|gives?|enters?|provides?|puts?|pone|escribe|indica|indique|écrit|ecrit|schreibt|gibt|scrive|escreve)\s+)?/iu;
const WHETHER = /^(?:whether(?:\s+or\s+not)?|si|s['’]il|s['’]ils|si elle|ob|se)\s+(.*)$/i;
const WH_WORD = /^(?:what|which|how|when|where|who|why|que|cual|como|cuando|donde|quien|quel|quelle|quels|comment|quand|ou|qui|pourquoi|was|welche[rsn]?|wie|wann|wo|wer|warum|cosa|quale|quali|come|quando|dove|chi|perche|o que|qual|quais|quem|porque)\b/;

/**
 * A run-on sentence that opens by asking for the form: "hazme una autorización … donde el padre pone el
 * nombre del niño", "per il centro estivo abbiamo bisogno di un modulo … con nome del bambino". What
 * comes after the first "where"/"with" is the first field (the request itself is no field).
 */
const REQUEST_OPENING = /^(?:(?:please|hi|hey|ok|so)\s+)?(?:(?:can|could|would) you|(?:can|could) we|make(?: me| us)?|create|build|set up|do|draft|hazme|haz|hacer|prepara(?:me)?|crea(?:me)?|fais|faites|prepare|erstelle|erstellt|mach|mi prepari|preparami|fammi|crea|faz-me|faca|cria|prepara)\b|^(?:[^,.]{0,50}?\s)?(?:i|we) (?:need|want|would like)|^(?:[^,.]{0,50}?\s)?(?:quiero|queremos|necesito|necesitamos|il me faudrait|il nous faut|je voudrais|nous voulons|on a besoin|j['’]ai besoin|nous avons besoin|wir brauchen|ich brauche|wir benotigen|bitte|vorrei|vogliamo|ci serve|mi serve|abbiamo bisogno|preciso|precisamos|queria|queremos)\b/;
const FIRST_FIELD_AFTER = /\s(?:with|including|where|in which|con|donde|en (?:el|la) que|avec|où|dans lequel|mit|wo|in dem|in der|dove|in cui|com|onde|em que)\s+/iu;

function dropRequest(raw: string): string {
  // "eine Einverständniserklärung für den Schulausflug wo die Eltern den Namen …": the form named first.
  const formFirst = TITLE_NOUN.test(fold(raw.split(/\s+/).slice(0, 4).join(' ')));
  if (!formFirst && !REQUEST_OPENING.test(fold(raw))) return raw;
  const m = FIRST_FIELD_AFTER.exec(raw);
  if (!m || m.index >= 160) return raw;
  // German puts the verb last: "wo die Eltern den Namen des Kindes (angeben)" → "den Namen des Kindes".
  return raw.slice(m.index + m[0].length).replace(/^(?:die|der|das|ein|eine)\s+\p{Lu}\p{L}*\s+(?=(?:den|die|das|dem|ihren|ihre|seinen|seine)\s)/u, '');
}

/** "the original tenant gives their name" → "Original tenant name": the person's own field. */
const PERSON_GIVES = /^(?:and\s+)?(?:the\s+)?((?:[\p{L}-]+\s+)?[\p{L}-]+)\s+(?:gives?|writes?|enters?|provides?|fills in)\s+(?:their|his|her|its)\s+(?=(?:full\s+)?(?:name|phone|email|address|date of birth)\b)/iu;

/** Several people give their own details in one sentence ("the tenant gives their name and the subtenant gives their name"). */
const GIVES_THEIR = /\b(?:gives?|writes?|enters?|provides?|fills in)\s+(?:their|his|her)\b/gi;

/** The marks the line segmenter and the choice grammar leave in an item's remarks, applied around readField. */
function fieldOf(item: Item, language: Language, roles: Roles, condition: string | undefined, owner: string | undefined, severalGive = false): Made {
  if (item.text.includes(DATE_SIGNED_MARK)) return { kind: 'date_signed', label: WORDS[language].dateSigned };
  const multi = item.remarks.find((r) => r.startsWith(MULTI_MARK));
  const row = item.remarks.includes(ROW_MARK);
  const long = item.remarks.includes(LONG_MARK);
  const plain: Item = { ...item, remarks: item.remarks.filter((r) => !r.startsWith('\u2064')) };
  if (multi) {
    // "Dietary requirements (tick all that apply): vegan, halal": one optional tick box a choice.
    const label = `${capitalise(decodeLabel(multi.slice(MULTI_MARK.length)))}: ${item.text.trim()}`;
    return { kind: 'field', field: { name: '', label, type: 'checkbox', required: false, signer: 1 } };
  }
  const made = readField(plain, language, roles, condition, owner, severalGive);
  if (made.kind !== 'field') return made;
  if (row) {
    // A cell of a repeated row: short, and only the rows used are filled.
    made.field.required = false;
    delete made.field.multiline;
  }
  if (long && made.field.type === 'text') made.field.multiline = true;
  return made;
}

function readField(item: Item, language: Language, roles: Roles, condition: string | undefined, owner: string | undefined, severalGive = false): Made {
  const words = WORDS[language];
  // "please describe what happened": the request to the signer is the field.
  let raw = dropRequest(item.text.replace(/[^\S\u00a0]+/g, ' ').trim().replace(/^please\s+(?=(?:describe|explain|list|give|tell|state|provide|detail|outline)\b)/i, '').replace(/^(?:also\s+)?needs?\s+(?=\S+\s+\S)/i, '')).replace(FORM_WHERE, '')
    .replace(PERSON_GIVES, (all: string, who: string) => (!severalGive || /^(?:they|he|she|you|we|person|signer|couple|parents?)$|\b(?:should|must|will|can|to|may)\b/i.test(who) ? all : `${who} `))
    .replace(/^(?:says|tells us|indicates|dice|indica|dit|indique|sagt|diz)\s+(?=(?:whether|si|s['’]il|ob|se)\b)/i, '');
  if (!raw && !item.options) return { kind: 'none' };
  let rawFolded = fold(raw);
  const remarks = fold(item.remarks.join(' '));
  // "(if insured)", "(for minors)": a condition on this field only.
  const remarkCondition = item.remarks.find((r) => CONDITION_START.test(fold(r)) || TRAILING_CONDITION.test(fold(r)) || UNDER_AGE.test(fold(r)));
  const ifYes = IF_YES.exec(rawFolded) ?? (language === 'de' ? BEI.exec(raw) : null);
  if (ifYes && !CONDITION_START.test(fold(ifYes[2]!)) ) {
    condition = raw.slice(0, ifYes[1]!.length).trim();
    raw = raw.slice(raw.length - ifYes[2]!.length).trim();
    rawFolded = fold(raw);
  }
  const fieldCondition = condition ?? remarkCondition;
  const optional = fieldCondition !== undefined || OPTIONAL.test(rawFolded) || OPTIONAL.test(remarks);
  const withCondition = (f: GeneratedField): Made => {
    if (fieldCondition !== undefined && f.type !== 'signature') f.description = capitalise(fieldCondition.replace(/[,:]\s*$/, ''));
    return { kind: 'field', field: f };
  };
  if (TRAILING_CONDITION.test(rawFolded) && !item.options) return { kind: 'conditional', text: raw, trailing: true };
  if (CONDITION_START.test(rawFolded) && !item.options && !item.joined && !item.last && wordCount(raw) <= 10 && !/\?/.test(raw)) {
    // "If there is a second applicant," qualifies what follows; "their name" is then the applicant's.
    const subject = /\b(?:is|are|hay|y a|gibt|c['’]e|c['’]è|houver|there is|there are)\s+(?:a|an|un|una|une|einen|ein|eine|um|uma)\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)/iu.exec(raw);
    if (!/(?:name|phone|email|address|date)/.test(rawFolded) || subject) return { kind: 'conditional', text: raw, owner: subject?.[1]?.replace(/\s+(?:gibt|there)$/i, ''), trailing: false };
  }
  // "whether they need to rent equipment" is a yes/no question; "whether they have any injuries" asks for them.
  const whether = WHETHER.exec(raw);
  const whetherRest = whether ? whether[1]!.replace(/^(?:or not\s+)?(?:they|you|he|she|the \p{L}+|el \p{L}+|la \p{L}+|il \p{L}+|le \p{L}+|o \p{L}+|a \p{L}+|sie|er|es)\s+(?=\S+\s)/iu, '') : '';
  // "si el niño tiene alguna alergia", "whether they have any injuries": they name the injuries.
  const anyOf = whether ? /^(?:have|has|tiene|tienen|a|ont|hat|haben|ha|hanno|tem|tiver)\s+(?:any|alguna?s?|algun|des|eventuelle|irgendwelche|qualche|delle|alguma?s?)\s+(.+)$/iu.exec(whetherRest) : null;
  if (anyOf) {
    const f: GeneratedField = { name: '', label: capitalise(anyOf[1]!), type: typeOf(fold(anyOf[1]!)), required: false, signer: 1 };
    if (f.type === 'text' && isMultiline(fold(anyOf[1]!))) f.multiline = true;
    return withCondition(f);
  }
  if (whether && (/^whether/i.test(raw) || item.joined || item.last) && !/^(?:have|has) any\b|^tiene alg|^a des\b|^ont des\b/i.test(whetherRest) && !item.options && !CONSENT.test(rawFolded) && !TRAILING_CONDITION.test(rawFolded)) {
    return withCondition({ name: '', label: capitalise(whetherRest.replace(FILLER_END, '')), type: 'radio', required: !optional, signer: 1, options: [words.yes, words.no] });
  }
  // Consent statements keep their words: they are what the signer agrees to.
  if (CONSENT.test(rawFolded) || PREFERENCE.test(rawFolded) || remarks.includes(TICK_REMARK)) {
    let label = raw.replace(/^(?:and|also|then|plus)\s+/i, '');
    // "confirm that they accept the risks", "tick a box saying they accept the terms": the signer says "I accept …".
    const lead = /^i\b/i.test(label) ? null : /^.{0,60}?\b(?:they|you|he|she|[\p{L}]+s)\s+(?:(?:must|should|need to|have to|will|also)\s+)?((?:agree|accept|consent|acknowledge|confirm|certify|understand|authori[sz]e)s?\b.*)$/iu.exec(label);
    if (lead) label = `I ${lead[1]!.replace(/^(\w+?)s\b/i, '$1')}`;
    else if (/^(?:agrees|accepts|confirms|acknowledges|consents)\b/i.test(label)) label = `I ${label.replace(/^(\w+?)s\b/i, '$1')}`;
    const consent = (CONSENT.test(fold(label)) || remarks.includes(TICK_REMARK)) && !PREFERENCE.test(fold(label));
    return withCondition({ name: '', label: capitalise(label), type: 'checkbox', required: consent && !optional, signer: 1 });
  }
  if (DATE_SIGNED.test(rawFolded)) return { kind: 'date_signed', label: capitalise(cleanPhrase(raw)) || words.dateSigned };
  if ((language === 'de' ? SIGNATURE_DE : SIGNATURE).test(rawFolded) && !item.options) {
    const role = raw.replace(/\b(?:signatures?|signed by|firmas?|unterschrift(?:en)?|signatory|assinaturas?)\b/gi, ' ').replace(/\b(?:authori[sz]ed)\b/gi, '').trim();
    const cond = /^(?:if|for|when)\b/i.test(role) || UNDER_AGE.test(fold(role)) || UNDER_AGE.test(remarks) || OPTIONAL.test(remarks) || fieldCondition !== undefined;
    const label = capitalise(cleanPhrase(raw).replace(/\s+(?:at the (?:end|bottom)|for .*)$/i, ''));
    const roleText = /^(?:their|his|her|su|sus|son|sa|ses|ihre|seine|il suo|la sua|o seu|a sua)$/i.test(role) && owner ? owner : role;
    return { kind: 'signature', role: roleText, required: !cond, label, condition: cond ? (fieldCondition ?? item.remarks[0]) : undefined };
  }
  let label = cleanPhrase(raw);
  // "their name" after "If there is a second applicant": the second applicant's name.
  const bareHead = /^(?:name|income|phone(?: number)?|email|address|date of birth)$/i.test(label);
  if (owner && language === 'en' && (/^(?:their|his|her|its)\s+/i.test(raw.replace(/^(?:and|also)\s+/i, '')) || bareHead)) label = `${owner} ${label}`;
  else if (owner && language !== 'en' && /^(?:su|sus|son|sa|ses|dessen|deren|il suo|la sua|il loro|o seu|a sua|seu|sua)\s+/i.test(raw.replace(/^(?:y|et|und|e)\s+/i, ''))) label = `${label} (${owner})`;
  if (!label && item.options) label = words.form;
  if (!label) return { kind: 'none' };
  const folded = fold(label);
  if (INITIALS.test(folded) && !item.options) {
    return withCondition({ name: '', label: capitalise(/\binitials?\b/i.test(label) && wordCount(label) > 3 ? words.initials : label), type: 'initials', required: !optional, signer: roles.list.length ? roles.owner(label) : 1 });
  }
  const required = (!optional && !REMARKS.test(fold(cleanPhrase(raw)))) || (REQUIRED.test(rawFolded) && fieldCondition === undefined);
  const cleanLabel = capitalise(label.replace(/\s*\b(?:optional|opcional|facultatif|optionnel|freiwillig|facoltativo|opzionale)\b\s*/gi, ' ').trim());
  if (item.options) {
    const options = dedupe(item.options.map(capitalise));
    const yesNo = options.length === 2 && options.every((o) => YES_NO.test(fold(o)));
    const opts = yesNo ? [words.yes, words.no] : options;
    return withCondition({ name: '', label: cleanLabel, type: opts.length <= 4 ? 'radio' : 'select', required, signer: 1, options: opts });
  }
  // A question the signer answers: "Do you need a parking pass?", "¿Necesita plaza de aparcamiento?".
  // "¿Tiene algún problema de salud que debamos conocer?": the answer names the problems (text).
  const anyQuestion = item.question ? ANY_QUESTION.exec(raw) : null;
  if (anyQuestion) {
    const what = anyQuestion[1]!.replace(/\s+(?:que|that|we|qu['’]|di cui|das|den|die)\b.*$/iu, '').trim();
    const f: GeneratedField = { name: '', label: capitalise(what), type: 'text', required, signer: 1 };
    if (isMultiline(fold(what))) f.multiline = true;
    return withCondition(f);
  }
  if (item.question && !WH_WORD.test(fold(raw)) && typeOf(fold(raw)) === 'text' && !isMultiline(fold(raw))) {
    return withCondition({ name: '', label: capitalise(raw.replace(FILLER_END, '')), type: 'radio', required, signer: 1, options: [words.yes, words.no] });
  }
  if (YES_NO_PHRASE.test(label) && typeOf(folded) === 'text' && !isMultiline(folded)) {
    return withCondition({ name: '', label: cleanLabel, type: 'radio', required, signer: 1, options: [words.yes, words.no] });
  }
  // "refund or exchange": two bare words joined by "or" are a choice between them.
  const either = /^([\p{L}-]+)\s+(?:or|o|ou|oder)\s+([\p{L}-]+)$/u.exec(label);
  if (either && typeOf(folded) === 'text' && !isMultiline(folded) && !/\b(?:name|nombre|nom|vorname|nome)\b/.test(folded)) {
    return withCondition({ name: '', label: cleanLabel, type: 'radio', required, signer: 1, options: [capitalise(either[1]!), capitalise(either[2]!)] });
  }
  // Prose that names nothing we know is not a field: "Our studio needs a waiver that …".
  if (wordCount(label) > 7 && typeOf(folded) === 'text' && !isMultiline(folded) && !/\b(?:name|nombre|nom|title|nome)\b/.test(folded)) return { kind: 'none' };
  if (/^(?:we|our|this|it|please|make (?:a|an|me|us)|i need|need|needs|want|wants|would like|create|i want|build|nous|wir|necesito|are|is|am|looking for)\b/i.test(label)) return { kind: 'none' };
  // "… and want a new patient form": the form itself is not one of its fields.
  if (/\b(?:a|an|the|our|new)\s+(?:[\p{L}-]+\s+){0,3}(?:form|formulario|formulaire|formular)$/iu.test(label)) return { kind: 'none' };
  const hinted = typeOf(`${folded} ${remarks}`);
  // "(a number from 1 to 10)", "(1-10)": a remark that asks for a number.
  const type: FieldType = hinted === 'text' && /\b(?:number|numero|nombre|zahl)\b|\d+\s*(?:-|to|a|bis)\s*\d+/.test(remarks) ? 'number' : hinted;
  const field: GeneratedField = { name: '', label: shortLabel(cleanLabel), type, required, signer: 1 };
  // "Previous experience (please give details)": the remark may ask for the long answer.
  if (type === 'text' && (isMultiline(folded) || isMultiline(remarks))) field.multiline = true;
  return withCondition(field);
}

const ANY_QUESTION = /^(?:do you have|have you (?:got|had)|does (?:he|she|the \p{L}+) have|tiene(?: usted)?|tienes|tem|tens|avez-vous|as-tu|a-t-(?:il|elle)|haben sie|hast du|hat (?:er|sie|das kind)|ha|hai)\s+(?:any|algun[oa]?s?|algún|alguna?s?|alguma?s?|des|irgendwelche|qualche|delle|degli|dei)\s+(.+)$/iu;

function shortLabel(label: string): string {
  return label.length <= 80 ? label : `${label.slice(0, 77).replace(/\s+\S*$/, '')}…`;
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}
