#!/usr/bin/env node
// The package's `formsign` bin: runs the TypeScript entry through tsx's loader (no build step).
import { register } from 'tsx/esm/api';
register();
await import('../src/main.ts');
