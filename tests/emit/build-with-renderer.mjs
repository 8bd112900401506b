// `site build` as the CLI runs it (same summary and findings on stdout and stderr, same exit code), with the
// render API of another module: how the tests make a template fail. The build takes a renderer as a library
// option (BuildOptions.renderModule); the CLI never does.
// Usage: node build-with-renderer.mjs RENDER_MODULE_URL DATA_DIR OUT REPORTS [CONCURRENCY]
import { buildSite } from '../../build/src/emit/index.js';
import { diagnosticsReport, summaryLine } from '../../build/src/cli/commands/build.js';
import { painter } from '../../build/src/core/paint.js';

const [renderModule, dataDir, outDir, reportsDir, concurrency] = process.argv.slice(2);
const result = await buildSite({ dataDir, outDir, reportsDir, renderModule, concurrency: concurrency === undefined ? undefined : Number(concurrency) });
const report = await diagnosticsReport(result, painter(false));
if (report !== '') process.stderr.write(report + '\n');
process.stdout.write(summaryLine(result, outDir, reportsDir) + '\n');
process.exitCode = result.ok ? 0 : 1;
