import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { painter, type Painter } from '../../core/paint.js';
import { wholeNumber } from '../flags.js';
import { EXIT_OK, EXIT_PROBLEMS, colorEnabled, errorText, printed, stderr, untilStopped } from '../output.js';
import type { BuildOptions, BuildResult } from '../../emit/index.js';
import type { WatchedBuild } from '../../emit/watch.js';

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
  watch?: boolean;
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
    // Every page is rendered or taken over: 404.html and 500.html are rendered by every build, so they count as
    // rendered here, where the JSON's `rendered` counts route pages only.
    const rendered = result.pages - result.reused;
    const reused = result.reused > 0 ? ` (${number.format(rendered)} rendered, ${number.format(result.reused)} unchanged)` : '';
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
    .option('--watch', 'after the build, build again whenever a file under --data-dir changes, until Ctrl-C')
    .action(async (flags: BuildFlags) => {
      const concurrency = flags.concurrency === undefined ? undefined : wholeNumber(flags.concurrency, '--concurrency', 1);
      const options: BuildOptions = {
        dataDir: flags.dataDir,
        outDir: flags.out,
        reportsDir: flags.reports,
        concurrency,
        strict: flags.strict,
        searchIndex: flags.searchIndex,
        htmlTwins: flags.htmlTwins,
        cache: flags.cache,
        onProgress: progressPrinter(!flags.json && Boolean(process.stderr.isTTY)),
      };
      // A missing data folder cannot be watched: the one build says so as the check does (load/missing-data-dir).
      if (flags.watch === true && existsSync(flags.dataDir)) {
        ctx.setExitCode(await watchAndReport(options, flags));
        return;
      }
      const { buildSite } = await import('../../emit/index.js');
      const result = await buildSite(options);
      await report(result, flags);
      ctx.setExitCode(result.ok ? EXIT_OK : EXIT_PROBLEMS);
    });
}

/** A build's result as `site build` prints it: one JSON document, or the findings and the summary line. */
async function report(result: BuildResult, flags: BuildFlags, changed?: readonly string[]): Promise<void> {
  if (flags.json) {
    const extra = changed === undefined ? {} : { changed };
    await printed(process.stdout, JSON.stringify({ ...result, ...extra, peakRssBytes: process.resourceUsage().maxRSS * 1024 }));
    return;
  }
  const findings = await diagnosticsReport(result, painter(colorEnabled(process.stderr, { json: flags.json })));
  if (findings !== '') await printed(process.stderr, findings);
  await printed(process.stdout, summaryLine(result, flags.out, flags.reports));
}

/**
 * `--watch`: each build reported as a single build is (one JSON document per line under --json), the files
 * whose change started it named, until SIGINT or SIGTERM; then the build under way ends (its swap completes or
 * never starts). A second Ctrl-C stops at once, which a build survives (the swap is atomic). The exit code is
 * the last build's; 1 when the watch stopped because part of the data folder could not be watched.
 */
async function watchAndReport(options: BuildOptions, flags: BuildFlags): Promise<number> {
  const { watchBuilds, watchFailure } = await import('../../emit/watch.js');
  const stopped = untilStopped();
  let code = EXIT_OK;
  // A watch that cannot see every file would build stale output without saying so: it stops, and says why.
  let failure: string | undefined;
  let fail: () => void = () => undefined;
  const failed = new Promise<void>((resolve) => (fail = resolve));
  const onWatchError = (err: NodeJS.ErrnoException) => {
    failure ??= watchFailure(path.resolve(flags.dataDir), err);
    fail();
  };
  let reporting = Promise.resolve();
  // Returns once the build is printed in full: the watch writes its cache only then (see watchBuilds).
  const onBuild = (build: WatchedBuild): Promise<void> => {
    const changed = build.changed.map((file) => path.relative(process.cwd(), file) || '.');
    reporting = reporting.then(async () => {
      if (!flags.json && changed.length > 0) {
        const more = changed.length > 5 ? ` and ${changed.length - 5} more` : '';
        stderr(`site build: changed: ${changed.slice(0, 5).join(', ')}${more}`);
      }
      if (build.result === undefined) {
        code = EXIT_PROBLEMS;
        stderr(`site build: ${errorText(build.error)}`);
      } else {
        code = build.result.ok ? EXIT_OK : EXIT_PROBLEMS;
        await report(build.result, flags, changed);
      }
      if (!flags.json && build.changed.length === 0 && failure === undefined) stderr(`site build: watching ${flags.dataDir} for changes; Ctrl-C stops`);
    });
    return reporting;
  };
  const watch = watchBuilds(options, onBuild, { onWatchError });
  const signal = await Promise.race([stopped, failed]);
  if (failure !== undefined) stderr(`site build: ${failure} Stopping once the build under way ends.`);
  else if (!flags.json) stderr(`site build: ${signal}: stopping once the build under way ends`);
  await watch.close();
  await reporting;
  return failure === undefined ? code : EXIT_PROBLEMS;
}
