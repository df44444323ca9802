// What a generator (built-in or model) produces: a title and an ordered list of fields without
// positions. The PDF layout (src/pdf/generate) places them; the same checks apply to either source.
import type { FieldType } from '../../pdf/index.js';

export const LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The description is in a language the built-in generator does not read (or one was asked for). */
export class UnsupportedLanguageError extends Error {
  /** `detected`: the ISO 639-3 code the description's language was identified as (`nld`). */
  constructor(readonly language: string | undefined, readonly detected?: string) {
    super(`${language ? `The language "${language}"${detected && detected !== language ? ` (${detected})` : ''} is` : 'The language of this description is'} not supported. Write the description in one of: ${LANGUAGES.join(', ')}.`);
    this.name = 'UnsupportedLanguageError';
  }
}

/** The description asks for more fields than a generated form may have: refused, never cut. */
export class TooManyFieldsError extends Error {
  constructor(readonly count: number) {
    super(`This description asks for ${count} fields; a generated form has at most ${MAX_FIELDS}. Split it into several forms.`);
    this.name = 'TooManyFieldsError';
  }
}

export interface GeneratedField {
  /** snake_case, unique within the form, stable for the same description. */
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  /** 1-based signer slot. */
  signer: number;
  options?: string[];
  multiline?: boolean;
  /** When the field applies ("If applicable", "Only for minors"): shown under its label. */
  description?: string;
  /** The heading of the group the description puts the field in ("Personal details"). */
  section?: string;
}

export interface Signer {
  slot: number;
  /** The signer's role as the description names it ("Tenant"); shown under the signature line. */
  role: string;
}

export interface GeneratedSpec {
  title: string;
  language: Language;
  fields: GeneratedField[];
  signers: Signer[];
}

export const MAX_FIELDS = 100;
export const MAX_PROMPT = 4000;
export const MAX_LABEL = 120;
export const MAX_OPTIONS = 20;

/** A BCP 47 tag's shape (`en`, `pt-BR`, `zh-Hant-TW`): the value goes into the PDF's /Lang, so nothing else passes. */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
