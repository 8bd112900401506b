// `site build` as a library call, printing the result as JSON: how the incremental tests build with a render
// module of their own (a template edit) and without the cache.
// Usage: node build-json.mjs '{"dataDir":…,"outDir":…,"reportsDir":…,"renderModule"?:…,"cache"?:false}'
import { buildSite } from '../../build/src/emit/index.js';

const result = await buildSite(JSON.parse(process.argv[2]));
process.stdout.write(JSON.stringify({ ...result, diagnostics: result.diagnostics.filter((d) => d.severity === 'error') }) + '\n');
process.exitCode = result.ok ? 0 : 1;
