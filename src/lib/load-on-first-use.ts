import { createRequire } from 'node:module';

// Packages that cost tens to hundreds of milliseconds to load (the S3 client, nodemailer, ioredis,
// node-forge, compromise) and that many runs never use: the CLI, or a server without S3, SMTP or
// Redis configured. A static import would load them at every start; this loads one the first time
// the code that needs it runs. Synchronous (require of their CommonJS build), so constructors stay
// synchronous; the type comes from an `import type` of the same package at the call site.
const requireFromRoot = createRequire(import.meta.url);

export function loadOnFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireFromRoot(name) as T);
}
