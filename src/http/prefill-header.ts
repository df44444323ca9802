/** The longest `X-Service-Prefill-Unmatched` value sent (some clients refuse headers past 8 KB). */
export const UNMATCHED_HEADER_MAX = 4096;
const MORE = `,${encodeURIComponent('…')}`;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The unmatched prefill keys as a header value: ASCII only (header values are Latin-1 on the wire), so a
 * key with a comma, a `%` or any character outside printable ASCII is percent-encoded. Total for any
 * string (a lone surrogate, which encodeURIComponent would throw on, becomes U+FFFD), so it cannot fail
 * after the form has been committed. Keys that do not fit in UNMATCHED_HEADER_MAX are left out and the
 * list ends with `,…` (percent-encoded).
 */
export function unmatchedHeader(keys: readonly string[]): string | undefined {
  if (keys.length === 0) return undefined;
  let out = '';
  for (const key of keys) {
    const item = encodeItem(key);
    const next = out === '' ? item : `${out},${item}`;
    if (next.length > UNMATCHED_HEADER_MAX - MORE.length) return out === '' ? MORE.slice(1) : out + MORE;
    out = next;
  }
  return out;
}

function encodeItem(key: string): string {
  return /^[\x20-\x7e]*$/.test(key) && !/[,%]/.test(key) ? key : encodeURIComponent(key.replace(LONE_SURROGATE, '\uFFFD'));
}
