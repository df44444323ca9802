// Copies the API's generated types (src/generated/api.d.ts of the server, made from openapi.yaml by
// `npm run generate`) into this package, so it builds and ships on its own. A test fails when stale.
import fs from 'node:fs';

const from = new URL('../../../src/generated/api.d.ts', import.meta.url);
const to = new URL('../src/generated/api.ts', import.meta.url);
fs.writeFileSync(to, fs.readFileSync(from));
console.log(`wrote ${to.pathname}`);
