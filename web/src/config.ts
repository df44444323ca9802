/** What the server writes into the page: where pdf.js and its worker are (shared with the signing page). */
export interface PageConfig {
  pdfjs: string;
  pdfjsWorker: string;
  standardFonts: string;
  /** The browser had a live session when the page was served. */
  signedIn: boolean;
  /** The server keeps a dev outbox (no SMTP server or SMS gateway): its page is offered. */
  devOutbox?: boolean;
  /** An OpenID provider is configured (OIDC_ISSUER_URL): the sign-in page offers single sign-on. */
  sso?: boolean;
}

export function pageConfig(): PageConfig {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="formsign-config"]');
  return JSON.parse(meta?.content ?? '{}') as PageConfig;
}
