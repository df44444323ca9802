// Worker entry. On Node 20 a worker thread cannot load .ts files through its parent's tsx hooks,
// whether the parent ran `node --import tsx` or tsx's register() API (as bin/formsign.js does),
// so the worker registers tsx itself before loading the TypeScript job runner.
import { register } from 'tsx/esm/api';

register();
await import('./worker-job.ts');
