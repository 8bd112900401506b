import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { painter, type Painter } from '../../core/paint.js';
import { wholeNumber } from '../flags.js';
import { EXIT_OK, EXIT_PROBLEMS, colorEnabled, stderr, stdout } from '../output.js';
import type { BuildResult } from '../../emit/index.js';

interface BuildFlags {
  dataDir: string;
  out: string;
  reports: string;
  json?: boolean;
  concurrency?: string;
  strict?: boolean;
  searchIndex: boolean;
  htmlTwins: boolean;
  cache: boolean;
}

/** 57560 → "57,560". Not Intl.NumberFormat: loading ICU's number data would cost every build time (docs/PERFORMANCE.md). */
const number = { format: (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') };

/** Prints at most one progress line per second, on a terminal only: CI logs and pipes stay clean. */
function progressPrinter(enabled: boolean): (done: number, total: number) => void {
  let last = performance.now();
  return (done, total) => {
    if (!enabled) return;
    const now = performance.now();
    if (now - last < 1000 && done < total) return;
    last = now;
    stderr(`site build: rendered ${number.format(done)} of ${number.format(total)} routes`);
  };
}

/**
 * The findings worth showing: a failed check is reported exactly as `site
 * check` reports it; after that only the build's own findings (the check's
 * warnings are counted in the summary line; `site check` lists them).
 */
export async function diagnosticsReport(result: BuildResult, paint: Painter): Promise<string> {
  const report = await import('../../check/report.js');
  if (result.failedAt === 'check') {
    let out = report.formatText(result.diagnostics, result.checkCounts, paint);
    if (process.env.GITHUB_ACTIONS === 'true') out += report.formatAnnotations(result.diagnostics);
    return out;
  }
  const own = result.diagnostics.filter((d) => d.code.startsWith('build/'));
  const lines = own.map((d) => {
    const sev = d.severity === 'error' ? paint.red('error') : d.severity === 'warning' ? paint.yellow('warning') : paint.dim('info');
    return `${d.file}:${d.line ?? 1}:${d.column ?? 1}  ${sev}  ${paint.dim(d.code)}  ${d.message}`;
  });
  if (process.env.GITHUB_ACTIONS === 'true') lines.push(report.formatAnnotations(own));
  return lines.join('\n');
}

/** The one line on stdout: what was written, what to look at, how long it took. */
export function summaryLine(result: BuildResult, out: string, reports: string): string {
  const plural = (n: number, word: string) => `${number.format(n)} ${word}${n === 1 ? '' : 's'}`;
  const links = `links: ${number.format(result.links.references)} checked, ${number.format(result.links.broken + result.links.unsafe)} broken`;
  if (result.ok) {
    const reused = result.reused > 0 ? ` (${number.format(result.rendered)} rendered, ${number.format(result.reused)} unchanged)` : '';
    return `site build: ${plural(result.pages, 'page')}${reused} written to ${out} in ${result.seconds.toFixed(2)} s · ${plural(result.warnings, 'warning')} · ${links}`;
  }
  const why =
    result.failedAt === 'check'
      ? 'the catalogue has errors'
      : result.failedAt === 'links'
        ? `broken links; see ${reports}/links.json`
        : 'a page failed to render';
  return `site build: failed (${why}) in ${result.seconds.toFixed(2)} s · ${plural(result.errors, 'error')}, ${plural(result.warnings, 'warning')} · ${out} left unchanged`;
}

export function registerBuild(program: Command, ctx: CommandContext): void {
  program
    .command('build')
    .description('check the catalogue and render every route to static HTML in the output folder')
    .option('--data-dir <dir>', 'catalogue folder', 'data')
    .option('--out <dir>', 'output folder (replaced atomically when the build succeeds)', 'dist')
    .option('--reports <dir>', 'folder for build-routes.json and links.json (not published)', 'reports')
    .option('--json', 'print the summary as one JSON document')
    .option('--concurrency <n>', 'render threads, the main thread included (default: the main thread alone below 5,000 routes, else one per core)')
    .option('--strict', 'treat warnings as errors')
    .option('--no-search-index', 'skip the search index')
    .option('--no-cache', 'build everything from scratch: no cached check, search index, image copies or page record is read or kept')
    .option(
      '--no-html-twins',
      'write <path>/index.html only, without <path>.html beside it (hosts such as GitHub Pages, Netlify and Cloudflare Pages then redirect /path to /path/)',
    )
    .action(async (flags: BuildFlags) => {
      const concurrency = flags.concurrency === undefined ? undefined : wholeNumber(flags.concurrency, '--concurrency', 1);
      const { buildSite } = await import('../../emit/index.js');
      const paint = painter(colorEnabled(process.stderr, { json: flags.json }));
      const result = await buildSite({
        dataDir: flags.dataDir,
        outDir: flags.out,
        reportsDir: flags.reports,
        concurrency,
        strict: flags.strict,
        searchIndex: flags.searchIndex,
        htmlTwins: flags.htmlTwins,
        cache: flags.cache,
        onProgress: progressPrinter(!flags.json && Boolean(process.stderr.isTTY)),
      });
      if (flags.json) {
        stdout(JSON.stringify({ ...result, peakRssBytes: process.resourceUsage().maxRSS * 1024 }));
      } else {
        const report = await diagnosticsReport(result, paint);
        if (report !== '') stderr(report);
        stdout(summaryLine(result, flags.out, flags.reports));
      }
      ctx.setExitCode(result.ok ? EXIT_OK : EXIT_PROBLEMS);
    });
}
