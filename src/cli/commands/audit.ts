import { existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Option, type Command } from 'commander';
import type { CommandContext } from '../context.js';
import { painter } from '../../core/paint.js';
import { EXIT_OK, EXIT_PROBLEMS, colorEnabled, stderr, stdout } from '../output.js';
import { UserError } from '../../core/errors.js';

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

const FORMATS = ['html', 'json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

function parseFormats(value: string): Set<Format> {
  const formats = value.split(',').map((f) => f.trim().toLowerCase()).filter(Boolean);
  const unknown = formats.filter((f) => !(FORMATS as readonly string[]).includes(f));
  if (formats.length === 0 || unknown.length > 0) throw new UserError(`--format expects a comma-separated list of ${FORMATS.join(', ')}, got "${value}"`);
  return new Set(formats as Format[]);
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

const RANK = { error: 3, warning: 2, info: 1, none: 0 } as const;

function positiveInt(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UserError(`${flag} expects a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

async function crawlAudit(opts: import('../../audit/crawl/index.js').CrawlAuditOptions) {
  const { runCrawlAudit, CrawlStartError } = await import('../../audit/crawl/index.js');
  try {
    return await runCrawlAudit(opts);
  } catch (err) {
    if (err instanceof CrawlStartError) throw new UserError(err.message);
    throw err;
  }
}

/** The crawl's settings from `site audit URL` and its flags. */
function crawlOptions(url: string, flags: AuditFlags) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`site audit expects an absolute http(s) URL to crawl, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UserError(`site audit crawls http(s) URLs only, got "${url}"`);
  if (flags.lighthouse) throw new UserError('--lighthouse audits a built --dir; it does not combine with a URL to crawl');
  return {
    url: parsed.href,
    concurrency: positiveInt(flags.concurrency, '--concurrency', 1, 256),
    maxPages: positiveInt(flags.maxPages, '--max-pages', 1, 10_000_000),
    timeoutMs: positiveInt(flags.timeout, '--timeout', 1, 3600) * 1000,
    ignoreRobots: flags.ignoreRobots === true,
  };
}

export function registerAudit(program: Command, ctx: CommandContext): void {
  program
    .command('audit')
    .description('audit a built site for SEO problems, or crawl a served one (site audit URL); writes reports/audit.json and reports/audit.html')
    .argument('[url]', 'crawl the site served at this http(s) URL instead of reading --dir')
    .option('--dir <dir>', 'the built site to audit', 'dist')
    .option('--reports <dir>', 'where to write the reports (and read build-routes.json when it describes --dir)', 'reports')
    .option('--format <formats>', 'reports to write, comma-separated: html, json, csv (audit-findings.csv and audit-pages.csv)', 'html,json')
    .option('--exclude <glob>', 'HTML files that are not pages, relative to --dir (repeatable; also "exclude" in the config)', collect, [])
    .option('--json', 'print the JSON report on stdout')
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding of this severity or worse exists').choices(['error', 'warning', 'info', 'none']).default('error'))
    .option('--config <file>', 'JSON config whose "audit" section turns rules off or changes thresholds (default: site.config.json)')
    .option('--origin <url>', 'the URL --dir is served at; its path is the base path, links outside it are outside the site (default: from the home canonical or the sitemap)')
    .option('--lighthouse', 'also run Lighthouse on one page per screen kind')
    .option('--lighthouse-pages <n>', 'extra pages for Lighthouse', '0')
    .option('--budget <score>', 'with --lighthouse: fail when a category scores under this (0-100)')
    .option('--concurrency <n>', 'with a URL: requests in flight at once', '8')
    .option('--max-pages <n>', 'with a URL: pages to fetch at most', '10000')
    .option('--timeout <seconds>', 'with a URL: time allowed for each answer', '15')
    .option('--ignore-robots', 'with a URL: fetch what robots.txt disallows')
    .action(async (url: string | undefined, flags: AuditFlags) => {
      const started = performance.now();
      const crawl = url === undefined ? null : crawlOptions(url, flags);
      if (crawl === null && (!existsSync(flags.dir) || !statSync(flags.dir).isDirectory())) {
        throw new UserError(`no built site at ${flags.dir} (run \`site build\` first, or pass --dir)`);
      }
      if (flags.origin !== undefined) {
        try {
          if (!/^https?:$/.test(new URL(flags.origin).protocol)) throw new Error('scheme');
        } catch {
          throw new UserError(`--origin expects an absolute http(s) URL, got "${flags.origin}"`);
        }
      }
      const formats = parseFormats(flags.format);
      const extraPages = positiveInt(flags.lighthousePages, '--lighthouse-pages', 0, 100);
      const budget = flags.budget === undefined ? undefined : positiveInt(flags.budget, '--budget', 0, 100);
      if (budget !== undefined && !flags.lighthouse) throw new UserError('--budget needs --lighthouse');

      const { ConfigError, loadAuditConfig, resolveSettings } = await import('../../audit/config.js');
      const configFile = flags.config ?? 'site.config.json';
      let settings;
      let configOrigin: string | undefined;
      let configExclude: string[] = [];
      try {
        const config = await loadAuditConfig(configFile, flags.config !== undefined);
        settings = resolveSettings(config, configFile);
        configOrigin = config.origin;
        configExclude = config.exclude ?? [];
      } catch (err) {
        if (err instanceof ConfigError) throw new UserError(err.message);
        throw err;
      }

      const { runAudit, assembleReport, sortFindings } = await import('../../audit/index.js');
      const phases: string[] = [];
      const onPhase = (name: string, ms: number) => phases.push(`${name} ${(ms / 1000).toFixed(2)} s`);
      let report = crawl
        ? await crawlAudit({ ...crawl, origin: flags.origin ?? configOrigin, settings, onPhase })
        : await runAudit({
            dir: flags.dir,
            reportsDir: flags.reports,
            origin: flags.origin ?? configOrigin,
            exclude: [...configExclude, ...flags.exclude],
            settings,
            onPhase,
          });
      if (flags.lighthouse) {
        const { runLighthouse } = await import('../../audit/lighthouse.js');
        const lh = await runLighthouse({ dir: flags.dir, report, extraPages, budget, settings, log: stderr, serve: serveForLighthouse });
        report = assembleReport(report, sortFindings([...report.findings, ...lh.findings]), report.pages, settings, lh.pages);
      }

      const writeStart = performance.now();
      await mkdir(flags.reports, { recursive: true });
      // One string for the file and --json: a large site's report is tens of MB, and a second copy would be most of the peak memory.
      const json = formats.has('json') || flags.json ? JSON.stringify(report, null, 2) + '\n' : '';
      const written: string[] = [];
      if (formats.has('json')) {
        await writeFile(join(flags.reports, 'audit.json'), json);
        written.push('audit.json');
      }
      if (formats.has('csv')) {
        const { findingsCsv, pagesCsv } = await import('../../audit/csv.js');
        await writeFile(join(flags.reports, 'audit-findings.csv'), findingsCsv(report));
        await writeFile(join(flags.reports, 'audit-pages.csv'), pagesCsv(report));
        written.push('audit-findings.csv', 'audit-pages.csv');
      }
      if (formats.has('html')) {
        const { renderHtmlReport } = await import('../../audit/html.js');
        written.push('audit.html');
        await writeFile(join(flags.reports, 'audit.html'), renderHtmlReport(report, { files: written, siteDir: relative(flags.reports, flags.dir) }));
      }
      onPhase('reports', performance.now() - writeStart);

      if (flags.json) stdout(json.trimEnd());
      else {
        const { formatText } = await import('../../audit/text.js');
        stdout(formatText(report, painter(colorEnabled(process.stdout, flags))));
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      stderr(`site audit: ${report.summary.pages} pages in ${seconds} s (${phases.join(', ')}); reports in ${written.map((f) => join(flags.reports, f)).join(', ')}`);

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
