// The floors: bare Fastify answering what Formsign answers with no auth, no database and no contract
// checks beyond the one named.
import fs from 'node:fs';
import Fastify from 'fastify';
import { listOperations, loadOpenApiDocument } from '../../src/http/openapi.js';
import { createValidators } from '../../src/http/validation.js';
import { schemasFor } from '../../src/http/plugins/validation.js';

/**
 * One canned answer (see `bench/http.bench.ts`): the status, headers and body bytes Formsign sent,
 * replayed from memory. `validate` names an operation of openapi/openapi.yaml whose request-body schema
 * the floor checks first, with the same Ajv 2020 set-up as the server.
 */
export interface FloorRoute {
  method: 'GET' | 'POST';
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  validate?: string;
}

const app = Fastify({ logger: false });

const specFile = process.env['BENCH_FLOOR_SPEC'];
if (specFile) {
  const routes = JSON.parse(fs.readFileSync(specFile, 'utf8')) as FloorRoute[];
  const doc = loadOpenApiDocument();
  const validators = createValidators(doc);
  app.setValidatorCompiler(({ schema }) => validators.body.compile(schema));
  for (const r of routes) {
    // A Buffer is written as it is: no serialisation, and the very bytes Formsign sent.
    const body = Buffer.from(r.body, 'utf8');
    const headers = { ...r.headers };
    let schema: { body: Record<string, unknown> } | undefined;
    if (r.validate) {
      const op = listOperations(doc).find((o) => o.operation.operationId === r.validate);
      const bodySchema = op && schemasFor(doc, op.operation).body;
      if (!bodySchema) throw new Error(`openapi.yaml has no request-body schema for ${r.validate}`);
      schema = { body: bodySchema };
    }
    app.route({ method: r.method, url: r.path, ...(schema ? { schema } : {}), handler: (_req, reply) => reply.code(r.status).headers(headers).send(body) });
  }
}

// The send floor: one recipient per call, checked by a schema as strict as the route's, answered
// with a real send response (a form and its recipients).
const sent = JSON.parse(process.env['BENCH_SEND_PAYLOAD'] ?? '{}') as unknown;
const recipient = { type: 'object', required: ['channel'], additionalProperties: false, properties: { channel: { enum: ['email', 'sms'] }, email: { type: 'string', maxLength: 254 }, phone: { type: 'string' }, name: { type: 'string' }, signer: { type: 'integer' } } };
app.post(
  '/floor/send',
  { schema: { body: { type: 'object', required: ['recipients'], additionalProperties: false, properties: { recipients: { type: 'array', minItems: 1, maxItems: 20, items: recipient } } } } },
  async () => sent,
);
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port })}\n`);
