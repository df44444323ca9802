// Embedded signing (issue 26): when the signing page is shown in a frame by a site the account allows,
// this tells the parent what happens — formsign:loaded, formsign:resize (the page's height, so the
// frame can fit it), formsign:completed, formsign:declined, formsign:error — each with the form and
// recipient ids. A page that shows a state instead of the document says which, once, after
// formsign:loaded: formsign:waiting (a sequential form, this recipient's turn has not come),
// formsign:declined (a recipient declined the form), formsign:voided (the sender withdrew it) and
// formsign:expired (also formsign:error link_expired, as before). Loaded only on pages of accounts with allowed origins; messages go only to an allowed
// origin, named exactly (never the wildcard), so no other site can listen in. The page's own script (sign.js)
// tells this one what happened through DOM events on `document`: formsign:submitted after a signature
// was accepted, formsign:failed when it was not; a decline posts through `postDeclined` (or the
// `formsign:declined` DOM event) from wherever the decline is made.

/** What embed-head.ts writes into the meta element. */
interface Embed { origins?: unknown; form_id?: string; recipient_id?: string; state?: string }

const meta = document.querySelector('meta[name="formsign-embed"]');
const embed = (meta ? JSON.parse(meta.getAttribute('content') ?? '{}') : { origins: [] }) as Embed;
const origins: string[] = Array.isArray(embed.origins) ? (embed.origins as string[]) : [];
const framed = window.parent !== window;

/** The parent's origin when the browser names it and it is allowed; otherwise every allowed origin (the browser delivers to the one that matches). */
function targets(): string[] {
  const ancestor = window.location.ancestorOrigins?.[0];
  if (ancestor) return origins.includes(ancestor) ? [ancestor] : [];
  let referrer;
  try {
    referrer = document.referrer ? new URL(document.referrer).origin : undefined;
  } catch {
    referrer = undefined;
  }
  if (referrer && origins.includes(referrer)) return [referrer];
  return origins;
}

/** Posts one message to the parent, only to an allowed origin. */
export function post(type: string, extra: Record<string, unknown> = {}): void {
  if (!framed || origins.length === 0) return;
  const message = { type, form_id: embed.form_id, recipient_id: embed.recipient_id, ...extra };
  for (const origin of targets()) window.parent.postMessage(message, origin);
}

// A decline made in this frame is posted at once (with its reason), and the page it leads to shows the
// declined state: that page must not tell the host a second time. decline.js marks the address it
// goes to (`?declined=told`, in a frame only); not storage, which browsers often refuse a framed page.
const TOLD = 'declined';

function toldAlready(): boolean {
  const url = new URL(location.href);
  if (url.searchParams.get(TOLD) !== 'told') return false;
  url.searchParams.delete(TOLD);
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  return true;
}

/** For the decline flow: the recipient declined to sign. */
export function postDeclined(reason?: unknown): void {
  post('formsign:declined', reason ? { reason: String(reason) } : {});
}

/** The message a page showing a state (not the document) sends once it has loaded. */
function postState(state: string | undefined): void {
  if (state === 'waiting') post('formsign:waiting');
  else if (state === 'voided') post('formsign:voided');
  else if (state === 'declined') {
    if (!toldAlready()) post('formsign:declined');
  } else if (state === 'expired') {
    post('formsign:expired');
    post('formsign:error', { code: 'link_expired', message: 'This signing link has expired.' });
  }
}

if (framed && origins.length > 0) {
  document.documentElement.classList.add('embedded');
  // In a frame sized to the page, the page must not size itself to the frame: the body's minimum of a
  // viewport's height would keep the frame from ever shrinking (CSSOM, which the page's CSP allows).
  document.body.style.minHeight = '0';
  // The body's height as laid out (not the document's, which is never less than the frame), sent when
  // it changes, so the host sizes the frame to it.
  let last = 0;
  const sendHeight = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      post('formsign:resize', { height });
    }
  };
  new ResizeObserver(sendHeight).observe(document.body);
  post('formsign:loaded', { state: embed.state });
  sendHeight();
  postState(embed.state);
  const detail = (e: Event): Record<string, unknown> | undefined => (e as CustomEvent<Record<string, unknown> | undefined>).detail;
  document.addEventListener('formsign:submitted', (e) => post('formsign:completed', { complete: detail(e)?.['complete'] === true }));
  document.addEventListener('formsign:failed', (e) => post('formsign:error', { code: 'signing_failed', message: String(detail(e)?.['message'] ?? '') }));
  document.addEventListener('formsign:declined', (e) => postDeclined(detail(e)?.['reason']));
}

declare global {
  interface Window { formsignEmbed: { post: typeof post; postDeclined: typeof postDeclined } }
}
window.formsignEmbed = { post, postDeclined };
