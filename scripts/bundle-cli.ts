/**
 * Bundles the compiled CLI (build/src/, tsc's output) into build/bundle/: a
 * few files instead of 140 of ours and zod's 95, which Node's ES module
 * loader resolved, read and compiled one by one on every run (about 200 ms of
 * an incremental build's 1.4 s; docs/PERFORMANCE.md, "The CLI bundled"). zod
 * is bundled so that what the schemas do not use (its 64 locales among it)
 * is left out; the other packages stay Node's to load.
 *
 * Entries: the CLI, and the two modules that other threads or the main
 * thread load by URL: the render module and the render worker. They share
 * their chunks, so a page rendered on the main thread records its reads in
 * the same module instance the build reads them from.
 *
 * Every other `import.meta.url` (a worker that starts its own module, a
 * package found from a module's folder, a hash of the compiled code) is
 * rewritten to the module's compiled file under build/src/, which the bundle
 * sits beside: each module finds what it found before.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COMPILED = path.join(ROOT, 'build', 'src');
const OUT = path.join(ROOT, 'build', 'bundle');

/** Output name → compiled module. */
const ENTRIES: Record<string, string> = { cli: 'cli/index.js', render: 'render/index.js', 'render-worker': 'emit/threads/worker.js' };
const entryOf = new Map(Object.entries(ENTRIES).map(([name, file]) => [path.join(COMPILED, file), `./${name}.js`]));

const RELATIVE_MODULE_URL = /new URL\((['"])(\.{1,2}\/[^'"]+\.js)\1, import\.meta\.url\)/g;

/** The module's code with each import.meta.url rewritten (see the file's comment). */
function rewriteModuleUrls(code: string, file: string): string {
  const own = JSON.stringify(path.relative(OUT, file).split(path.sep).join('/'));
  return code
    .replace(RELATIVE_MODULE_URL, (whole, _quote: string, spec: string) => {
      const entry = entryOf.get(path.resolve(path.dirname(file), spec));
      return entry === undefined ? whole : `new URL(${JSON.stringify(entry)}, __SITE_BUNDLE_URL__)`;
    })
    .replace(/import\.meta\.url/g, `new URL(${own}, import.meta.url).href`)
    .replace(/__SITE_BUNDLE_URL__/g, 'import.meta.url');
}

const moduleUrls: Plugin = {
  name: 'site-module-urls',
  transform(code, id) {
    if (!id.startsWith(COMPILED) || !code.includes('import.meta.url')) return null;
    return { code: rewriteModuleUrls(code, id), map: null };
  },
};

await build({
  configFile: false,
  logLevel: 'warn',
  plugins: [moduleUrls],
  ssr: { noExternal: ['zod'] },
  build: {
    ssr: true,
    outDir: OUT,
    emptyOutDir: true,
    minify: false,
    target: 'node20',
    rollupOptions: {
      input: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(COMPILED, file)])),
      preserveEntrySignatures: 'strict',
      output: { format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunk-[hash].js' },
      onLog(level, log, handler) {
        // A module imported both statically and dynamically loads with its static importer, in Node as here.
        if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
        handler(level, log);
      },
    },
  },
});
