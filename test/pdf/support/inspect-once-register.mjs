// Starts TypeScript the way bin/formsign.js does: tsx's register() API, no --import flag.
import { register } from 'tsx/esm/api';

register();
await import('./inspect-once.ts');
