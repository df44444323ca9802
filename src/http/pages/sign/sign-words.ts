import type { FastifyRequest } from 'fastify';
import { acceptedTags, CATALOGUES, directionOf, pickLocale, supportedLocale, t, type Locale, type MessageKey, type Params } from '../../../lib/i18n/index.js';
import { html, type HtmlValue, type SafeHtml } from '../html.js';

// The signing pages' words in the signer's language (lib/i18n), and the choice of that language.

/** The query parameter the page's language menu sets. */
export const LANG_PARAM = 'lang';

/**
 * The signer's language: the one picked in the page's menu, else the recipient's `locale` (given at
 * send), else the browser's Accept-Language, else the account's default, else English.
 */
export function signerLocale(req: FastifyRequest, known: { recipient?: string | null; account?: string | null } = {}): Locale {
  return pickLocale([pickedLocale(req), known.recipient, ...acceptedTags(req.headers['accept-language']), known.account]);
}

/** The language chosen in the menu (`?lang=de`), when it names one we have. */
export function pickedLocale(req: FastifyRequest): Locale | null {
  const value = (req.query as Record<string, unknown> | undefined)?.[LANG_PARAM];
  return typeof value === 'string' ? supportedLocale(value) : null;
}

export interface Words {
  readonly locale: Locale;
  readonly dir: 'ltr' | 'rtl';
  /** The text of `key`, placeholders filled (escaped where the html tag interpolates it). */
  t(key: MessageKey, params?: Params): string;
  /** The text of `key` as HTML, each placeholder filled with an escaped string or a piece of HTML. */
  h(key: MessageKey, params: Readonly<Record<string, HtmlValue>>): SafeHtml;
}

export function wordsFor(locale: Locale): Words {
  return {
    locale,
    dir: directionOf(locale),
    t: (key, params) => t(locale, key, params),
    h: (key, params) => {
      const parts = CATALOGUES[locale][key].split(/(\{\w+\})/);
      return html`${parts.map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        return name !== undefined && Object.hasOwn(params, name) ? html`${params[name]}` : html`${part}`;
      })}`;
    },
  };
}

// What the page's scripts say (sign.js, decline.js): status lines, dialogs, errors and field problems.
const SCRIPT_PREFIXES = ['sign.', 'dialog.', 'problem.', 'decline.', 'attach.'];

/** The texts the page's script needs, for its config. */
export function scriptText(locale: Locale): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(CATALOGUES[locale])) if (SCRIPT_PREFIXES.some((p) => key.startsWith(p))) out[key] = text;
  return out;
}

