import type { FastifyInstance } from 'fastify';
import { listOperations, servedDocument, type OpenApiDocument } from '../openapi.js';
import { html, type SafeHtml } from './html.js';
import { layout } from './layout.js';
import { sendPage } from './send-page.js';

// The page at `/`: what this server is and where to go next. Its list of operations is read from the
// served document, so it names exactly what this server answers, no more, as features land.

function operationsTable(doc: OpenApiDocument): SafeHtml {
  const rows = listOperations(servedDocument(doc))
    .filter((o) => o.path.startsWith('/api/'))
    .map((o) => {
      const summary = (o.operation as { summary?: string }).summary ?? o.operation.operationId;
      // A break opportunity after each slash, used only where the path must wrap (a phone).
      const path = o.path.split('/').map((part, i) => (i === 0 ? html`${part}` : html`/<wbr>${part}`));
      return html`<tr><td class="path"><span class="method ${o.method.toLowerCase()}">${o.method}</span>${path}</td><td class="summary">${summary}</td></tr>`;
    });
  return html`<table class="ops"><thead><tr><th scope="col">Endpoint</th><th scope="col" class="summary">What it does</th></tr></thead><tbody>${rows}</tbody></table>`;
}

// What a person can do, each named by the operation that does it: the sentence says what is built
// and what is coming, as the document does.
const CAPABILITIES: ReadonlyArray<readonly [string, string]> = [
  ['createTemplate', 'upload a PDF form as a template'],
  ['createForm', 'fill it from your data over a JSON API'],
  ['generateForm', 'generate a form from a description'],
  ['sendForm', 'send it to be signed by e-mail or SMS'],
  ['getSignedPdf', 'get back a sealed, signed PDF'],
  ['createWebhook', 'follow every step through signed webhooks'],
];

function sentence(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function capabilities(doc: OpenApiDocument): SafeHtml {
  const served = new Set(listOperations(doc).filter((o) => !o.planned).map((o) => o.operation.operationId));
  const now = CAPABILITIES.filter(([id]) => served.has(id)).map(([, text]) => text);
  const soon = CAPABILITIES.filter(([id]) => !served.has(id)).map(([, text]) => text);
  const first = sentence(now);
  return html`<p class="lead">Open-source PDF forms: ${first}.${soon.length > 0 ? html` Coming soon: ${sentence(soon)}.` : ''}</p>`;
}

function homePage(doc: OpenApiDocument, origin: string): SafeHtml {
  const version = String((doc['info'] as { version?: string } | undefined)?.version ?? '');
  const main = html`<h1>Formsign</h1>
${capabilities(doc)}
<p><span class="badge ok">Running</span> <span class="muted">API version ${version}</span></p>
<div class="actions"><a class="button" href="/dashboard">Open the dashboard</a><a class="button secondary" href="/docs">Read the API reference</a></div>

<h2>First request</h2>
<ol class="steps">
<li>Get a test API key. The first <code>npm start</code> on an empty data directory prints one; later, make one with
<pre><code>npm run --silent formsign -- accounts list
npm run --silent formsign -- keys create --account acct_… --mode test</code></pre></li>
<li>List your templates with it:
<pre><code>curl -s ${origin}/api/v1/templates -H "Authorization: Bearer fk_test_…"</code></pre></li>
<li>Read <a href="/docs">the API reference</a> for the rest: every endpoint, its parameters, errors and examples.</li>
</ol>

<h2>Where to go</h2>
<div class="grid">
<a class="card link-card" href="/docs"><strong>API reference</strong><span>Endpoints, parameters, errors and webhooks, rendered from the OpenAPI document.</span></a>
<a class="card link-card" href="/dashboard"><strong>Dashboard</strong><span>Sign in or sign up: build templates from your PDFs and make API keys.</span></a>
<a class="card link-card" href="/healthz"><strong>Health</strong><span><code>/healthz</code> answers while the process is up; <code>/readyz</code> checks the database.</span></a>
<a class="card link-card" href="/docs/openapi.json"><strong>OpenAPI document</strong><span>The contract as JSON. With a key: <code>/api/v1/openapi.yaml</code> and a TypeScript SDK.</span></a>
</div>

<h2>What this server answers today</h2>
${operationsTable(doc)}`;
  return layout({ title: 'Formsign', main });
}

export function registerHome(app: FastifyInstance, doc: OpenApiDocument): void {
  app.get('/', (req, reply) => sendPage(reply, homePage(doc, `${req.protocol}://${req.host}`)));
}
