import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Option, type Command } from 'commander';
import type { CommandContext } from '../context.js';
import { painter } from '../../core/paint.js';
import { EXIT_OK, EXIT_PROBLEMS, colorEnabled, stderr, stdout } from '../output.js';
import { REPORT_FORMATS, type ReportFormat } from '../../audit/reports.js';
import { UserError } from '../../core/errors.js';
import { collect, httpUrl, oneOf, wholeNumber } from '../flags.js';

interface AuditFlags {
  dir: string;
  reports: string;
  json?: boolean;
  failOn: 'error' | 'warning' | 'info' | 'none';
  config?: string;
  origin?: string;
  lighthouse?: boolean;
  lighthousePages: string;
  budget?: string;
  exclude: string[];
  format: string;
  concurrency: string;
  maxPages: string;
  timeout: string;
  ignoreRobots?: boolean;
}

/** `--format html,csv`: each one of the audit's report formats. */
function parseFormats(value: string): Set<ReportFormat> {
  const formats = value
    .split(',')
    .map((f) => f.trim().toLowerCase())
    .filter(Boolean);
  if (formats.length === 0) throw new UserError(`--format ${JSON.stringify(value)}: expected a comma-separated list of ${REPORT_FORMATS.join(', ')}`);
  return new Set(formats.map((f) => oneOf(f, '--format', REPORT_FORMATS)));
}

const RANK = { error: 3, warning: 2, info: 1, none: 0 } as const;

/**
 * What `site audit TARGET` audits: an http(s) URL is crawled, a folder is read
 * from disk (as `--dir` would be); no target means `--dir`. A target that is
 * neither is a usage error naming both readings, since `example.com/docs`
 * could mean either.
 */
export function auditTarget(target: string | undefined, dir: string, dirGiven: boolean): { crawl: string } | { dir: string } {
  if (target === undefined) return { dir };
  // Any scheme is a URL: crawlOptions refuses one that is not http(s).
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return { crawl: target };
  if (existsSync(target) && statSync(target).isDirectory()) {
    if (dirGiven) throw new UserError(`site audit ${JSON.stringify(target)}: a folder to audit is given twice, here and as --dir ${JSON.stringify(dir)}`);
    return { dir: target };
  }
  throw new UserError(
    `site audit ${JSON.stringify(target)}: expected a folder of HTML files or an absolute http(s) URL (say https://${target.replace(/^\/+/, '')})`,
  );
}

/** The crawl's settings from `site audit URL` and its flags. */
function crawlOptions(url: string, flags: AuditFlags) {
  const parsed = httpUrl(url, 'site audit URL');
  if (flags.lighthouse) throw new UserError('--lighthouse audits a built --dir; it does not combine with a URL to crawl');
  return {
    url: parsed.href,
    concurrency: wholeNumber(flags.concurrency, '--concurrency', 1, 256),
    maxPages: wholeNumber(flags.maxPages, '--max-pages', 1, 10_000_000),
    timeoutMs: wholeNumber(flags.timeout, '--timeout', 1, 3600) * 1000,
    ignoreRobots: flags.ignoreRobots === true,
  };
}

