// The rule every generated form keeps, whichever generator produced it: someone signs it. A spec
// without a signature field gets one for the first signer; nothing is accepted as is.
import { fold, WORDS } from './lexicon.js';
import type { GeneratedField, GeneratedSpec } from './spec.js';

export function withSignature(spec: GeneratedSpec): GeneratedSpec {
  if (spec.fields.length === 0 || spec.fields.some((f) => f.type === 'signature')) return spec;
  const words = WORDS[spec.language];
  const names = new Set(spec.fields.map((f) => f.name));
  const free = (base: string): string => {
    let name = base;
    for (let i = 2; names.has(name); i++) name = `${base}_${i}`;
    names.add(name);
    return name;
  };
  const slug = (label: string): string => fold(label).replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'signature';
  const role = spec.signers.find((s) => s.slot === 1)?.role;
  const label = role && role !== words.signer ? words.of(role) : words.signature;
  const added: GeneratedField[] = [{ name: free(slug(label)), label, type: 'signature', required: true, signer: 1 }];
  const signers = spec.signers.some((s) => s.slot === 1) ? spec.signers : [{ slot: 1, role: words.signer }, ...spec.signers];
  return { ...spec, fields: [...spec.fields, ...added], signers };
}
