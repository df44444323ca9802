// Accept-Encoding (RFC 9110 §12.5.3): a coding is acceptable when listed with a q-value above 0, or
// when not listed and `*` is (q above 0). `gzip;q=0` says "never gzip": a word match would send it.

/** Whether `header` accepts content coding `coding` (lower case, e.g. 'gzip', 'br'). */
export function acceptsEncoding(header: string | string[] | undefined, coding: string): boolean {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return false;
  let star: number | undefined;
  for (const part of text.split(',').slice(0, 30)) {
    const [name = '', ...params] = part.split(';');
    const q = qualityOf(params);
    const listed = name.trim().toLowerCase();
    // x-gzip is gzip's old name (RFC 9110 §8.4.1.3).
    if (listed === coding || (coding === 'gzip' && listed === 'x-gzip')) return q > 0;
    if (listed === '*') star = q;
  }
  return star !== undefined && star > 0;
}

/** The `q` parameter's value; 1 when absent; 0 (not acceptable) when not a number. */
function qualityOf(params: string[]): number {
  for (const param of params) {
    const m = /^\s*q\s*=\s*(\S*)\s*$/i.exec(param);
    if (!m) continue;
    const q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(m[1]!) ? Number(m[1]) : 0;
    return q;
  }
  return 1;
}
