import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from './openapi.js';
import { NUL_MESSAGE } from './unstorable-text.js';

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

/**
 * The JSON pointer of the first string (value or object key) holding U+0000, or undefined. NUL is
 * refused everywhere: PostgreSQL cannot store it in text, and no form field or id needs it, so both
 * databases answer the same. Iterative with an explicit stack, depth-first in document order: a body
 * of 100,000 nested arrays (200 KB, under the 1 MiB limit) overflowed the call stack of a recursive walk
 * and answered 500. Kept lean: it runs on every body and query.
 */
export function findNul(value: unknown): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? '' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  // Pointers are built only for the path that holds a NUL: each frame keeps its parent and its step.
  interface Frame { value: unknown; step: string; parent: Frame | undefined }
  const pointerOf = (f: Frame | undefined): string => {
    const steps: string[] = [];
    for (let at = f; at?.parent; at = at.parent) steps.push(at.step);
    return steps.reverse().map((s) => `/${s}`).join('');
  };
  const stack: Frame[] = [{ value, step: '', parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return pointerOf(frame);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], step: String(i), parent: frame });
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const step = key.replace(/~/g, '~0').replace(/\//g, '~1');
      stack.push({ value: (v as Record<string, unknown>)[key], step, parent: frame });
      // The key itself, at the same pointer, looked at before its value.
      stack.push({ value: key, step, parent: frame });
    }
  }
  return undefined;
}

export { isUnstorableText, NUL_MESSAGE } from './unstorable-text.js';

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
