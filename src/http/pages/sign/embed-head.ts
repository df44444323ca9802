import type { SigningLink } from '../../../domain/signing/resolve-link.js';
import { html, type SafeHtml } from '../html.js';
import { SIGN_ASSETS } from './sign-assets.js';

/**
 * What a signing page of an account with allowed origins carries in its head for embedding: who may
 * hear its messages and which form and recipient they are about (read by assets/embed-bridge.js), and
 * the bridge itself. Nothing for other accounts: their pages cannot be framed.
 */
export function embedHead(link: SigningLink, origins: readonly string[], state: SigningLink['state'] = link.state): SafeHtml | undefined {
  if (origins.length === 0) return undefined;
  // `state` is the page's (open, signed, waiting, declined, voided, expired): the bridge tells the host it.
  const context = JSON.stringify({ origins, form_id: link.form.id, recipient_id: link.recipient.id, state });
  return html`<meta name="formsign-embed" content="${context}">
<script type="module" src="${SIGN_ASSETS.embedBridge.url}"></script>`;
}
