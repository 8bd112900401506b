import { existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import type { CommandContext } from '../index.js';
import { EXIT_OK, EXIT_PROBLEMS, UsageError, colorEnabled, painter, stderr, stdout } from '../output.js';

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
  concurrency: string;
  maxPages: string;
  timeout: string;
  ignoreRobots?: boolean;
}

const RANK = { error: 3, warning: 2, info: 1, none: 0 } as const;

function positiveInt(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${flag} expects a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

async function crawlAudit(opts: import('../../audit/crawl/index.js').CrawlAuditOptions) {
  const { runCrawlAudit, CrawlStartError } = await import('../../audit/crawl/index.js');
  try {
    return await runCrawlAudit(opts);
  } catch (err) {
    if (err instanceof CrawlStartError) throw new UsageError(err.message);
    throw err;
  }
}

/** The crawl's settings from `site audit URL` and its flags. */
function crawlOptions(url: string, flags: AuditFlags) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`site audit expects an absolute http(s) URL to crawl, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`site audit crawls http(s) URLs only, got "${url}"`);
  if (flags.lighthouse) throw new UsageError('--lighthouse audits a built --dir; it does not combine with a URL to crawl');
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
    .option('--reports <dir>', 'where to write audit.json and audit.html (and read build-routes.json)', 'reports')
    .option('--json', 'print the JSON report on stdout')
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding of this severity or worse exists').choices(['error', 'warning', 'info', 'none']).default('error'))
    .option('--config <file>', 'JSON config whose "audit" section turns rules off or changes thresholds (default: site.config.json)')
    .option('--origin <url>', 'the site origin (default: from the sitemap, canonicals or data/site.json)')
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
        throw new UsageError(`no built site at ${flags.dir} (run \`site build\` first, or pass --dir)`);
      }
      if (flags.origin !== undefined) {
        try {
          if (!/^https?:$/.test(new URL(flags.origin).protocol)) throw new Error('scheme');
        } catch {
          throw new UsageError(`--origin expects an absolute http(s) URL, got "${flags.origin}"`);
        }
      }
      const extraPages = positiveInt(flags.lighthousePages, '--lighthouse-pages', 0, 100);
      const budget = flags.budget === undefined ? undefined : positiveInt(flags.budget, '--budget', 0, 100);
      if (budget !== undefined && !flags.lighthouse) throw new UsageError('--budget needs --lighthouse');

      const { ConfigError, loadAuditConfig, resolveSettings } = await import('../../audit/config.js');
      const configFile = flags.config ?? 'site.config.json';
      let settings;
      let configOrigin: string | undefined;
      try {
        const config = await loadAuditConfig(configFile, flags.config !== undefined);
        settings = resolveSettings(config, configFile);
        configOrigin = config.origin;
      } catch (err) {
        if (err instanceof ConfigError) throw new UsageError(err.message);
        throw err;
      }

      const { runAudit, assembleReport, sortFindings } = await import('../../audit/index.js');
      const phases: string[] = [];
      const onPhase = (name: string, ms: number) => phases.push(`${name} ${(ms / 1000).toFixed(2)} s`);
      let report = crawl
        ? await crawlAudit({ ...crawl, origin: flags.origin ?? configOrigin, settings, onPhase })
        : await runAudit({ dir: flags.dir, reportsDir: flags.reports, origin: flags.origin ?? configOrigin, settings, onPhase });
      if (flags.lighthouse) {
        const { runLighthouse } = await import('../../audit/lighthouse.js');
        const lh = await runLighthouse({ dir: flags.dir, report, extraPages, budget, settings, log: stderr });
        report = assembleReport(report.dir, report.origin, sortFindings([...report.findings, ...lh.findings]), report.pages, settings, lh.pages);
      }

      const { renderHtmlReport } = await import('../../audit/html.js');
      const writeStart = performance.now();
      await mkdir(flags.reports, { recursive: true });
      // One string for the file and --json: at 100,000 pages the report is 76 MB, and a second copy was most of the peak memory.
      const json = JSON.stringify(report, null, 2) + '\n';
      await writeFile(join(flags.reports, 'audit.json'), json);
      await writeFile(join(flags.reports, 'audit.html'), renderHtmlReport(report));
      onPhase('reports', performance.now() - writeStart);

      if (flags.json) stdout(json.trimEnd());
      else {
        const { formatText } = await import('../../audit/text.js');
        stdout(formatText(report, painter(colorEnabled(process.stdout, flags))));
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      stderr(`site audit: ${report.summary.pages} pages in ${seconds} s (${phases.join(', ')}); reports in ${join(flags.reports, 'audit.json')} and ${join(flags.reports, 'audit.html')}`);

      const threshold = RANK[flags.failOn];
      const failing = threshold > 0 && report.findings.some((f) => RANK[f.severity] >= threshold);
      ctx.setExitCode(failing ? EXIT_PROBLEMS : EXIT_OK);
    });
}
