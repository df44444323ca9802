// What a signing link's page shows: the document to sign, or a state that ends or delays signing. The
// one list: the link's resolution (domain/signing/resolve-link.ts) is checked against it at compile
// time, and the embed client's `FormsignPageState` (clients/embed, a package without dependencies,
// so a copy) and the page's embed bridge against it by test/unit/one-source.test.ts.

export const SIGNING_PAGE_STATES = ['open', 'signed', 'waiting', 'declined', 'voided', 'expired'] as const;

export type SigningPageState = (typeof SIGNING_PAGE_STATES)[number];
