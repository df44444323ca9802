import assert from 'node:assert/strict';
import { listOperations, resolveRef, servedDocument, loadOpenApiDocument, type OpenApiDocument } from '../src/http/openapi.js';
import { absolutize, createValidators, type ValidateFunction } from '../src/http/validation.js';

// Every response an integration test sees is checked against the served document: the operation must
// document the status, the JSON body must match its schema, and the request id must be there.

const doc: OpenApiDocument = servedDocument(loadOpenApiDocument());
const ajv = createValidators(doc).body;
const ops = listOperations(doc).map((o) => ({ ...o, regex: new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
const cache = new Map<string, ValidateFunction>();
const errorSchema = ajv.compile(absolutize({ $ref: '#/components/schemas/Error' }));

export const REQUEST_ID = /^req_[0-9a-f]{32}$/;

interface ResponseLike {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

export function assertConformsToContract(method: string, url: string, res: ResponseLike): void {
  const where = `${method} ${url} → ${res.statusCode}`;
  assert.match(String(res.headers['service-request-id']), REQUEST_ID, `${where}: Service-Request-Id`);
  const path = url.split('?')[0] ?? '';
  const op = ops.find((o) => o.method === method && o.regex.test(path));
  const isJson = String(res.headers['content-type'] ?? '').startsWith('application/json');
  if (!op) {
    if (!path.startsWith('/api/') && String(res.headers['content-type'] ?? '').startsWith('text/html')) return assertPageHeaders(where, res);
    if (!path.startsWith('/api/') && res.statusCode < 400) return; // a page's asset or the public document
    // Unknown routes and methods answer with the contract's error body.
    assert.ok([404, 405].includes(res.statusCode), `${where}: no operation matches, so only 404/405 may answer`);
    assert.ok(isJson && errorSchema(JSON.parse(res.body)), `${where}: error body ${JSON.stringify(errorSchema.errors)}`);
    return;
  }
  const responses = op.operation.responses;
  const status = String(res.statusCode);
  const spec = responses[status] ?? responses[`${status[0]}XX`] ?? responses['default'];
  assert.ok(spec, `${where}: status ${status} is not documented for ${op.operation.operationId}`);
  const response = resolveRef<{ content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }>(doc, spec as { $ref: string });
  const contentTypes = Object.keys(response.content ?? {});
  if (contentTypes.length === 0) return;
  const actualType = String(res.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
  assert.ok(contentTypes.includes(actualType), `${where}: content-type ${actualType} not among ${contentTypes.join(', ')}`);
  if (actualType !== 'application/json') return;
  const key = `${op.operation.operationId} ${status}`;
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(absolutize(response.content!['application/json']!.schema ?? {}));
    cache.set(key, validate);
  }
  const body: unknown = JSON.parse(res.body);
  assert.ok(validate(body), `${where}: body does not match the contract: ${JSON.stringify(validate.errors)}\n${res.body.slice(0, 500)}`);
}

/** Pages beside the API (and their HTML error pages) carry the security headers. */
function assertPageHeaders(where: string, res: ResponseLike): void {
  const csp = String(res.headers['content-security-policy'] ?? '');
  assert.match(csp, /default-src 'none'/, `${where}: Content-Security-Policy`);
  assert.match(csp, /frame-ancestors 'none'/, `${where}: frame-ancestors`);
  assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/, `${where}: no inline script`);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', `${where}: nosniff`);
  assert.equal(res.headers['referrer-policy'], 'no-referrer', `${where}: Referrer-Policy`);
  assert.equal(res.headers['x-frame-options'], 'DENY', `${where}: X-Frame-Options`);
}
