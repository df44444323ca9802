// Lint rules that guard the architecture: no `any` on public paths, and the one-way import direction
// (http → domain → db/outbox/pdf/providers → lib). process.env is read only by src/config.ts.
import tseslint from 'typescript-eslint';

// The composition root and the parsed configuration are for src/main.ts, src/cli/ and src/deps.ts:
// every layer below receives what it needs as arguments, so none may import them.
const ROOT = [
  { group: ['**/deps.js', '**/deps'], message: 'only src/deps.ts composes; take what you need as an argument' },
  { group: ['**/config.js', '**/config'], message: 'only src/deps.ts and src/cli read the configuration; take the values you need as arguments' },
];

const layer = (from, forbidden) => ({
  files: [`src/${from}/**/*.ts`],
  rules: {
    'no-restricted-imports': ['error', { patterns: [...forbidden.map((f) => ({ group: [f], message: `${from}/ must not import ${f}` })), ...ROOT] }],
  },
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'dist/**', 'dist.*/**', 'src/generated/**', 'web/dist/**', 'clients/typescript/dist/**', '.tmp/**', '.scratch/**', '.test-build/**', '.test-build.*/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/config.ts only.' }],
    },
  },
  // Examples are programs of their own (a webhook receiver reads its secret from the environment).
  { files: ['src/config.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'scripts/**/*.mjs', 'examples/**/*.mjs'], rules: { 'no-restricted-properties': 'off' } },
  layer('lib', ['**/domain/**', '**/http/**', '**/db/**', '**/outbox/**', '**/pdf/**', '**/providers/**', 'fastify']),
  layer('db', ['**/domain/**', '**/http/**', 'fastify']),
  layer('pdf', ['**/domain/**', '**/http/**', '**/db/**', 'fastify']),
  layer('providers', ['**/domain/**', '**/http/**', '**/db/**', 'fastify']),
  layer('outbox', ['**/domain/**', '**/http/**', 'fastify']),
  layer('domain', ['**/http/**', 'fastify', '@fastify/*']),
  layer('http', ['**/db/**', '**/outbox/**']),
);
