import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { createDeps } from '../deps.js';
import { bootstrapDemo } from '../domain/accounts/bootstrap-demo.js';

export async function serve(config: Config): Promise<void> {
  const deps = await createDeps(config);
  const demo = await bootstrapDemo(deps.domain);
  const app = await buildApp(deps.http, { logger: { level: config.logLevel } });
  await app.listen({ port: config.port, host: config.host });
  const base = config.baseUrl;
  // PORT=0 asks the OS for a free port; report the one actually bound.
  const address = app.server.address();
  const port = address !== null && typeof address === 'object' ? address.port : config.port;
  const lines = [`Formsign is listening on http://${config.host}:${port} (public address ${base})`];
  if (demo) {
    lines.push(
      '',
      'First start: created a demo account with a test API key and a sample template.',
      `  account:  ${demo.account.id}`,
      `  API key:  ${demo.key}   (shown this once; only its hash is stored)`,
      `  template: ${demo.template.id} (${demo.template.name})`,
      '',
      'Try it:',
      `  curl -s ${base}/api/v1/templates -H "Authorization: Bearer ${demo.key}"`,
      `  curl -s ${base}/api/v1/forms -H "Authorization: Bearer ${demo.key}" -H "Content-Type: application/json" \\`,
      `       -d '{"template_id":"${demo.template.id}","prefill":{"full_name":"Ada Lovelace"}}'`,
    );
  }
  lines.push('', `Health: ${base}/healthz   OpenAPI: ${base}/api/v1/openapi.yaml (needs the key)`);
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = async () => {
    await app.close();
    await deps.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
