// Types of page-scripts.js (plain JavaScript so scripts/build.mjs can import it without tsx).
export function isPageScript(file: string): boolean;
export function compilePageScript(esbuild: { transformSync(source: string, options: object): { code: string } }, source: string, file: string): string;
export function readPageScript(jsUrl: URL): Buffer;
