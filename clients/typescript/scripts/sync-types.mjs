// Copies the API's generated types (src/generated/api.d.ts of the server, made from openapi.yaml by
// `npm run generate`) into this package, so it builds and ships on its own. A test fails when stale.
import fs from 'node:fs';

const from = new URL('../../../src/generated/api.d.ts', import.meta.url);
const to = new URL('../src/generated/api.ts', import.meta.url);
const types = fs.readFileSync(from);
// Unchanged types are not rewritten: the build runs at every install (prepare), and a test may be
// reading this file at that moment.
if (fs.existsSync(to) && fs.readFileSync(to).equals(types)) {
  console.log(`${to.pathname} is up to date`);
} else {
  fs.writeFileSync(to, types);
  console.log(`wrote ${to.pathname}`);
}
