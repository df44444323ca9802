/** Prints for people, or as one JSON document with --json for scripts. */
export function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

export class UsageError extends Error {}
