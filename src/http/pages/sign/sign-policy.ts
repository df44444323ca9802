// The signing page's policy. Everything comes from this origin: the page's script and pdf.js (whose
// worker is a module script from here too), fonts (the script font and pdf.js's standard fonts),
// the document fetched by pdf.js. Previews are canvases, so no data: or blob: image is needed.

/**
 * Who may frame the signing page. Embedding it in a client's site comes later (then this becomes a
 * setting); until then nobody, and X-Frame-Options (DENY, from the page headers) says the same.
 */
export const SIGN_FRAME_ANCESTORS = "'none'";

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
