import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { buildApp } from '../../src/app.js';
import { defineRoute } from '../../src/http/routes/route.js';
import type { HttpServices } from '../../src/http/services.js';
import { createHarness, type Harness } from '../harness.js';

// Routes get their partition as an argument, never from the request: a public route has none, and an
// authenticated one without its auth hook fails loudly rather than answering for nobody in particular.

describe('route definitions', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite');
  });
  after(() => h.close());

  it('an authenticated route whose request carries no partition throws instead of running', async () => {
    let ran = false;
    const def = defineRoute({ operationId: 'getForm', handler: () => async () => (ran = true) });
    const req = { method: 'GET', routeOptions: { url: '/x' } } as unknown as FastifyRequest;
    await assert.rejects(def.handler(h.deps.http)(req, {} as FastifyReply), /has no partition: its auth hook did not run/);
    assert.equal(ran, false);
  });

  it('a handler reads the parameters, query and body of its operation as openapi.yaml types them (checked by tsc)', () => {
    // Compiles only while the generated types say so: each @ts-expect-error below must stay an error.
    const def = defineRoute({
      operationId: 'sendForm',
      handler: () => async (req) => {
        const formId: string = req.params.form_id;
        const channels: string[] = req.body.recipients.map((r) => r.channel);
        // @ts-expect-error sendForm's path has no template_id
        void req.params.template_id;
        // @ts-expect-error sendForm has no query parameters
        void req.query.limit;
        // @ts-expect-error a recipient's channel is text, not a number
        const wrong: number = req.body.recipients[0]!.channel;
        return { formId, channels, wrong };
      },
    });
    assert.equal(def.operationId, 'sendForm');
    assert.equal(def.public, false);
  });

  it('the app refuses to start when a route and the contract disagree on needing a key', async () => {
    const doc = structuredClone(h.deps.http.openapi);
    const getForm = (doc.paths['/api/v1/forms/{form_id}'] as Record<string, { security?: unknown[] }>)['get']!;
    getForm.security = [];
    const s: HttpServices = { ...h.deps.http, openapi: doc };
    await assert.rejects(buildApp(s, { logger: false }), /route getForm is defined as authenticated but openapi.yaml says it needs no key/);
  });
});
