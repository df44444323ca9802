// The floor: bare Fastify answering the same payloads with no auth, no database, no contract checks.
import Fastify from 'fastify';

const payload = JSON.parse(process.env.BENCH_LIST_PAYLOAD ?? '{}') as unknown;
const form = JSON.parse(process.env.BENCH_FORM_PAYLOAD ?? '{}') as unknown;
const app = Fastify({ logger: false });
app.get('/floor', async () => payload);
app.post(
  '/floor',
  { schema: { body: { type: 'object', required: ['template_id'], additionalProperties: false, properties: { template_id: { type: 'string' }, prefill: { type: 'object' } } } } },
  async (_req, reply) => reply.code(201).send(form),
);
// The send floor: one recipient per call, checked by a schema as strict as the route's, answered
// with a real send response (a form and its recipients).
const sent = JSON.parse(process.env.BENCH_SEND_PAYLOAD ?? '{}') as unknown;
const recipient = { type: 'object', required: ['channel'], additionalProperties: false, properties: { channel: { enum: ['email', 'sms'] }, email: { type: 'string', maxLength: 254 }, phone: { type: 'string' }, name: { type: 'string' }, signer: { type: 'integer' } } };
app.post(
  '/floor/send',
  { schema: { body: { type: 'object', required: ['recipients'], additionalProperties: false, properties: { recipients: { type: 'array', minItems: 1, maxItems: 20, items: recipient } } } } },
  async () => sent,
);
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port })}\n`);