export function registerAudit(program: Command, ctx: CommandContext): void {
  program
    .command('audit')
    .description(
      'audit a site on disk for SEO problems (site audit DIR, dist/ by default), or crawl a served one (site audit URL); writes reports/audit.json and reports/audit.html',
    )
    .argument('[target]', 'a folder to audit (as --dir), or the http(s) URL of a served site to crawl')
    .option('--dir <dir>', 'the built site to audit', 'dist')
    .option('--reports <dir>', 'where to write the reports (and read build-routes.json when it describes --dir)', 'reports')
    .option('--format <formats>', 'reports to write, comma-separated: html, json, csv (audit-findings.csv and audit-pages.csv)', 'html,json')
    .option('--exclude <glob>', 'HTML files that are not pages, relative to --dir (repeatable; also "exclude" in the config)', collect, [])
    .option('--json', 'print the JSON report on stdout')
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 when a finding of this severity or worse exists')
        .choices(['error', 'warning', 'info', 'none'])
        .default('error'),
    )
    .option('--config <file>', 'JSON config whose "audit" section turns rules off or changes thresholds (default: site.config.json)')
    .option(
      '--origin <url>',
      'the URL --dir is served at; its path is the base path, links outside it are outside the site (default: from the home canonical or the sitemap)',
    )
    .option('--lighthouse', 'also run Lighthouse on one page per screen kind')
    .option('--lighthouse-pages <n>', 'extra pages for Lighthouse', '0')
    .option('--budget <score>', 'with --lighthouse: fail when a category scores under this (0-100)')
    .option('--concurrency <n>', 'with a URL: requests in flight at once', '8')
    .option('--max-pages <n>', 'with a URL: pages to fetch at most', '10000')
    .option('--timeout <seconds>', 'with a URL: time allowed for each answer', '15')
    .option('--ignore-robots', 'with a URL: fetch what robots.txt disallows')
    .action(async (target: string | undefined, flags: AuditFlags, command: Command) => {
      const started = performance.now();
      const what = auditTarget(target, flags.dir, command.getOptionValueSource('dir') === 'cli');
      const crawl = 'crawl' in what ? crawlOptions(what.crawl, flags) : null;
      const dir = 'dir' in what ? what.dir : flags.dir;
      if (crawl === null && (!existsSync(dir) || !statSync(dir).isDirectory())) {
        throw new UserError(`no built site at ${dir} (run \`site build\` first, or pass --dir)`);
      }
      if (flags.origin !== undefined) httpUrl(flags.origin, '--origin');
      const formats = parseFormats(flags.format);
      const extraPages = wholeNumber(flags.lighthousePages, '--lighthouse-pages', 0, 100);
      const budget = flags.budget === undefined ? undefined : wholeNumber(flags.budget, '--budget', 0, 100);
      if (budget !== undefined && !flags.lighthouse) throw new UserError('--budget needs --lighthouse');

      const { loadAuditConfig, resolveSettings } = await import('../../audit/config.js');
      const configFile = flags.config ?? 'site.config.json';
      const config = await loadAuditConfig(configFile, flags.config !== undefined);
      const settings = resolveSettings(config, configFile);
      const configOrigin = config.origin;
      const configExclude = config.exclude ?? [];

      const { runAudit, assembleReport, sortFindings } = await import('../../audit/index.js');
      const phases: string[] = [];
      const onPhase = (name: string, ms: number) => phases.push(`${name} ${(ms / 1000).toFixed(2)} s`);
      let report = crawl
        ? await (await import('../../audit/crawl/index.js')).runCrawlAudit({ ...crawl, origin: flags.origin ?? configOrigin, settings, onPhase })
        : await runAudit({
            dir,
            reportsDir: flags.reports,
            origin: flags.origin ?? configOrigin,
            exclude: [...configExclude, ...flags.exclude],
            settings,
            onPhase,
          });
      if (flags.lighthouse) {
        const { runLighthouse } = await import('../../audit/lighthouse.js');
        const lh = await runLighthouse({ dir, report, extraPages, budget, settings, log: stderr, serve: serveForLighthouse });
        report = assembleReport(report, sortFindings([...report.findings, ...lh.findings]), report.pages, settings, lh.pages);
      }

      const writeStart = performance.now();
      const { writeAuditReports } = await import('../../audit/reports.js');
      const { files: written, json } = await writeAuditReports(report, {
        reportsDir: flags.reports,
        formats,
        json: flags.json,
        siteDir: relative(flags.reports, dir),
      });
      onPhase('reports', performance.now() - writeStart);

      if (flags.json) stdout(json.trimEnd());
      else {
        const { formatText } = await import('../../audit/text.js');
        stdout(formatText(report, painter(colorEnabled(process.stdout, flags))));
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      stderr(
        `site audit: ${report.summary.pages} pages in ${seconds} s (${phases.join(', ')}); reports in ${written.map((f) => join(flags.reports, f)).join(', ')}`,
      );

      const threshold = RANK[flags.failOn];
      const failing = threshold > 0 && report.findings.some((f) => RANK[f.severity] >= threshold);
      ctx.setExitCode(failing ? EXIT_PROBLEMS : EXIT_OK);
    });
}

/**
 * The dist as `site serve` serves it, for Lighthouse: served bare, every page
 * failed the text-compression and cache-lifetime audits, findings about the
 * audit's own server rather than the site. Its inquiry store lives in
 * `scratch` and goes with it.
 */
async function serveForLighthouse(dir: string, scratch: string): Promise<{ close(): Promise<void>; base: string }> {
  const { startServer } = await import('../../serve/server.js');
  const { join } = await import('node:path');
  const running = await startServer({ dir, dataDir: join(scratch, 'inquiries'), host: '127.0.0.1', port: 0, watch: false, log: () => undefined });
  return { close: () => running.close(), base: running.url };
}
