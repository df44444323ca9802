import type { FastifyReply } from 'fastify';
import type { AppError } from '../../domain/errors.js';
import { html } from './html.js';
import { layout } from './layout.js';
import { sendPage } from './send-page.js';

const TITLES: Record<number, string> = {
  400: 'This request could not be understood',
  404: 'Page not found',
  405: 'Not allowed here',
  413: 'Too large',
  415: 'Unsupported content',
  429: 'Too many requests',
  500: 'Something went wrong',
  503: 'Temporarily unavailable',
};

/** An error as a browser should see it: the same status, message and request id as the JSON error. */
export function sendErrorPage(reply: FastifyReply, err: AppError): FastifyReply {
  const title = TITLES[err.status] ?? (err.status >= 500 ? 'Something went wrong' : 'This request could not be completed');
  const main = html`<section class="error-page">
<p class="status">${err.status}</p>
<h1>${title}</h1>
<p class="lead">${err.message}</p>
<div class="actions"><a class="button" href="/">Formsign home</a><a class="button secondary" href="/docs">API reference</a></div>
<p class="request-id">Request id: <code>${reply.request.id}</code> — quote it when reporting a problem.</p>
</section>`;
  return sendPage(reply, layout({ title: `${title} · Formsign`, main }), { status: err.status });
}
