// Types of scripts/compile-tests.mjs for the TypeScript that imports it (scripts/run-tests.ts).
export const TEST_BUILD: string;
/** Compiles test/, scripts/ and the TypeScript client's source into `.test-build/`; returns its path. */
export function compileTests(): Promise<string>;
/** The compiled path of a test file named relative to the repository (`test/x/a.test.ts`). */
export function compiledPath(file: string): string;
