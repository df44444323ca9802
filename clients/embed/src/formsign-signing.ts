// <formsign-signing src="…signing_url">: shows a Formsign signing page in a frame on your own page.
// No dependencies. The frame sizes itself to the page (the page posts its height), and the page's
// messages come out as DOM events on the element (they bubble and cross shadow roots):
//   formsign:loaded     the page is shown (detail.state: open | signed | waiting | declined | voided | expired)
//   formsign:completed  the recipient signed (detail.complete: every recipient has signed)
//   formsign:declined   the recipient declined (detail.reason when given), or the page shows a form
//                       another recipient declined
//   formsign:waiting    a sequential form: this recipient's turn has not come yet
//   formsign:voided     the sender voided the form
//   formsign:expired    the link has expired (formsign:error with code link_expired follows it)
//   formsign:error      the link has expired, or a signature was refused (detail.code, detail.message)
// Each detail carries formId and recipientId. Messages are accepted only from the frame itself and
// from the origin of its src; the signing page sends them only to origins its account allows
// (POST /api/v1/embed/origins), and only such origins may frame it at all.

export type FormsignEventType =
  | 'formsign:loaded'
  | 'formsign:completed'
  | 'formsign:declined'
  | 'formsign:waiting'
  | 'formsign:voided'
  | 'formsign:expired'
  | 'formsign:error';

/** What the signing page shows: the document to sign, or one of the states that end or delay signing. */
export type FormsignPageState = 'open' | 'signed' | 'waiting' | 'declined' | 'voided' | 'expired';

export interface FormsignEventDetail {
  formId: string;
  recipientId: string;
  /** formsign:loaded */
  state?: FormsignPageState;
  /** formsign:completed: every recipient has signed. */
  complete?: boolean;
  /** formsign:declined */
  reason?: string;
  /** formsign:error */
  code?: string;
  message?: string;
}

export type FormsignEvent = CustomEvent<FormsignEventDetail>;

const EVENTS: ReadonlySet<string> = new Set<FormsignEventType>(['formsign:loaded', 'formsign:completed', 'formsign:declined', 'formsign:waiting', 'formsign:voided', 'formsign:expired', 'formsign:error']);
const MIN_HEIGHT = 480;

interface PageMessage {
  type: string;
  form_id?: unknown;
  recipient_id?: unknown;
  height?: unknown;
  [key: string]: unknown;
}

const isMessage = (data: unknown): data is PageMessage => typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string';

export class FormsignSigningElement extends HTMLElement {
  static readonly observedAttributes = ['src'];
  readonly #frame: HTMLIFrameElement;
  #origin: string | undefined;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = `:host{display:block;width:100%;max-width:100%}iframe{display:block;width:100%;border:0;height:${MIN_HEIGHT}px}`;
    this.#frame = document.createElement('iframe');
    this.#frame.title = this.getAttribute('title') ?? 'Sign the document';
    // The page needs only scripts, its own origin (its fetches) and forms; it opens the PDF in a new tab.
    this.#frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms allow-popups allow-downloads');
    this.#frame.referrerPolicy = 'origin';
    root.append(style, this.#frame);
  }

  connectedCallback(): void {
    window.addEventListener('message', this.#onMessage);
    this.#load();
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.#onMessage);
  }

  attributeChangedCallback(): void {
    if (this.isConnected) this.#load();
  }

  /** The signing link shown. */
  get src(): string {
    return this.getAttribute('src') ?? '';
  }

  set src(value: string) {
    this.setAttribute('src', value);
  }

  #load(): void {
    const src = this.src;
    let url: URL;
    try {
      url = new URL(src, document.baseURI);
    } catch {
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return;
    if (this.#frame.src === url.href) return;
    this.#origin = url.origin;
    this.#frame.src = url.href;
  }

  readonly #onMessage = (e: MessageEvent): void => {
    if (e.source !== this.#frame.contentWindow || e.origin !== this.#origin || !isMessage(e.data)) return;
    const { type, form_id, recipient_id, height, ...rest } = e.data;
    if (type === 'formsign:resize') {
      if (typeof height === 'number' && Number.isFinite(height) && height > 0) this.#frame.style.height = `${Math.max(MIN_HEIGHT, Math.ceil(height))}px`;
      return;
    }
    if (!EVENTS.has(type)) return;
    const detail: FormsignEventDetail = { ...(rest as Partial<FormsignEventDetail>), formId: String(form_id ?? ''), recipientId: String(recipient_id ?? '') };
    this.dispatchEvent(new CustomEvent<FormsignEventDetail>(type, { detail, bubbles: true, composed: true }));
  };
}

/** Defines the element (once) under its name; importing this module does it. */
export function defineFormsignSigning(name = 'formsign-signing'): void {
  if (!customElements.get(name)) customElements.define(name, class extends FormsignSigningElement {});
}

defineFormsignSigning();

declare global {
  interface HTMLElementTagNameMap {
    'formsign-signing': FormsignSigningElement;
  }
  interface HTMLElementEventMap {
    'formsign:loaded': FormsignEvent;
    'formsign:completed': FormsignEvent;
    'formsign:declined': FormsignEvent;
    'formsign:waiting': FormsignEvent;
    'formsign:voided': FormsignEvent;
    'formsign:expired': FormsignEvent;
    'formsign:error': FormsignEvent;
  }
}
