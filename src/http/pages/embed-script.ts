import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { setSecurityHeaders } from './security-headers.js';

// GET /embed.js: the <formsign-signing> web component (clients/embed/src), built from its TypeScript
// into one plain script by esbuild on the first request (a few tens of milliseconds, once per process)
// — so the served file cannot drift from the source and a start builds nothing. Host pages on other
// origins load it, so it is served to any origin: CORS for `type="module"` loads, and a
// Cross-Origin-Resource-Policy of cross-origin, where every other asset here says same-origin.

// Two levels up from src/http/pages (and from dist/http/pages, which mirrors it) is the repository.
const SOURCE = fileURLToPath(new URL('../../../clients/embed/src/formsign-signing.ts', import.meta.url));

interface Built {
  body: string;
  etag: string;
}

let built: Promise<Built> | undefined;

async function build(): Promise<Built> {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({ entryPoints: [SOURCE], bundle: true, format: 'iife', target: 'es2020', minify: true, write: false, legalComments: 'none' });
  const body = `/* Formsign <formsign-signing> web component (Apache-2.0) */\n${out.outputFiles[0]!.text}`;
  return { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"` };
}

export function registerEmbedScript(app: FastifyInstance): void {
  app.get('/embed.js', async (req, reply) => {
    const p = (built ??= build());
    p.catch(() => {
      built = undefined;
    });
    const { body, etag } = await p;
    setSecurityHeaders(reply)
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .header('Access-Control-Allow-Origin', '*')
      // Not immutable: the address stays the same across versions, so an hour at most, then revalidated.
      .header('Cache-Control', 'public, max-age=3600')
      .header('ETag', etag);
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(body);
  });
}
