import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard is served by Formsign under /dashboard (src/http/dashboard/spa.ts); assets get content
// hashes in their names and are precompressed by scripts/build-web.mjs after the build.
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  plugins: [react()],
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
