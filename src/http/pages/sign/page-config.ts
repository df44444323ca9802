import type { FieldDef, FieldValue } from '../../../pdf/field.js';

// What the signing page's server side hands its scripts (the `data-config` JSON of #signing, written
// by sign-html.ts, read by assets/*.ts): one definition for both, so a key renamed on one side fails
// the type check on the other. Types only, no Node: the page scripts' tsconfig reads this file too.

/** One field of the form as the page knows it: its place, whose it is, and the value it has so far. */
export interface PageFieldConfig extends Omit<FieldDef, 'signer'> {
  /** The control's element id (`field-<i>`). */
  id: string;
  mine: boolean;
  value: FieldValue;
  signed?: boolean;
}

export interface SignPageConfig {
  document: string;
  submit: string;
  locale: string;
  pdfjs: string;
  pdfjsWorker: string;
  standardFonts: string;
  signaturePad: string;
  /** Typed-signature fonts by key (sign-assets.ts SIGN_FONTS). */
  fonts: Readonly<Record<string, string>>;
  valueRules: string;
  /** Present only when the form has conditions or formulas. */
  fieldLogic?: string;
  /** The page's words in the signer's language, by catalogue key. */
  text: Readonly<Record<string, string>>;
  fields: PageFieldConfig[];
  /** The signer may hand their part to someone else (`/sign/<token>/reassign`); false unless the form allows it. */
  allow_reassign: boolean;
  /** When the signer's draft on the server was last saved (ISO time), null when there is none. */
  draft_saved_at: string | null;
  /**
   * Each page's `[width, height]` in PDF points as displayed, from the server (issue 43 item 4): the
   * boxes are in the HTML at these sizes and the markers go on them before pdf.js or the PDF load. Null
   * when the server could not measure them now: the page lays its boxes out from the PDF.
   */
  pages: Array<[number, number]> | null;
  /** The first page as a picture (`/sign/<token>/first-page.webp`), shown until pdf.js draws it; null without `pages`. */
  first_page: string | null;
  /** Adopting a signature (issue 43 item 7; adopt-html.ts, assets/adopt-signature.ts). */
  adopt: AdoptConfig;
}

export interface AdoptConfig {
  /** The module that does it (assets/adopt-signature.ts), imported by the page's script. */
  script: string;
  /** POST {text} → the name's styles as outlines (`/sign/<token>/signature-styles`). */
  styles: string;
  /** The recipient's name, typed in already ('' when the sender gave none). */
  name: string;
  /** The dialog's words in the signer's language (adopt-words.ts). */
  text: Readonly<Record<string, string>>;
  /** An upload's bounds: bytes of the file, pixels of the image; and the server's bound on a signature's PNG. */
  limits: { bytes: number; pixels: number; signatureBytes: number };
}
