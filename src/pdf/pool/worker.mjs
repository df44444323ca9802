// Worker entry when src/ runs through tsx (tests, `npm run dev`). On Node 20 a worker thread cannot
// load .ts files through its parent's tsx hooks, whether the parent ran `node --import tsx` or tsx's
// register() API, so the worker registers tsx itself before loading the TypeScript job runner. The
// compiled build (dist/) starts worker-job.js directly and leaves this file out (scripts/build.mjs).
import { register } from 'tsx/esm/api';

register();
await import('./worker-job.ts');
