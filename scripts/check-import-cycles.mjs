// No import circle in src/ (run by `npm run lint`). Imports point one way (http → domain →
// db/outbox/pdf/providers → lib, eslint.config.js); this check holds the same inside each layer, where
// a circle makes module order matter and a file impossible to read bottom-up. Type-only imports count:
// a type shared both ways belongs in a file of its own.
import madge from 'madge';

const ROOT = new URL('../', import.meta.url);

const result = await madge(new URL('src/', ROOT).pathname, {
  fileExtensions: ['ts'],
  tsConfig: new URL('tsconfig.json', ROOT).pathname,
  detectiveOptions: { ts: { skipTypeImports: false }, es6: { skipTypeImports: false } },
});

const circles = result.circular();
if (circles.length > 0) {
  console.error(`Import circles in src/ (${circles.length}); break each by moving what both sides share into a file of its own:`);
  for (const c of circles) console.error(`  ${[...c, c[0]].join(' → ')}`);
  process.exit(1);
}
console.log(`No import circle among ${Object.keys(result.obj()).length} files of src/.`);
