// HTML built only through the `html` tag: every interpolated string is escaped, so markup can come
// only from the templates themselves (or from another `html` result). There is no way to splice a raw
// string in, which keeps pages free of injection by construction.

const SAFE = Symbol('safe-html');

export interface SafeHtml {
  readonly [SAFE]: string;
}

export type HtmlValue = string | number | SafeHtml | readonly SafeHtml[] | null | undefined | false;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return (value as readonly SafeHtml[]).map((v) => v[SAFE]).join('');
  return (value as SafeHtml)[SAFE];
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return { [SAFE]: out };
}

export function toHtmlString(doc: SafeHtml): string {
  return doc[SAFE];
}
