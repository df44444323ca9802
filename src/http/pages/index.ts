import type { FastifyInstance } from 'fastify';
import type { DomainDeps } from '../../domain/context.js';
import type { OpenApiDocument } from '../openapi.js';
import { registerBrandAssets } from './brand-assets.js';
import { registerDocs } from './docs.js';
import { registerEmbedScript } from './embed-script.js';
import { registerHome } from './home.js';
import { LAYOUT_ASSETS } from './layout.js';
import { registerSign } from './sign/index.js';
import { registerAssets } from './static-asset.js';
import { registerVerifyPage } from './verify/index.js';

export { answersWithHtml } from './negotiate.js';
export { sendErrorPage } from './error-page.js';
export { withRedactedRequests } from './sign/redact-url.js';
export { guardSigningRoutes } from './sign/signer-gate.js';

/**
 * The routes beside the contract-driven API: pages for people (`/`, `/docs`, `/sign`, `/verify`) and their
 * assets (the dashboard, `/dashboard`, is its own app: src/http/dashboard/). They share the API's
 * request id; their errors are HTML pages (error-handler.ts).
 */
export function registerPages(app: FastifyInstance, doc: OpenApiDocument, domain: DomainDeps): void {
  registerAssets(app, Object.values(LAYOUT_ASSETS));
  registerHome(app, doc);
  registerDocs(app, doc, domain.baseUrl);
  registerSign(app, domain);
  // Embedded signing (issue 26): the web component host pages load.
  registerEmbedScript(app);
  registerVerifyPage(app, domain);
  // Issue 42: an account's logo and accent, as its e-mails and pages show them.
  registerBrandAssets(app, domain);
}
