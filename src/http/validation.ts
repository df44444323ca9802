import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from './openapi.js';

// Two Ajv 2020 instances over the same contract. Bodies are never coerced or stripped: a wrong type is
// an error and an unknown field is `parameter_unknown`. Query strings arrive as text, so only they coerce.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
export const DOC_ID = 'formsign-openapi';

export interface Validators {
  body: Ajv2020;
  query: Ajv2020;
}

function build(doc: OpenApiDocument, coerce: boolean): Ajv2020 {
  // strict: false because OpenAPI adds keywords (example, x-…, discriminator) that JSON Schema lacks.
  const ajv = new Ajv2020({ strict: false, allErrors: false, removeAdditional: false, useDefaults: coerce, coerceTypes: coerce });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: doc.components }, DOC_ID);
  return ajv;
}

export function createValidators(doc: OpenApiDocument): Validators {
  return { body: build(doc, false), query: build(doc, true) };
}

/** Rewrites `#/components/...` refs so a fragment of the document compiles on its own. */
export function absolutize<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOC_ID}#/`)) as T;
}

export type { ErrorObject, ValidateFunction };
