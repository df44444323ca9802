import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { generateSpec } from '../../src/domain/generate/generate-form.js';
import { createChatModel } from '../../src/providers/llm/index.js';
import { createHarness, type Harness } from '../harness.js';

// The model path against a loopback server that speaks the OpenAI chat-completions wire format: a
// good answer is used (generator "model"); invalid JSON, JSON that breaks the schema, an HTTP error
// and no answer within the timeout all fall back to the built-in generator (generator "builtin").

type Mode = 'good' | 'invalid-json' | 'schema' | 'http-500' | 'silent';

const GOOD = {
  title: 'Volunteer sign-up',
  signers: [{ slot: 1, role: 'Volunteer' }],
  fields: [
    { name: 'Full Name', label: 'Full name', type: 'text', required: true, signer: 1, options: [], multiline: false },
    { name: 'email', label: 'Email', type: 'email', required: true, signer: 1, options: [], multiline: false },
    { name: 'shift', label: 'Shift', type: 'radio', required: false, signer: 1, options: ['Morning', 'Evening'], multiline: false },
    { name: 'email', label: 'Backup email', type: 'email', required: false, signer: 1, options: [], multiline: false },
    { name: 'sig', label: 'Volunteer signature', type: 'signature', required: false, signer: 1, options: [], multiline: false },
  ],
};

function answer(content: string): string {
  return JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', model: 'test-model', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] });
}

describe('generate: the model path', () => {
  let server: http.Server;
  let baseUrl = '';
  let mode: Mode = 'good';
  const seen: Array<{ url: string | undefined; auth: string | undefined; body: Record<string, unknown> }> = [];

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
        if (mode === 'silent') return; // never answers: the client's timeout must end it
        if (mode === 'http-500') { res.writeHead(500).end('{"error":{"message":"overloaded"}}'); return; }
        const content = mode === 'good' ? JSON.stringify(GOOD) : mode === 'invalid-json' ? '{"title": "x", "fields": [' : JSON.stringify({ title: 'x', fields: [{ label: 'A', type: 'hologram' }] });
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer(content));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const PROMPT = 'Volunteer sign-up: full name, email, shift (morning or evening), volunteer signature';

  it('uses a good answer, repaired (names snake_case and unique, signatures required), and sends the wire format', async () => {
    mode = 'good';
    const model = createChatModel({ baseUrl, apiKey: 'sk-test', model: 'test-model' });
    const { spec, generator } = await generateSpec({ model }, PROMPT, undefined);
    assert.equal(generator, 'model');
    assert.equal(spec.title, 'Volunteer sign-up');
    assert.deepEqual(spec.fields.map((f) => f.name), ['full_name', 'email', 'shift', 'email_2', 'sig']);
    assert.deepEqual(spec.fields[2]!.options, ['Morning', 'Evening']);
    assert.equal(spec.fields[4]!.required, true);
    const req = seen[seen.length - 1]!;
    assert.equal(req.url, '/v1/chat/completions');
    assert.equal(req.auth, 'Bearer sk-test');
    assert.equal(req.body['model'], 'test-model');
    const format = req.body['response_format'] as { type: string; json_schema: { name: string; strict: boolean; schema: { required: string[] } } };
    assert.equal(format.type, 'json_schema');
    assert.equal(format.json_schema.strict, true);
    assert.deepEqual(format.json_schema.schema.required, ['title', 'fields', 'signers']);
    const messages = req.body['messages'] as Array<{ role: string; content: string }>;
    assert.deepEqual(messages.map((m) => m.role), ['system', 'user']);
    assert.equal(messages[1]!.content, PROMPT);
  });

  for (const m of ['invalid-json', 'schema', 'http-500'] as const) {
    it(`falls back to the built-in generator on ${m}`, async () => {
      mode = m;
      const failures: unknown[] = [];
      const model = createChatModel({ baseUrl, model: 'test-model' });
      const { spec, generator } = await generateSpec({ model, onModelFailure: (e) => failures.push(e) }, PROMPT, undefined);
      assert.equal(generator, 'builtin');
      assert.equal(failures.length, 1);
      assert.deepEqual(spec.fields.map((f) => f.type), ['text', 'email', 'radio', 'signature']);
    });
  }

  it('falls back when the model does not answer within the timeout', async () => {
    mode = 'silent';
    const failures: unknown[] = [];
    const model = createChatModel({ baseUrl, model: 'test-model', timeoutMs: 200 });
    const { generator } = await generateSpec({ model, onModelFailure: (e) => failures.push(e) }, PROMPT, undefined);
    assert.equal(generator, 'builtin');
    assert.match(String((failures[0] as Error).message), /did not answer within 200 ms/);
  });

  describe('through the API', () => {
    let h: Harness;
    before(async () => { h = await createHarness('sqlite', { env: { LLM_BASE_URL: baseUrl, LLM_API_KEY: 'sk-test', LLM_MODEL: 'test-model' } }); });
    after(async () => { await h.close(); });

    it('says generator "model" for a good answer and "builtin" after a bad one', async () => {
      mode = 'good';
      const good = await h.request({ method: 'POST', url: '/api/v1/forms/generate', as: h.actors.aTest, json: { prompt: PROMPT } });
      assert.equal(good.status, 201, good.body);
      const form = good.json<{ generator: string; name: string; fields: Array<{ name: string }> }>();
      assert.equal(form.generator, 'model');
      assert.equal(form.name, 'Volunteer sign-up');
      assert.deepEqual(form.fields.map((f) => f.name), ['full_name', 'email', 'shift', 'email_2', 'sig']);
      mode = 'schema';
      const bad = await h.request({ method: 'POST', url: '/api/v1/forms/generate', as: h.actors.aTest, json: { prompt: PROMPT } });
      assert.equal(bad.status, 201, bad.body);
      assert.equal(bad.json<{ generator: string }>().generator, 'builtin');
    });
  });
});
