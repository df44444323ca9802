/** Prints for people, or as one JSON document with --json for scripts. */
export function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

/** A warning for the person at the terminal; on stderr, so --json output stays one document. */
export function warn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

/** The command line was wrong: printed with the usage, exit 2. */
export class UsageError extends Error {}

/**
 * Something outside the program is not as it must be (a port in use, a database missing, a file not
 * found): one line saying what and what to do, no stack trace, exit 1.
 */
export class OperatorError extends Error {}

/** How a person runs these commands from a clone (also the package's `formsign` bin). */
export const CLI = 'npm run --silent formsign --';
