import type { FastifyInstance, FastifyReply } from 'fastify';
import { html } from './html.js';
import { layout } from './layout.js';
import { sendPage } from './send-page.js';

// Until the dashboard lands, its address says so and points to what works today.

const comingSoon = layout({
  title: 'Dashboard · Formsign',
  current: '/dashboard',
  main: html`<h1>The dashboard is coming</h1>
<p class="lead">A browser view of your templates, forms and the dev outbox is being built. Everything it will show is already available through the API and the operator commands.</p>
<h2>Meanwhile</h2>
<pre><code>npm run --silent formsign -- accounts list
npm run --silent formsign -- keys create --account acct_… --mode test
npm run --silent formsign -- templates import test/fixtures/pdfs/osha_form_301_injury_report.pdf --account acct_… --mode test</code></pre>
<div class="actions"><a class="button" href="/docs">API reference</a><a class="button secondary" href="/">Formsign home</a></div>`,
});

export function registerDashboard(app: FastifyInstance): void {
  const send = (_req: unknown, reply: FastifyReply) => sendPage(reply, comingSoon);
  app.get('/dashboard', send);
  app.get('/dashboard/*', send);
}
