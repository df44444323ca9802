import { runCommand, USAGE } from './cli/commands.js';
import { UsageError } from './cli/output.js';
import { serve } from './cli/serve.js';
import { ConfigError, loadConfig } from './config.js';
import { AppError } from './domain/errors.js';

// Entry point of `formsign` (and `npm start` / `npm run formsign`): parses config once, then dispatches.

async function main(argv: string[]): Promise<void> {
  const config = loadConfig();
  const command = argv[0] ?? 'serve';
  if (command === 'serve') return serve(config);
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  await runCommand(config, argv);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof UsageError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  if (err instanceof AppError) {
    const json = process.argv.includes('--json');
    process.stderr.write(json ? `${JSON.stringify({ error: { type: err.type, code: err.code, message: err.message, param: err.param } })}\n` : `Error: ${err.message}\n`);
    process.exit(1);
  }
  if (err instanceof Error && err.name === 'TypeError' && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
