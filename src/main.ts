import { runCommand, USAGE } from './cli/commands.js';
import { OperatorError, UsageError } from './cli/output.js';
import { ConfigError, loadConfig } from './config.js';
import { AppError } from './domain/errors.js';

// Entry point of `formsign` (and `npm start`, which passes `serve`, and `npm run formsign`): parses
// config once, then dispatches. Every failure a person can act on ends as one line and an exit code:
// 2 for a wrong command line or configuration, 1 for the rest.

async function main(argv: string[]): Promise<void> {
  const command = argv[0];
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // No command prints the usage rather than starting a server nobody asked for.
  if (command === undefined) throw new UsageError(USAGE);
  const config = loadConfig();
  if (command === 'serve') return (await import('./cli/serve.js')).serve(config);
  // Offline: no store to open, so not through runCommand.
  if (command === 'verify') return (await import('./cli/verify-command.js')).verifyCommand(config, argv.slice(1));
  await runCommand(config, argv);
}

const json = process.argv.includes('--json');

function fail(exitCode: number, message: string, error?: { type: string; code: string; param: string | undefined }): never {
  process.stderr.write(json ? `${JSON.stringify({ error: { ...error, message } })}\n` : `${error ? 'Error: ' : ''}${message}\n`);
  process.exit(exitCode);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof UsageError) fail(2, err.message);
  if (err instanceof OperatorError) fail(1, err.message);
  if (err instanceof AppError) fail(1, err.message, { type: err.type, code: err.code, param: err.param });
  if (err instanceof Error && err.name === 'TypeError' && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) fail(2, `${err.message}\n${USAGE}`);
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
