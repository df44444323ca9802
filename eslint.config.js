// Lint rules that guard the architecture: no `any` on public paths, and the one-way import direction
// (http → domain → db/outbox/pdf/providers → lib). process.env is read only by src/config.ts.
import tseslint from 'typescript-eslint';

const layer = (from, forbidden) => ({
  files: [`src/${from}/**/*.ts`],
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((f) => ({ group: [f], message: `${from}/ must not import ${f}` })) }],
  },
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'src/generated/**', 'web/dist/**', '.tmp/**', '.scratch/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/config.ts only.' }],
    },
  },
  { files: ['src/config.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'], rules: { 'no-restricted-properties': 'off' } },
  layer('lib', ['**/domain/**', '**/http/**', '**/db/**', '**/outbox/**', '**/pdf/**', '**/providers/**', 'fastify']),
  layer('db', ['**/domain/**', '**/http/**', 'fastify']),
  layer('pdf', ['**/domain/**', '**/http/**', '**/db/**', 'fastify']),
  layer('providers', ['**/domain/**', '**/http/**', '**/db/**', 'fastify']),
  layer('outbox', ['**/domain/**', '**/http/**', 'fastify']),
  layer('domain', ['**/http/**', 'fastify', '@fastify/*']),
  layer('http', ['**/db/**', '**/outbox/**']),
);
