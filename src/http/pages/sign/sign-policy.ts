// The signing page's policy. Everything comes from this origin: the page's script and pdf.js (whose
// worker is a module script from here too), fonts (the script font and pdf.js's standard fonts),
// the document fetched by pdf.js. Previews are canvases, so no data: or blob: image is needed.

/**
 * Who may frame the signing page: the origins the account allows (embedded signing, issue 26), else
 * nobody — and X-Frame-Options (DENY, from the page headers) says the same.
 */
export const SIGN_FRAME_ANCESTORS = "'none'";

/** The page's policy with `frame-ancestors` listing the allowed origins (already canonical: origin-rule.ts). */
export function signCsp(frameOrigins: readonly string[]): string {
  return frameOrigins.length === 0 ? SIGN_CSP : SIGN_CSP.replace(`frame-ancestors ${SIGN_FRAME_ANCESTORS}`, `frame-ancestors ${frameOrigins.join(' ')}`);
}

export const SIGN_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  `frame-ancestors ${SIGN_FRAME_ANCESTORS}`,
].join('; ');

/** The header the page's script sends with a submission; a cross-site request cannot carry it unasked. */
export const SIGN_SUBMIT_HEADER = 'x-formsign-signing';
