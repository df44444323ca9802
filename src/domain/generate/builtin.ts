// The built-in generator: description in, title and fields out. Pure and deterministic (no network,
// no clock, no randomness): the same description always gives the same fields with the same names.
import type Nlp from 'compromise';
import { loadOnFirstUse } from '../../lib/load-on-first-use.js';
import type { FieldType } from '../../pdf/index.js';
import {
  CONSENT, DATE_SIGNED, detectLanguage, fold, INITIALS, isMultiline, OPTIONAL, PREFERENCE, REQUIRED, SIGNATURE, typeOf, WORDS, YES_NO,
} from './lexicon.js';
import { Groups, items, sentences, titleFromText, wordCount, type Item } from './segment.js';
import { MAX_FIELDS, MAX_LABEL, type GeneratedField, type GeneratedSpec, type Language, type Signer } from './spec.js';

// English nouns and number words; loaded on the first description, not at every start.
const nlp = loadOnFirstUse<typeof Nlp>('compromise');

export interface BuiltinOptions {
  language?: Language | undefined;
}

// A signing clause: "Buyer and seller sign", "Employee signs and dates", "They sign at the bottom",
// "the project manager then approves it by signing".
const SIGN_VERB = /^(.*?)\s*\b(?:(?:both|then|also|must|will|should|each|all|can|shall)\s+)*(?:signs?|signing|countersigns?|firman|signent|signe|unterschreiben|unterschreibt)\b(?![-\s](?:up|in)\b)(.*)$/i;
const APPROVE_BY = /^(.*?)\s*\b(?:then\s+)?approves?\s+(?:it|this|them|the\s+\w+)\s+by\s+signing\b(.*)$/i;
const PRONOUN = /^(?:they|he|she|you|we|both|both parties|all parties|the parties|each party|everyone|all|the signer|signer|both of them|then|and|ellos|ellas|ils|elles|sie|er|al final|a la fin|am ende|finalmente|enfin|zum schluss|)$/i;
const LEAD_IN = /^(?:.{0,60}?\b(?:(?:i|we|you) (?:also )?(?:need|want|require)|please (?:add|include)|want to know|would like to know|needs? to know|tell us|(?:should|must|will|to)\s+(?:give|enter|provide|state|list)|gives?|enters?|provides?|collects?|asks? for|includes?|chooses?|selects?|picks?|confirms? that they|confirm|deben (?:indicar|dar|escribir|proporcionar)|debe (?:indicar|dar|escribir)|indicar|indique|incluir|incluya|doivent (?:indiquer|donner|fournir)|doit (?:indiquer|donner)|indiquer|fournir|angeben|eintragen|mussen (?:angeben|eintragen))\s+)/i;
const FILLER_START = /^(?:and|or|plus|also|then|with|including|the|a|an|their|your|his|her|our|its|any|whether|whether or not|they|he|she|it|me|us|el|la|los|las|le|les|der|die|das|den|dem|su|sus|votre|vos|ihre|ihr|un|una|une|des|ein|eine|einen|short|brief)\s+|^(?:l|d)['’]\s*/i;
const FILLER_END = /\s+(?:we should know about|at the (?:end|bottom|top)|as well|too|if needed|below|here|please|in full)$/i;
const CONDITIONAL = /^(?:if|falls|si|wenn)\b/i;
const QUESTION_START = /^(?:do|does|did|is|are|was|were|will|would|have|has|can|could|should|tiene|tienes|es|est-ce|avez|etes|haben|sind|ist)\b/i;
const YES_NO_PHRASE = /^(?:willing to|able to|are you|do you|have you|can you|will you|would you|did you|is there|are there|has the|have there)\b/i;
const KNOWN_TEXT = /\b(?:name|nombre|nom|prenom|vorname|nachname|title|company|empresa|societe|firma|city|ciudad|ville|stadt|country|pais|pays|land|id|number|numero|nummer)\b/;
const UNDER_AGE = /\b(?:under \d+|minors?|menor(?:es)?|mineurs?|minderjahrig\w*|unter \d+)\b/;

interface Role { key: string; label: string; slot: number }

class Roles {
  readonly list: Role[] = [];
  constructor(private readonly lang: Language) {}
  slotOf(raw: string): number {
    const label = cleanRole(raw, this.lang);
    const key = fold(label);
    if (key === '') return this.list[0]?.slot ?? this.add('', WORDS[this.lang].signer).slot;
    const found = this.list.find((r) => r.key === key || (r.key === '' && this.list.length === 1));
    if (found) {
      if (found.key === '') { found.key = key; found.label = label; }
      return found.slot;
    }
    return this.add(key, label).slot;
  }
  private add(key: string, label: string): Role {
    const r = { key, label, slot: this.list.length + 1 };
    this.list.push(r);
    return r;
  }
  /** The slot of the role a field's label names ("Seller address" → the seller's slot), else 1. */
  owner(label: string): number {
    const f = ` ${fold(label).replace(/[^a-z0-9]+/g, ' ')} `;
    for (const r of this.list) if (r.key !== '' && r.slot > 1 && f.includes(` ${r.key} `)) return r.slot;
    return 1;
  }
}

function cleanRole(raw: string, lang: Language): string {
  let s = raw.replace(/[^\p{L}\p{N}' -]+/gu, ' ').replace(/\s+/g, ' ').trim();
  s = s.replace(/^(?:the|a|an|and|by|of|from|del|de la|de los|de las|de|du|de l'|des|der|die|das|von|le|la|les)\s+/i, '')
    .replace(/\s+(?:at the (?:end|bottom|top)|below|here|required|only|too)$/i, '')
    .replace(/\s+(?:for|if|when|bei|wenn|falls|si|para|pour|en caso)\s+.*$/i, '')
    .replace(/^(?:eines|einer|eine|ein|un|une|una|uno|d'un|d'une)\s+/i, '')
    .trim();
  if (lang === 'en' && s && !/\s/.test(s)) {
    const single = nlp()(s).nouns().toSingular().text();
    if (single) s = single;
  }
  return PRONOUN.test(s) ? '' : s.charAt(0).toUpperCase() + s.slice(1);
}

/** "two witnesses" → ["Witness 1", "Witness 2"] (English number words via compromise, or digits; at most 10). */
function expandCount(raw: string): string[] {
  const m = /^(?:the\s+|of\s+|by\s+)*(\w+)\s+([\p{L}-]+)$/iu.exec(raw.trim());
  if (!m) return [raw];
  const words: unknown = /^\d+$/.test(m[1]!) ? Number(m[1]) : nlp()(m[1]!).numbers().get();
  const n: unknown = Array.isArray(words) ? (words as unknown[])[0] : words;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 2 || n > 10) return [raw];
  const single = nlp()(m[2]!).nouns().toSingular().text() || m[2]!;
  return Array.from({ length: n }, (_, i) => `${single} ${i + 1}`);
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
  let s = text.trim();
  // "I need a form where customers give me their name": every lead-in goes, not only the first.
  for (let i = 0; i < 3; i++) {
    const lead = LEAD_IN.exec(s);
    if (!lead || wordCount(lead[0]) > 8 || s.length <= lead[0].length) break;
    s = s.slice(lead[0].length);
  }
  for (let i = 0; i < 4; i++) s = s.replace(FILLER_START, '');
  s = s.replace(FILLER_END, '').replace(/^[-–—:;,.\s]+|[-–—:;,.\s]+$/g, '');
  return s;
}

/** Builds the spec: fields in the order the description gives them, signature blocks last. */
export function generateBuiltin(prompt: string, opts: BuiltinOptions = {}): GeneratedSpec {
  const language = opts.language ?? detectLanguage(prompt);
  const words = WORDS[language];
  const groups = new Groups();
  const seg = sentences(prompt, groups);
  const roles = new Roles(language);
  const fields: Array<GeneratedField & { order: number }> = [];
  const seen = new Set<string>();
  const signatures: Array<{ slot: number; label: string; required: boolean; order: number }> = [];
  const datesSigned: Array<{ slot: number; order: number; label: string }> = [];
  let order = 0;

  const addField = (f: GeneratedField): void => {
    const key = `${fold(f.label)}|${f.signer}|${f.type}`;
    if (seen.has(key) || fields.length >= MAX_FIELDS) return;
    seen.add(key);
    fields.push({ ...f, order: order++ });
  };
  const addSignature = (roleText: string, required: boolean, label?: string): number => {
    const slot = roles.slotOf(roleText);
    if (!signatures.some((s) => s.slot === slot)) signatures.push({ slot, label: label ?? '', required, order: order++ });
    return slot;
  };
  const contextRoles = (): string[] => {
    const between = /\bbetween\s+(?:the\s+|a\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+and\s+(?:the\s+|a\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)/iu.exec(prompt);
    if (between && !/\b(?:two|both|\d+)\b/i.test(between[0])) return [between[1]!, between[2]!];
    const parties = [...new Set([...fold(prompt).matchAll(/\b([a-z]+ing|[a-z]+ive)\s+party\b/g)].map((m) => `${m[1]} party`))];
    if (parties.length >= 2) return parties;
    return language === 'en' ? ['Party 1', 'Party 2'] : [`${words.signer} 1`, `${words.signer} 2`];
  };

  let conditional = false;
  for (const sentence of seg.sentences) {
    let rest = sentence;
    // Signing clauses first: their "and" joins signers, not fields.
    const clause = APPROVE_BY.exec(rest) ?? SIGN_VERB.exec(rest);
    if (clause && !SIGNATURE.test(fold(clause[1] ?? '')) && !/\bsign[-\s]?(?:up|in)\b/i.test(rest)) {
      const before = clause[1] ?? '';
      const after = fold(clause[2] ?? '');
      // The subject is what follows the last comma (or "and" after a statement): "…, tenant and landlord both sign".
      const commaAt = before.lastIndexOf(',');
      let subject = before.slice(commaAt + 1).trim();
      let leftover = commaAt >= 0 ? before.slice(0, commaAt) : '';
      const stmt = /^(.*\S)\s+and\s+((?:the\s+)?[\p{L}-]+(?:\s+[\p{L}-]+)?)$/iu.exec(subject);
      if (CONSENT.test(fold(subject)) || INITIALS.test(fold(subject)) || wordCount(subject) > 6) {
        // "they confirm that they accept the risks and sign": the statement is a field, the signer is unnamed.
        const m = /^(.*\S)\s+and$/i.exec(subject);
        leftover = [leftover, m ? m[1]! : subject].filter(Boolean).join(', ');
        subject = '';
      } else if (stmt && wordCount(stmt[1]!) > 3) {
        leftover = [leftover, stmt[1]!].filter(Boolean).join(', ');
        subject = stmt[2]!;
      }
      const names = subject.split(/\s*(?:,|\band\b|&|\by\b|\bet\b|\bund\b)\s*/i).map((s) => s.trim()).filter(Boolean);
      const unnamed = names.length === 0 || names.every((n) => PRONOUN.test(n.replace(/^the\s+/i, '')));
      const bothParties = /\b(?:both|parties|each party|all parties)\b/i.test(subject);
      const signerNames = bothParties ? contextRoles() : unnamed ? [''] : names;
      const optional = UNDER_AGE.test(fold(sentence)) || OPTIONAL.test(fold(sentence));
      const slots = signerNames.flatMap(expandCount).map((n, i) => addSignature(n, !optional || i === 0));
      const extra = /^\s*with\s+(.*)$/.exec(after);
      if (extra) {
        for (const part of extra[1]!.split(/\s*(?:,|\band\b)\s*/).filter(Boolean)) {
          for (const slot of slots) {
            const role = roles.list.find((r) => r.slot === slot)?.label ?? '';
            if (/\bdate\b/.test(part)) datesSigned.push({ slot, order: order++, label: `${role} ${fold(words.dateSigned)}`.trim() });
            else addField({ name: '', label: capitalise(`${role} ${part}`), type: 'text', required: true, signer: slot });
          }
        }
      } else if (/^\s*(?:and|&)\s+dates?\b|^\s*and\s+date\b|\bdated\b/.test(after)) {
        for (const slot of slots) datesSigned.push({ slot, order: order++, label: words.dateSigned });
      }
      // "Seller and buyer sign a purchase agreement: property address, …": the list is still fields.
      const colon = (clause[2] ?? '').indexOf(':');
      rest = [leftover.trim(), colon >= 0 ? (clause[2] ?? '').slice(colon + 1).trim() : ''].filter(Boolean).join(', ');
      if (!rest) continue;
    }

    for (const item of items(rest, groups)) {
      const made = fieldOf(item, language, roles, conditional);
      conditional = made.kind === 'conditional';
      if (made.kind === 'signature') {
        const many = expandCount(made.role);
        if (many.length > 1) for (const role of many) addSignature(role, made.required);
        else addSignature(made.role, made.required, made.label);
      } else if (made.kind === 'date_signed') {
        datesSigned.push({ slot: roles.list.length > 0 ? roles.owner(made.label) : 1, order: order++, label: made.label });
      } else if (made.kind === 'field') {
        addField(made.field);
      }
    }
  }

  // Fields named after a later signer belong to that signer ("seller address").
  for (const f of fields) if (f.type !== 'initials') f.signer = roles.owner(f.label);
  const sigFields: Array<GeneratedField & { order: number }> = [];
  for (const s of signatures.sort((a, b) => a.slot - b.slot)) {
    const role = roles.list.find((r) => r.slot === s.slot);
    const label = s.label || (role && role.key !== '' ? words.of(role.label) : words.signature);
    sigFields.push({ name: '', label: capitalise(label), type: 'signature', required: s.required, signer: s.slot, order: s.order });
    for (const d of datesSigned.filter((x) => x.slot === s.slot)) {
      sigFields.push({ name: '', label: capitalise(d.label), type: 'date_signed', required: false, signer: s.slot, order: d.order });
    }
  }
  // A date of signing without a signature still needs a place.
  for (const d of datesSigned.filter((x) => !signatures.some((s) => s.slot === x.slot))) {
    sigFields.push({ name: '', label: capitalise(d.label), type: 'date_signed', required: false, signer: d.slot, order: d.order });
  }
  const all = [...fields, ...sigFields].slice(0, MAX_FIELDS);
  const names = new Set<string>();
  const out: GeneratedField[] = all.map(({ order: _o, ...f }) => {
    const base = f.name || (f.type === 'checkbox' && CONSENT.test(fold(f.label)) ? consentSlug(f.label) : slug(f.label));
    let name = base;
    for (let i = 2; names.has(name); i++) name = `${base}_${i}`;
    names.add(name);
    // Statements the signer agrees to keep their words (up to 300 characters); other labels are short.
    return { ...f, name, label: f.label.slice(0, f.type === 'checkbox' ? 300 : MAX_LABEL) };
  });
  // One unknown word or phrase is not a form ("hello"): the caller answers with an example instead.
  if (out.length === 1 && out[0]!.type === 'text' && !out[0]!.multiline && !KNOWN_TEXT.test(fold(out[0]!.label))) out.length = 0;
  const signers: Signer[] = roles.list.length > 0
    ? roles.list.map((r) => ({ slot: r.slot, role: r.key === '' ? words.signer : r.label }))
    : [{ slot: 1, role: words.signer }];
  const heading = seg.title !== undefined && /^(?:we|our|my|i|please|this)\b/i.test(seg.title) ? titleFromText(seg.title) ?? seg.title : seg.title;
  const rawTitle = (heading ?? titleFromText(prompt) ?? words.form)
    .replace(/^(?:please\s+)?(?:create|make|build|generate|design|i need|we need|i want|we want)\s+(?:me\s+|us\s+)?(?:a|an)\s+(?:(?:simple|short|new)\s+)?(?:form|document)\s+(?:for|to)\s+(?:a|an|the|our|my)?\s*/i, '')
    .replace(/^(?:necesitamos|necesito|queremos|nous avons besoin d['’]\s*|j['’]ai besoin d['’]\s*|nous voulons|wir brauchen|ich brauche|wir mochten|wir möchten)\s*(?:un|una|une|ein|eine|einen)\s+/i, '');
  // "Bill of sale between buyer and seller" → "Bill of sale": the parties are in the signature blocks.
  const title = capitalise(rawTitle.replace(/\s+(?:between|entre|zwischen)\s+.*$/i, '') || words.form).slice(0, 200);
  return { title, language, fields: out, signers };
}

type Made =
  | { kind: 'field'; field: GeneratedField }
  | { kind: 'signature'; role: string; required: boolean; label: string }
  | { kind: 'date_signed'; label: string }
  | { kind: 'conditional' }
  | { kind: 'none' };

function fieldOf(item: Item, language: Language, roles: Roles, conditional: boolean): Made {
  const words = WORDS[language];
  const raw = item.text.replace(/\s+/g, ' ').trim();
  if (!raw && !item.options) return { kind: 'none' };
  const rawFolded = fold(raw);
  const remarks = fold(item.remarks.join(' '));
  const optional = conditional || OPTIONAL.test(rawFolded) || OPTIONAL.test(remarks);
  // "whether they need to rent equipment" is a yes/no question; "whether they have any injuries" asks for them.
  const whether = /^(?:and\s+)?whether(?:\s+or\s+not)?\s+(?:they|you|he|she|the \w+)\s+(.*)$/i.exec(raw);
  if (whether && !/^(?:have|has) any\b/i.test(whether[1]!) && !item.options && !CONSENT.test(rawFolded)) {
    return { kind: 'field', field: { name: '', label: capitalise(whether[1]!.replace(FILLER_END, '')), type: 'radio', required: !optional, signer: 1, options: [words.yes, words.no] } };
  }
  // Consent statements keep their words: they are what the signer agrees to.
  if (CONSENT.test(rawFolded) || PREFERENCE.test(rawFolded)) {
    let label = raw.replace(/^(?:and|also|then|plus)\s+/i, '');
    // "confirm that they accept the risks", "tick a box saying they accept the terms": the signer says "I accept …".
    const lead = /^i\b/i.test(label) ? null : /^.{0,60}?\b(?:they|you|he|she|[\p{L}]+s)\s+(?:(?:must|should|need to|have to|will|also)\s+)?((?:agree|accept|consent|acknowledge|confirm|certify|understand|authori[sz]e)s?\b.*)$/iu.exec(label);
    if (lead) label = `I ${lead[1]!.replace(/^(\w+?)s\b/i, '$1')}`;
    const consent = CONSENT.test(fold(label)) && !PREFERENCE.test(fold(label));
    return { kind: 'field', field: { name: '', label: capitalise(label), type: 'checkbox', required: consent && !optional, signer: 1 } };
  }
  if (DATE_SIGNED.test(rawFolded)) return { kind: 'date_signed', label: capitalise(cleanPhrase(raw)) || words.dateSigned };
  if (SIGNATURE.test(rawFolded) && !item.options) {
    const role = raw.replace(/\b(?:signatures?|signed by|firmas?|unterschrift(?:en)?|signatory)\b/gi, ' ').replace(/\b(?:authori[sz]ed)\b/gi, '').trim();
    const isConditional = conditional || /^(?:if|for|when)\b/i.test(role) || UNDER_AGE.test(fold(role)) || OPTIONAL.test(remarks);
    const label = capitalise(cleanPhrase(raw).replace(/\s+(?:at the (?:end|bottom)|for .*)$/i, ''));
    return { kind: 'signature', role, required: !isConditional, label };
  }
  if (CONDITIONAL.test(raw) && !item.options && wordCount(raw) <= 10 && !/\?/.test(raw)) {
    // "if the patient is a minor," qualifies what follows.
    const next = fold(raw);
    if (!/(?:name|phone|email|address|date)/.test(next)) return { kind: 'conditional' };
  }
  let label = cleanPhrase(raw);
  if (!label && item.options) label = words.form;
  if (!label) return { kind: 'none' };
  const folded = fold(label);
  if (INITIALS.test(folded) && !item.options) {
    return { kind: 'field', field: { name: '', label: capitalise(/\binitials?\b/i.test(label) && wordCount(label) > 3 ? words.initials : label), type: 'initials', required: !optional, signer: roles.list.length ? roles.owner(label) : 1 } };
  }
  const required = !optional || REQUIRED.test(rawFolded);
  const cleanLabel = capitalise(label.replace(/\s*\b(?:optional|opcional|facultatif|optionnel|freiwillig)\b\s*/gi, ' ').trim());
  if (item.options) {
    const options = dedupe(item.options.map(capitalise));
    const yesNo = options.length === 2 && options.every((o) => YES_NO.test(fold(o)));
    const opts = yesNo ? [words.yes, words.no] : options;
    return { kind: 'field', field: { name: '', label: cleanLabel, type: opts.length <= 4 ? 'radio' : 'select', required, signer: 1, options: opts } };
  }
  if ((item.question && QUESTION_START.test(label)) || YES_NO_PHRASE.test(label)) {
    if (typeOf(folded) === 'text' && !isMultiline(folded)) {
      return { kind: 'field', field: { name: '', label: cleanLabel, type: 'radio', required, signer: 1, options: [words.yes, words.no] } };
    }
  }
  if (item.question && QUESTION_START.test(label) && typeOf(folded) === 'text' && !isMultiline(folded)) {
    return { kind: 'field', field: { name: '', label: cleanLabel, type: 'radio', required, signer: 1, options: [words.yes, words.no] } };
  }
  // "refund or exchange": two bare words joined by "or" are a choice between them.
  const either = /^([\p{L}-]+)\s+(?:or|o|ou|oder)\s+([\p{L}-]+)$/u.exec(label);
  if (either && typeOf(folded) === 'text' && !isMultiline(folded) && !/\b(?:name|nombre|nom|vorname)\b/.test(folded)) {
    return { kind: 'field', field: { name: '', label: cleanLabel, type: 'radio', required, signer: 1, options: [capitalise(either[1]!), capitalise(either[2]!)] } };
  }
  // Prose that names nothing we know is not a field: "Our studio needs a waiver that …".
  if (wordCount(label) > 7 && typeOf(folded) === 'text' && !isMultiline(folded) && !/\b(?:name|nombre|nom|title)\b/.test(folded)) return { kind: 'none' };
  if (/^(?:we|our|this|it|please|make (?:a|an|me|us)|i need|need|needs|want|wants|would like|create|i want|build|nous|wir|necesito|are|is|am|looking for)\b/i.test(label)) return { kind: 'none' };
  // "… and want a new patient form": the form itself is not one of its fields.
  if (/\b(?:a|an|the|our|new)\s+(?:[\p{L}-]+\s+){0,3}(?:form|formulario|formulaire|formular)$/iu.test(label)) return { kind: 'none' };
  const hinted = typeOf(`${folded} ${remarks}`);
  // "(a number from 1 to 10)", "(1-10)": a remark that asks for a number.
  const type: FieldType = hinted === 'text' && /\b(?:number|numero|nombre|zahl)\b|\d+\s*(?:-|to|a|bis)\s*\d+/.test(remarks) ? 'number' : hinted;
  const field: GeneratedField = { name: '', label: shortLabel(cleanLabel), type, required, signer: 1 };
  if (type === 'text' && isMultiline(folded)) field.multiline = true;
  return { kind: 'field', field };
}

function shortLabel(label: string): string {
  return label.length <= 80 ? label : `${label.slice(0, 77).replace(/\s+\S*$/, '')}…`;
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}
