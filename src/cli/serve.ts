import type { Config } from '../config.js';
import type { bootstrapDemo } from '../domain/accounts/bootstrap-demo.js';
import type { Deps } from '../deps.js';
import { listenStartGate, type StartGate } from './start-gate.js';
import { startUpWait } from './start-up.js';
import { CLI, OperatorError } from './output.js';

/**
 * What serving needs beyond the start gate: the HTTP app (Fastify, ajv, every route and page), the
 * store, the logger. Loaded once the gate listens (issue 36 item 3): the loader reads these files
 * asynchronously, so /healthz answers while they load, instead of after ~150 modules' evaluation.
 */
const serving = () =>
  Promise.all([import('pino'), import('../app.js'), import('../domain/accounts/bootstrap-demo.js'), import('./account-list.js'), import('./open-deps.js'), import('./pretty-log.js')]).then(
    ([{ pino }, { buildApp }, { bootstrapDemo }, { listAccounts }, { openDeps }, { prettyLogStream }]) => ({ pino, buildApp, bootstrapDemo, listAccounts, openDeps, prettyLogStream }),
  );

/** `formsign serve` (`npm start`): the HTTP server, and the job worker inside it unless WORKER=off. */
export async function serve(config: Config): Promise<void> {
  // Listening first: /healthz answers while start-up waits for the database (start-gate.ts), and a
  // port in use is reported before anything else happens (and before the demo key, shown only once).
  const startUp = startUpWait(config);
  let gate: StartGate;
  try {
    gate = await listenStartGate({ port: config.port, host: config.host }, () => startUp.waitingFor);
  } catch (error) {
    throw listenProblem(error, config) ?? error;
  }
  // A SIGTERM while start-up still waits ends the process at once: nothing has started that needs a grace.
  let stop = async () => {
    await gate.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  let deps: Deps;
  let parts: Awaited<ReturnType<typeof serving>>;
  try {
    parts = await serving();
    deps = await parts.openDeps(config, { startUp });
  } catch (error) {
    await gate.close();
    throw error;
  }
  const { pino, buildApp, bootstrapDemo, listAccounts, prettyLogStream } = parts;
  const pretty = config.logFormat === 'pretty';
  // JSON lines go through pino's asynchronous destination: a request never waits for stdout, and what
  // is buffered is written out before the process exits (below, and on any exit).
  const destination = pretty ? undefined : pino.destination({ dest: 1, sync: false });
  const flushLog = () => {
    try {
      destination?.flushSync();
    } catch {
      // Nothing buffered, or stdout is gone: nothing more can be written.
    }
  };
  process.once('exit', flushLog);
  const app = await buildApp(deps.http, { logger: { level: config.logLevel, stream: pretty ? prettyLogStream(process.stdout) : destination }, serverFactory: (handler) => gate.serverFactory(handler) });
  await app.ready();
  stop = async () => {
    // Graceful and bounded (SHUTDOWN_GRACE_MS): the listener closes at once (a load balancer's next
    // connection goes elsewhere, a request on a kept-alive one answers 503), in-flight requests and
    // running jobs get the grace to finish, then the connections still open are cut and the jobs still
    // running are handed back (their leases released, so another worker takes them at once).
    const cut = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs);
    try {
      // The server is the start gate's (serverFactory), which Fastify does not close itself.
      const closed = new Promise<void>((resolve) => app.server.close(() => resolve()));
      await Promise.all([app.close(), deps.worker.stop(), closed]);
    } finally {
      clearTimeout(cut);
    }
    await deps.close();
    flushLog();
    process.exit(0);
  };
  const demo = await startUp.run(() => bootstrapDemo(deps.domain));
  // WORKER=off leaves the jobs to `formsign worker` processes; deps.close() stops an inline worker.
  if (config.worker === 'inline') await startUp.run(() => deps.worker.start());
  const accounts = demo ? [] : await startUp.run(() => listAccounts(deps.database.db, { limit: 2 }));
  // Start-up is done: requests reach the app, /readyz asks the parts themselves from now on.
  gate.open();
  // PORT=0 asks the OS for a free port; report the one actually bound.
  const address = app.server.address();
  const port = address !== null && typeof address === 'object' ? address.port : config.port;
  const lines = [`Formsign is listening on http://${config.host}:${port} (public address ${config.baseUrl})`, ''];
  if (demo) lines.push(...firstStart(config.baseUrl, demo), '');
  else lines.push(...laterStart(accounts));
  lines.push(`API reference: ${config.baseUrl}/docs   Health: ${config.baseUrl}/healthz`);
  // With JSON logs stdout carries only log lines (a collector parses them), so the banner goes to stderr.
  (pretty ? process.stdout : process.stderr).write(`${lines.join('\n')}\n`);
}

function firstStart(base: string, demo: NonNullable<Awaited<ReturnType<typeof bootstrapDemo>>>): string[] {
  return [
    'First start: created a demo account with a test API key and a sample template.',
    `  account:  ${demo.account.id}`,
    `  API key:  ${demo.key}   (shown this once; only its hash is stored)`,
    `  template: ${demo.template.id} (${demo.template.name})`,
    '',
    `Dashboard: ${base}/dashboard — sign in as demo@example.com with this one-time link (valid 24 hours):`,
    `  ${demo.loginLink}`,
    '',
    'Try it:',
    `  curl -s ${base}/api/v1/templates -H "Authorization: Bearer ${demo.key}"`,
    `  curl -s ${base}/api/v1/forms -H "Authorization: Bearer ${demo.key}" -H "Content-Type: application/json" \\`,
    `       -d '{"template_id":"${demo.template.id}","prefill":{"full_name":"Ada Lovelace"}}'`,
    '',
    "The README's examples read the key and the address from two variables:",
    `  export FORMSIGN_KEY=${demo.key} BASE=${base}`,
  ];
}

/** Later starts never show a key (only its hash is stored): they say which account and how to make one. */
function laterStart(accounts: Array<{ id: string; name: string; plan: string }>): string[] {
  const first = accounts[0];
  if (!first) return [`No accounts yet: ${CLI} accounts create --name "Acme"`, ''];
  return [
    `Account ${first.id} (${first.name}, ${first.plan} plan). Keys are shown only when made; make one with:`,
    `  ${CLI} keys create --account ${first.id} --mode test`,
    `Dashboard sign-in link for a user: ${CLI} users login-link --email E`,
    ...(accounts.length > 1 ? [`Other accounts: ${CLI} accounts list`] : []),
    '',
  ];
}

function listenProblem(error: unknown, config: Config): OperatorError | undefined {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    const other = config.port < 65535 ? config.port + 1 : 3000;
    return new OperatorError(`Port ${config.port} is in use; set PORT=${other} (or another free port), e.g. PORT=${other} npm start`);
  }
  if (code === 'EACCES') return new OperatorError(`Port ${config.port} needs privileges this user does not have; set PORT to a number above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new OperatorError(`HOST=${config.host} is not an address of this machine; set HOST=127.0.0.1 (this machine only) or HOST=0.0.0.0 (every interface)`);
  }
  return undefined;
}
