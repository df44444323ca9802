import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GENERATED_LISTS_URL, generateLists } from '../../scripts/generate-lists.js';
import { EVENT_TYPES } from '../../src/generated/lists.js';
import { loadOpenApiDocument } from '../../src/http/openapi.js';
import { MESSAGE_KINDS } from '../../src/lib/message-kinds.js';
import { SIGNING_PAGE_STATES } from '../../src/lib/signing-page-states.js';

// Each list is defined once (openapi.yaml's EventType, lib/message-kinds.ts, lib/signing-page-states.ts)
// and everything else derives from it; these fail when a copy drifts or a new hand-written copy appears.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const doc = loadOpenApiDocument() as unknown as {
  components: { schemas: Record<string, unknown>; parameters: Record<string, unknown> };
  webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { allOf: [unknown, { properties: { type: { const: string } } }] } } } } } }>;
};

/** Every `enum` in the document, with where it is. */
function enums(node: unknown, at: string, out: { at: string; values: unknown[] }[] = []): { at: string; values: unknown[] }[] {
  if (Array.isArray(node)) node.forEach((n, i) => enums(n, `${at}/${i}`, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'enum' && Array.isArray(v)) out.push({ at, values: v });
      else enums(v, `${at}/${k}`, out);
    }
  }
  return out;
}

describe('one source for each list', () => {
  it('event types: openapi.yaml lists them once (EventType); everything else refers to it', () => {
    const withEvents = enums(doc, '#').filter((e) => e.values.includes('form.created'));
    assert.deepEqual(withEvents.map((e) => e.at), ['#/components/schemas/EventType']);
    // issue 34 item 9: no $ref into a property of another schema (openapi-typescript-codegen cannot follow one).
    assert.doesNotMatch(read('openapi/openapi.yaml'), /\$ref: '#\/components\/schemas\/[A-Za-z]+\/properties\//);
  });

  it('event types: src/generated/lists.ts is what `npm run generate` makes of openapi.yaml', () => {
    assert.equal(fs.readFileSync(GENERATED_LISTS_URL, 'utf8'), generateLists(loadOpenApiDocument()));
    assert.deepEqual([...EVENT_TYPES], (doc.components.schemas.EventType as { enum: string[] }).enum);
  });

  it('event types: each has its webhooks entry saying when it is sent, and no entry names another', () => {
    const delivered = Object.entries(doc.webhooks)
      .filter(([name]) => name !== 'webhook.test')
      .map(([name, w]) => [name, w.post.requestBody.content['application/json'].schema.allOf[1].properties.type.const]);
    for (const [name, type] of delivered) assert.equal(name, type, `webhooks.${name} delivers ${type}`);
    assert.deepEqual(delivered.map(([n]) => n).sort(), [...EVENT_TYPES].sort());
  });

  it('event types: the dashboard offers every one, from the generated list, and holds no copy', () => {
    const page = read('web/src/pages/WebhooksPage.tsx');
    assert.match(page, /import \{ EVENT_TYPES \} from '\.\.\/\.\.\/\.\.\/src\/generated\/lists'/);
    for (const dir of ['web/src', 'src/http', 'src/domain']) {
      for (const f of fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|tsx|js)$/.test(f))) {
        const text = read(path.join(dir, f));
        // A hand-written list: three or more event type literals in one array.
        assert.doesNotMatch(text, /\[\s*'form\.[a-z]+',\s*'form\.[a-z]+',\s*'form\.[a-z]+'/, `${dir}/${f} lists event types by hand: use EVENT_TYPES`);
      }
    }
  });

  it('message kinds: the dev outbox page describes every kind', () => {
    const page = read('web/src/pages/OutboxPage.tsx');
    const described = [...page.slice(page.indexOf('const KIND')).slice(0, 2000).matchAll(/^\s+([a-z_]+): '/gm)].map((m) => m[1]);
    assert.deepEqual(described.sort(), [...MESSAGE_KINDS].sort());
    assert.match(read('web/src/api.ts'), /kind: MessageKind;/);
  });

  it("signing page states: the embed client's copy and the page's bridge agree with lib/signing-page-states.ts", () => {
    const client = read('clients/embed/src/formsign-signing.ts');
    const union = /export type FormsignPageState = ([^;]+);/.exec(client)?.[1] ?? '';
    assert.deepEqual([...union.matchAll(/'([a-z]+)'/g)].map((m) => m[1]), [...SIGNING_PAGE_STATES]);
    assert.match(client, new RegExp(`detail\\.state: ${SIGNING_PAGE_STATES.join(' \\| ')}\\)`));
    // Every state that ends or delays signing has its message in the bridge (open and signed have theirs elsewhere).
    const bridge = read('src/http/pages/sign/assets/embed-bridge.ts');
    for (const s of SIGNING_PAGE_STATES.filter((s) => s !== 'open' && s !== 'signed')) assert.match(bridge, new RegExp(`state === '${s}'`), s);
  });
});
