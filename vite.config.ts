// Bundles the browser code (progressive enhancement) and the shared stylesheet
// into hashed files; `site build` copies them into dist/assets/ and finds
// their names through the manifest.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('src/client'),
  base: '/',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: here('build/client'),
    emptyOutDir: true,
    manifest: true,
    target: 'es2020',
    // Pages load one module script and its chunks are few and known: no
    // preload helper chunk (an extra request on every page) is worth it.
    modulePreload: false,
    cssCodeSplit: true,
    assetsDir: 'assets',
    rollupOptions: {
      input: {
        main: here('src/client/main.ts'),
        styles: here('src/client/styles.css'),
        search: here('src/client/search.ts'),
      },
    },
  },
});
