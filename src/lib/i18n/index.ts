import { ar } from './catalogues/ar.js';
import { cs } from './catalogues/cs.js';
import { da } from './catalogues/da.js';
import { de } from './catalogues/de.js';
import { el } from './catalogues/el.js';
import { en, type Catalogue, type MessageKey } from './catalogues/en.js';
import { es } from './catalogues/es.js';
import { fi } from './catalogues/fi.js';
import { fr } from './catalogues/fr.js';
import { he } from './catalogues/he.js';
import { it } from './catalogues/it.js';
import { ja } from './catalogues/ja.js';
import { ko } from './catalogues/ko.js';
import { nb } from './catalogues/nb.js';
import { nl } from './catalogues/nl.js';
import { pl } from './catalogues/pl.js';
import { pt } from './catalogues/pt.js';
import { ru } from './catalogues/ru.js';
import { sv } from './catalogues/sv.js';
import { tr } from './catalogues/tr.js';
import { uk } from './catalogues/uk.js';
import { zh } from './catalogues/zh.js';

// The words signers read (the signing page, its dialogs and errors, the messages they get), one
// catalogue per language, reachable from every layer: `t(locale, key, params)`. A locale is one of
// LOCALES; `pickLocale` turns what is known of a signer (their recipient locale, the browser's
// Accept-Language, the account's default) into one.

export type { Catalogue, MessageKey };

export const CATALOGUES = { en, ar, cs, da, de, el, es, fi, fr, he, it, ja, ko, nb, nl, pl, pt, ru, sv, tr, uk, zh } as const satisfies Record<string, Catalogue>;

export type Locale = keyof typeof CATALOGUES;
export const DEFAULT_LOCALE: Locale = 'en';
export const LOCALES = Object.keys(CATALOGUES) as Locale[];

/** Each language by its own name, for the language menu. */
export const LANGUAGE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English', ar: 'العربية', cs: 'Čeština', da: 'Dansk', de: 'Deutsch', el: 'Ελληνικά', es: 'Español', fi: 'Suomi',
  fr: 'Français', he: 'עברית', it: 'Italiano', ja: '日本語', ko: '한국어', nb: 'Norsk bokmål', nl: 'Nederlands', pl: 'Polski',
  pt: 'Português', ru: 'Русский', sv: 'Svenska', tr: 'Türkçe', uk: 'Українська', zh: '中文（简体）',
};

const RTL: ReadonlySet<Locale> = new Set(['ar', 'he']);

/** The writing direction of a language: the page's `dir`. */
export function directionOf(locale: Locale): 'rtl' | 'ltr' {
  return RTL.has(locale) ? 'rtl' : 'ltr';
}

export function isLocale(s: string): s is Locale {
  return Object.hasOwn(CATALOGUES, s);
}

export type Params = Readonly<Record<string, string | number>>;

/** Puts `{name}` values into a template; a placeholder without a value stays as written. */
export function fill(template: string, params: Params = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** The text of `key` in `locale`, with its placeholders filled. */
export function t(locale: Locale, key: MessageKey, params?: Params): string {
  return fill(CATALOGUES[locale][key], params);
}

/**
 * A BCP 47 tag in its canonical form ("pt-br" → "pt-BR"), or null when it is not one. The one rule for
 * a locale a client gives (a recipient's, an account's default).
 */
export function canonicalLocaleTag(tag: string): string | null {
  if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) || tag.length > 35) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

// Languages whose tags name one we have under another code: Norwegian (no, nn) reads Bokmål.
const ALIASES: Readonly<Record<string, Locale>> = { no: 'nb', nn: 'nb', iw: 'he' };

/** The catalogue language for a tag ("de-AT" → "de"), or null when none is kept for it. */
export function supportedLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const canonical = canonicalLocaleTag(tag.trim());
  if (!canonical) return null;
  const language = canonical.split('-')[0]!.toLowerCase();
  if (isLocale(language)) return language;
  return ALIASES[language] ?? null;
}

/** The tags of an Accept-Language header, most wanted first (q=0 left out). */
export function acceptedTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, i) => {
      const [tag = '', ...attrs] = part.trim().split(';');
      const q = attrs.map((a) => /^\s*q=([0-9.]+)\s*$/.exec(a)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => x.tag !== '' && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.tag);
}

/**
 * The signer's language: the first of `choices` (in order of precedence: a language picked on the
 * page, the recipient's locale, each tag of Accept-Language, the account's default) that a catalogue
 * exists for; else English.
 */
export function pickLocale(choices: ReadonlyArray<string | null | undefined>): Locale {
  for (const c of choices) {
    const found = supportedLocale(c);
    if (found) return found;
  }
  return DEFAULT_LOCALE;
}

// Built once per language: constructing an Intl formatter costs more than composing a message.
const UTC_FORMATS = new Map<Locale, Intl.DateTimeFormat>();
const EN_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const EN_TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

/**
 * A moment in UTC, written for a reader of `locale` and saying it is UTC: "24 December 2026, 14:05
 * UTC", "24. Dezember 2026 um 14:05 UTC". For messages and pages whose reader's time zone is unknown
 * (the signing page rewrites it in the browser's own zone).
 */
export function formatUtc(locale: Locale, iso: string): string {
  const d = new Date(iso);
  if (locale === 'en') return `${EN_DATE.format(d)}, ${EN_TIME.format(d)} UTC`;
  let format = UTC_FORMATS.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });
    UTC_FORMATS.set(locale, format);
  }
  return `${format.format(d)} UTC`;
}
