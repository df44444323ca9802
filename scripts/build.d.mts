// Types of scripts/build.mjs for the TypeScript that imports it (test/build/compiled.test.ts).
export const DIST: string;
/** Compiles src/ to dist/ and returns how long it took, in milliseconds. */
export function build(): Promise<number>;
/** Whether a file in src/ (or openapi.yaml) changed since the last build. */
export function isStale(): boolean;
export function buildIfStale(): Promise<void>;
/** The line each chunk of dist/bundle starts with: a `require` for the bundled CommonJS package. */
export const REQUIRE_BANNER: string;
