import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type YAML from 'yaml';
import { loadOnFirstUse } from '../lib/load-on-first-use.js';

// openapi/openapi.yaml is the authoritative contract: routes, validation and the served document all
// derive from it. Operations marked `x-status: planned` exist in the file but are not served until built.

export const OPENAPI_PATH = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));
/** openapi-typescript output for the served document: the TypeScript SDK and our own types. */
export const GENERATED_TYPES_PATH = fileURLToPath(new URL('../generated/api.d.ts', import.meta.url));
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: Array<OpenApiParameter | { $ref: string }>;
  requestBody?: { required?: boolean; content: Record<string, { schema?: Record<string, unknown> }> };
  responses: Record<string, unknown>;
  security?: unknown[];
  'x-status'?: string;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface OperationEntry {
  method: string;
  /** OpenAPI path template, e.g. `/api/v1/templates/{template_id}`. */
  path: string;
  /** The same in Fastify's syntax, e.g. `/api/v1/templates/:template_id`. */
  route: string;
  operation: OpenApiOperation;
  planned: boolean;
}

// The compiled build (scripts/build.mjs) keeps the contract as JSON beside this module, rewritten
// whenever openapi.yaml changes: parsing the YAML costs 0.1–0.3 s at every start, JSON a millisecond.
// Run from src/ (tests, `npm run dev`) there is no copy and the YAML is read.
const JSON_COPY = fileURLToPath(new URL('./openapi.json', import.meta.url));
const yaml = loadOnFirstUse<typeof YAML>('yaml');

// A process that builds the app more than once (the tests build one per case, ~150 files' worth)
// parses each version of the file once: the key is its path, size and modification time.
const parsed = new Map<string, { key: string; doc: OpenApiDocument }>();

export function loadOpenApiDocument(file = OPENAPI_PATH): OpenApiDocument {
  if (file === OPENAPI_PATH && fs.existsSync(JSON_COPY)) return JSON.parse(fs.readFileSync(JSON_COPY, 'utf8')) as OpenApiDocument;
  const stat = fs.statSync(file);
  const key = `${stat.size}:${stat.mtimeMs}`;
  let entry = parsed.get(file);
  if (entry?.key !== key) {
    entry = { key, doc: yaml().parse(fs.readFileSync(file, 'utf8')) as OpenApiDocument };
    parsed.set(file, entry);
  }
  // A copy, as a fresh parse was: a caller may change what it got.
  return structuredClone(entry.doc);
}

export function listOperations(doc: OpenApiDocument): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (!operation) continue;
      out.push({ method: method.toUpperCase(), path, route: path.replace(/\{([^}]+)\}/g, ':$1'), operation, planned: operation['x-status'] === 'planned' });
    }
  }
  return out;
}

/**
 * The document as served: planned operations removed, so it never describes a route that answers 404;
 * given the server's BASE_URL, that is its one server (the file names a default local one).
 */
export function servedDocument(doc: OpenApiDocument, baseUrl?: string): OpenApiDocument {
  const copy = structuredClone(doc);
  if (baseUrl !== undefined) copy['servers'] = [{ url: baseUrl, description: 'This server (its BASE_URL).' }];
  for (const [path, item] of Object.entries(copy.paths)) {
    for (const method of HTTP_METHODS) {
      if ((item[method] as OpenApiOperation | undefined)?.['x-status'] === 'planned') delete item[method];
    }
    if (!HTTP_METHODS.some((m) => item[m])) delete copy.paths[path];
  }
  const hooks = copy['webhooks'] as Record<string, Record<string, unknown>> | undefined;
  if (hooks) {
    for (const [name, item] of Object.entries(hooks)) {
      if (HTTP_METHODS.some((m) => (item[m] as OpenApiOperation | undefined)?.['x-status'] === 'planned')) delete hooks[name];
    }
    if (Object.keys(hooks).length === 0) delete copy['webhooks'];
  }
  return copy;
}

export function resolveRef<T>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    const parts = value.$ref.replace(/^#\//, '').split('/');
    let node: unknown = doc;
    for (const p of parts) node = (node as Record<string, unknown>)[p];
    return node as T;
  }
  return value as T;
}
