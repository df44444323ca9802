// The /verify page's verdict on a Verification (POST /verify's answer), in a file of its own so the
// verdict the page shows is the one the tests check (test/evidence/verify-attacks.test.ts runs this
// file as the build compiles it). A classic script: it defines formsignVerdict and formsignChangeWords
// for verify.js. The answer's shape is the contract's (src/generated/api.d.ts).
import type { components } from '../../../../generated/api.js';

type Verification = components['schemas']['Verification'];
type Change = components['schemas']['VerifiedChange'];

// What each kind of change is, in words (`formsign verify` says the same).
const formsignChangeWords: Record<Change['kind'], string> = {
  validation_data: 'validation data (DSS)',
  document_timestamp: 'a document timestamp',
  metadata: 'document information or XMP metadata (not content)',
  signature_added: 'a signature',
  field_value: 'a form field value',
  annotation_added: 'an annotation',
  annotation_changed: 'an annotation changed or removed',
  field_added: 'a form field',
  page_content: 'page content',
  page_resources: 'page resources (fonts, images, forms)',
  page: 'a page',
  pages: 'the pages (added, removed or reordered)',
  catalog: 'the document catalog',
  form: 'the form',
  cross_reference: 'the cross-reference (objects switched to other versions)',
  object: 'an object',
};

function formsignDescribeChange(c: Change): string {
  return `${formsignChangeWords[c.kind] ?? c.kind}${c.page ? ` on page ${c.page}` : ''}`;
}

// [title, detail, good]: "Valid" only when every signature is valid and no revision after any of
// them changes more than validation data or metadata.
function formsignVerdict(v: Verification): [string, string, boolean] {
  const sigs = v.signatures;
  if (sigs.length === 0) return ['No digital signature', 'This PDF carries no signature, so nothing vouches for its content.', false];
  const invalid = sigs.find((s) => !s.valid);
  if (!v.intact || invalid) {
    return ['Not valid', invalid?.reason ?? 'A signature does not match the document: it was changed after signing, or the signature is broken.', false];
  }
  const changed = sigs.find((s) => s.modification_level !== 'none' && s.modification_level !== 'ltv_updates');
  if (v.modified_after_signing || changed) {
    const content = (changed?.changes ?? []).filter((c) => !['validation_data', 'document_timestamp', 'metadata'].includes(c.kind));
    const what = content.length > 0 ? [...new Set(content.map(formsignDescribeChange))].join('; ') : 'more than validation data';
    return ['Changed after signing', `The signed part is intact, but a later revision changed the document: ${what}.`, false];
  }
  const metadata = sigs.some((s) => s.changes.some((c) => c.kind === 'metadata'));
  const note = metadata ? ' Only its document information (title, author or similar, not its content) was changed since.' : '';
  if (v.issued_by_this_service) return ['Valid: sealed by this service', `Intact since it was sealed for form ${v.form_id}.${note}`, true];
  return ['Valid signatures', `Intact since it was signed. It was not sealed by this service.${note}`, true];
}

// What verify.js (a module) reads.
declare global {
  var formsignVerdict: (v: Verification) => [string, string, boolean];
  var formsignDescribeChange: (c: Change) => string;
}
globalThis.formsignVerdict = formsignVerdict;
globalThis.formsignDescribeChange = formsignDescribeChange;
