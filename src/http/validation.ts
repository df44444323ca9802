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
  // String lengths count code points, as OpenAPI's do (a 200-emoji name is 200 characters): Ajv's
  // default, tested in hostile-requests.test.ts.
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

/** Whether any string (value or object key) holds U+0000. Kept lean: it runs on every body and query (~3 µs for a 20-key body). */
function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasNul(value[i])) return true;
    return false;
  }
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key.includes('\u0000') || hasNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * The JSON pointer of the first string (value or object key) holding U+0000, or undefined. NUL is
 * refused everywhere: PostgreSQL cannot store it in text, and no form field or id needs it, so both
 * databases answer the same.
 */
export function findNul(value: unknown, pointer = ''): string | undefined {
  if (!hasNul(value)) return undefined;
  if (typeof value === 'string') return pointer;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasNul(value[i])) return findNul(value[i], `${pointer}/${i}`);
    return undefined;
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const here = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (key.includes('\u0000')) return here;
    if (hasNul(v)) return findNul(v, here);
  }
  return undefined;
}

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/**
 * PostgreSQL refusing text it cannot store: NUL (22021 in text, 22P05 as a \u0000 escape in jsonb).
 * The backstop for input read outside validation (multipart text parts), so that it is a 400, never a 500.
 */
export function isUnstorableText(err: unknown): boolean {
  const code = err && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  return code === '22021' || code === '22P05';
}

/** Wraps a compiled validator so that NUL anywhere fails validation first, as an Ajv-style error. */
export function refusingNul(validate: ValidateFunction): ValidateFunction {
  const wrapped = ((data: unknown, ctx?: Parameters<ValidateFunction>[1]) => {
    const at = findNul(data);
    if (at !== undefined) {
      wrapped.errors = [{ keyword: 'nul', instancePath: at.replace(/\u0000/g, '\\u0000'), schemaPath: '#', params: {}, message: NUL_MESSAGE }];
      return false;
    }
    const ok = validate(data, ctx);
    wrapped.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
  // Fastify passes the parent object only to functions that look like Ajv's (so coercion of a root
  // value can write back); keep that.
  Object.assign(wrapped, { schema: validate.schema, schemaEnv: validate.schemaEnv });
  return wrapped;
}

export type { ErrorObject, ValidateFunction };
