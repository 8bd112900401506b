/**
 * `runAudit`: reads a built dist/ back and audits it. The walk over dist/
 * lists folders, reads pages, extracts their facts and runs the page rules
 * in one pass, in this thread for small sites and in a worker pool (one
 * thread per core) for large ones; the main thread keeps compact facts and
 * runs the site-wide passes.
 */
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Severity } from '../core/diagnostic.js';
import { shownSize } from '../core/images.js';
import { RULES, RULES_BY_ID } from './rules.js';
import type { RouteInfo } from './page-rules.js';
import { parseRobots } from './robots.js';
import { checkSite } from './site-rules.js';
import { parseSitemap, type ParsedSitemap } from './sitemap.js';
import { PLACEHOLDER_ORIGIN, candidateFiles, cleanPath } from './urls.js';
import { walk, type PageResult, type WalkContext, type WalkResult } from './worker.js';
import type { Finding, RuleDef, RuleSettings, SiteFacts } from './types.js';
import type { CrawlSection } from './crawl/index.js';

export interface AuditOptions {
  /** The built site. */
  dir: string;
  /** Where reports/build-routes.json may be (the build's reports folder). */
  reportsDir?: string;
  /** Explicit origin (--origin or config); otherwise taken from sitemap, canonical or data/site.json. */
  origin?: string;
  /** Where data/site.json may be. */
  dataDir?: string;
  settings: RuleSettings;
  /** Worker threads; 0 runs in this thread. Default: one per core. */
  threads?: number;
  /** Folders waiting to be walked before the pool takes over (default 5,000; tests lower it). */
  poolMinFolders?: number;
  /** YYYY-MM-DD; default today (UTC). */
  today?: string;
  /** Called after each phase with its duration, for progress output and benchmarks. */
  onPhase?: (phase: string, ms: number) => void;
}

export interface PageRow {
  url: string;
  file: string;
  screen: string | null;
  title: string | null;
  description: string | null;
  words: number;
  inlinks: number;
  depth: number | null;
  indexable: boolean;
  issues: number;
  rules: string[];
}

export interface LighthousePage {
  url: string;
  screen: string | null;
  scores: Record<string, number | null>;
  failed: Array<{ id: string; title: string; category: string }>;
  error?: string;
}

export interface AuditReport {
  tool: 'site audit';
  version: 1;
  dir: string;
  origin: string | null;
  summary: {
    pages: number;
    indexable: number;
    findings: Record<Severity, number>;
    byRule: Array<{ rule: string; severity: Severity; count: number }>;
    byScreen: Array<{ screen: string; pages: number; findings: number }>;
  };
  /** The rules that produced findings, as configured. */
  rules: Array<RuleDef & { enabled: boolean }>;
  findings: Finding[];
  pages: PageRow[];
  lighthouse?: LighthousePage[];
  /** `site audit URL` only: what the crawl fetched and how each URL answered. */
  crawl?: CrawlSection;
}

/** Folders per worker task: each holds about one page, so a task is some 20 ms of work. */
const BATCH = 64;
/**
 * Below this many folders waiting to be walked the pool does not pay: on the
 * shipped site (1,467 pages, 2 cores) two workers took the same wall time as
 * one thread and a third more CPU, and this thread plus one worker was slower
 * than this thread alone whenever the machine had other work: each worker
 * starts, loads the modules and warms the JIT on its own.
 */
const POOL_MIN_FOLDERS = 5000;
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

async function readRoutes(reportsDir: string | undefined): Promise<Map<string, RouteInfo>> {
  const routes = new Map<string, RouteInfo>();
  if (!reportsDir) return routes;
  const json = (await readJson(join(reportsDir, 'build-routes.json'))) as { routes?: Array<RouteInfo & { path: string }> } | undefined;
  for (const r of json?.routes ?? []) {
    if (typeof r?.path !== 'string') continue;
    routes.set(cleanPath(r.path), {
      screen: typeof r.screen === 'string' ? r.screen : undefined,
      metaFallback: Array.isArray(r.metaFallback) ? r.metaFallback.filter((m) => typeof m === 'string') : [],
      warnings: Array.isArray(r.warnings) ? r.warnings : [],
    });
  }
  return routes;
}

/**
 * Whether the walk will list `rel` (relative to dir): a regular file under
 * real folders, no segment hidden. The sitemaps and robots.txt are read
 * before the walk, so they cannot look it up in the walk's file list.
 */
function isListedFile(dir: string, rel: string): boolean {
  const segments = rel.split('/');
  if (segments.some((s) => s === '' || s.startsWith('.'))) return false;
  let path = dir;
  for (let i = 0; i < segments.length; i++) {
    path = join(path, segments[i]);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat || !(i < segments.length - 1 ? stat.isDirectory() : stat.isFile())) return false;
  }
  return true;
}

async function readSitemaps(dir: string): Promise<Array<{ file: string; bytes: number; parsed: ParsedSitemap }> | null> {
  if (!isListedFile(dir, 'sitemap.xml')) return null;
  const out: Array<{ file: string; bytes: number; parsed: ParsedSitemap }> = [];
  const queue = ['sitemap.xml'];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(join(dir, file), 'utf8');
    const parsed = parseSitemap(text);
    out.push({ file, bytes: Buffer.byteLength(text), parsed });
    if (parsed.ok && parsed.kind === 'sitemapindex') {
      for (const entry of parsed.entries) {
        try {
          const child = new URL(entry.loc).pathname.replace(/^\/+/, '');
          if (isListedFile(dir, child)) queue.push(child);
        } catch {
          // A bad child URL is reported by the sitemap rules.
        }
      }
    }
  }
  return out;
}

/** The origin: explicit, else the sitemap's or the home canonical's, else data/site.json's. */
async function detectOrigin(opts: AuditOptions, sitemaps: Awaited<ReturnType<typeof readSitemaps>>): Promise<string | null> {
  if (opts.origin) return new URL(opts.origin).origin;
  const first = sitemaps?.[0]?.parsed;
  if (first?.ok && first.entries[0]) {
    try {
      return new URL(first.entries[0].loc).origin;
    } catch {
      // fall through
    }
  }
  const home = await readFile(join(opts.dir, 'index.html'), 'utf8').catch(() => '');
  const canonical = /<link[^>]+rel=["']?canonical["']?[^>]*href=["'](https?:\/\/[^"']+)["']/i.exec(home);
  if (canonical) return new URL(canonical[1]).origin;
  const site = (await readJson(join(opts.dataDir ?? 'data', 'site.json'))) as { origin?: string } | undefined;
  if (typeof site?.origin === 'string') {
    try {
      return new URL(site.origin).origin;
    } catch {
      return null;
    }
  }
  return null;
}

/** One string object per distinct value: results cloned from workers bring a copy of every link target and rule id. */
function interner(): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    const known = seen.get(s);
    if (known !== undefined) return known;
    seen.set(s, s);
    return s;
  };
}

/** Shares the strings many pages repeat (link targets, screens, element ids of shared forms, rule ids) and the page's own URL and file in its findings. */
function compactPage(page: PageResult, intern: (s: string) => string): PageResult {
  const site = page.site;
  site.screen = site.screen === null ? null : intern(site.screen);
  site.ids = intern(site.ids);
  site.canonical = site.canonical === site.url ? site.url : site.canonical === null ? null : intern(site.canonical);
  site.outlinks = site.outlinks.map(intern);
  site.fragmentLinks = site.fragmentLinks.map(intern);
  site.imageRefs = site.imageRefs.map(intern);
  site.imageChoices = site.imageChoices.map((c) => c.map(intern));
  for (const shape of site.imageShapes) shape[0] = intern(shape[0]);
  for (const f of page.findings) {
    f.rule = intern(f.rule);
    if (f.url === site.url) f.url = site.url;
    if (f.file === site.file) f.file = site.file;
  }
  return page;
}

interface Walked {
  /** Every file of the dist with its size (0 for HTML pages, whose size is not used). */
  files: Map<string, number>;
  /** Page results in file order. */
  pages: PageResult[];
  /** Findings about files that are not pages. */
  findings: Finding[];
}

/**
 * Walks dist/ from its root: folders are listed, and their pages checked,
 * in this thread until enough folders wait to make the pool pay; the pool
 * then takes them in batches, a few in flight per thread, and results are
 * compacted as they arrive rather than held whole.
 */
async function walkDist(ctx: WalkContext, threads: number, poolMinFolders: number): Promise<Walked> {
  const files = new Map<string, number>();
  const pages: PageResult[] = [];
  const findings: Finding[] = [];
  const intern = interner();
  const folders: string[] = [''];
  let next = 0; // folders[next…] are still to walk
  const absorb = (r: WalkResult): void => {
    for (const [path, size] of r.files) files.set(path, size);
    for (const page of r.pages) pages.push(compactPage(page, intern));
    findings.push(...r.findings);
    for (const folder of r.folders) folders.push(folder);
  };
  const workerUrl = new URL('./worker.js', import.meta.url);
  // Under vitest this module is TypeScript and no compiled worker sits beside it: walk inline.
  const poolable = threads > 0 && import.meta.url.endsWith('.js') && existsSync(fileURLToPath(workerUrl));
  while (next < folders.length && !(poolable && folders.length - next >= poolMinFolders)) absorb(walk(ctx, { folders: [folders[next++]] }));
  if (next < folders.length) {
    const { Piscina } = await import('piscina');
    const pool = new Piscina({
      filename: workerUrl.href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 1000,
      workerData: ctx,
      // Page checks make many short-lived strings: a larger young generation means fewer scavenges.
      resourceLimits: { maxYoungGenerationSizeMb: 64 },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let running = 0;
        let failed = false;
        const pump = (): void => {
          while (!failed && running < threads * 2 && next < folders.length) {
            const batch = folders.slice(next, next + BATCH);
            next += batch.length;
            running++;
            (pool.run({ folders: batch }) as Promise<WalkResult>).then(
              (r) => {
                running--;
                absorb(r);
                pump();
              },
              (err: unknown) => {
                failed = true;
                reject(err);
              },
            );
          }
          if (running === 0 && next >= folders.length) resolve();
        };
        pump();
      });
    } finally {
      await pool.destroy();
    }
  }
  // The site-wide passes and the reports take pages in file order (UTF-16 code units, as sort() orders strings), whichever thread found them.
  pages.sort((a, b) => (a.site.file < b.site.file ? -1 : a.site.file > b.site.file ? 1 : 0));
  return { files, pages, findings };
}

export async function runAudit(opts: AuditOptions): Promise<AuditReport> {
  let mark = performance.now();
  const phase = (name: string): void => {
    const now = performance.now();
    opts.onPhase?.(name, now - mark);
    mark = now;
  };
  const routes = await readRoutes(opts.reportsDir);
  const sitemaps = await readSitemaps(opts.dir);
  phase('read sitemaps');
  const detected = await detectOrigin(opts, sitemaps);
  const origin = detected ?? PLACEHOLDER_ORIGIN;
  const robotsFile = isListedFile(opts.dir, 'robots.txt') ? { file: 'robots.txt', parsed: parseRobots(await readFile(join(opts.dir, 'robots.txt'), 'utf8')) } : null;
  phase('robots.txt, origin');

  const ctx: WalkContext = { dir: opts.dir, origin, originKnown: detected !== null, settings: opts.settings, routes };
  const { files, pages: results, findings: fileFindings } = await walkDist(ctx, opts.threads ?? availableParallelism(), opts.poolMinFolders ?? POOL_MIN_FOLDERS);
  phase(`walk ${files.size} files, check ${results.length} pages`);

  const pages = results.map((r) => r.site);
  const site = checkSite({
    pages,
    files,
    pixelSizes: await readPixelSizes(opts.dir, files, pages),
    origin,
    originKnown: detected !== null,
    settings: opts.settings,
    sitemaps,
    robots: robotsFile,
    today: opts.today ?? new Date().toISOString().slice(0, 10),
  });
  phase('site-wide passes');
  const findings = sortFindings([...results.flatMap((r) => r.findings), ...fileFindings, ...site.findings]);
  const report = buildReport(opts, detected, findings, pages, site);
  phase('summary');
  return report;
}

/**
 * The pixel size of every image file an <img> declares a size for, from its header (image-size):
 * what img/aspect-mismatch compares the declared shape with. Each file is read once.
 */
async function readPixelSizes(dir: string, files: ReadonlyMap<string, number>, pages: readonly SiteFacts[]): Promise<Map<string, { width: number; height: number }>> {
  const wanted = new Set<string>();
  for (const page of pages) for (const [path] of page.imageShapes) {
    const file = candidateFiles(path).find((f) => files.has(f));
    if (file !== undefined) wanted.add(file);
  }
  const sizes = new Map<string, { width: number; height: number }>();
  if (wanted.size === 0) return sizes;
  const { imageSize } = await import('image-size');
  for (const file of [...wanted].sort()) {
    try {
      // Synchronous: for hundreds of small files, ten times faster than a thread-pool round trip each.
      const shown = shownSize(imageSize(readFileSync(join(dir, file))));
      if (shown) sizes.set(file, shown);
    } catch {
      // not an image format image-size reads: nothing to compare
    }
  }
  return sizes;
}

const ruleIndex = new Map(RULES.map((r, i) => [r.id, i]));

export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      ruleIndex.get(a.rule)! - ruleIndex.get(b.rule)! ||
      (a.url ?? a.file).localeCompare(b.url ?? b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      a.message.localeCompare(b.message),
  );
}

export function buildReport(
  opts: Pick<AuditOptions, 'dir' | 'settings'>,
  origin: string | null,
  findings: Finding[],
  pages: SiteFacts[],
  site: ReturnType<typeof checkSite>,
): AuditReport {
  const perPage = new Map<string, Finding[]>();
  for (const f of findings) {
    if (f.url === null) continue;
    const list = perPage.get(f.url) ?? [];
    list.push(f);
    perPage.set(f.url, list);
  }
  const rows: PageRow[] = pages
    .map((p) => {
      const own = perPage.get(p.url) ?? [];
      return {
        url: p.url,
        file: p.file,
        screen: p.screen,
        title: p.title,
        description: p.description,
        words: p.wordCount,
        inlinks: site.inlinks.get(p.url) ?? 0,
        depth: site.depth.get(p.url) ?? null,
        indexable: site.indexable.has(p.url),
        issues: own.length,
        rules: [...new Set(own.map((f) => f.rule))],
      };
    })
    .sort((a, b) => a.url.localeCompare(b.url));
  return assembleReport(opts.dir, origin, findings, rows, opts.settings);
}

/** Builds the summary from findings and rows; also used after Lighthouse adds findings. */
export function assembleReport(
  dir: string,
  origin: string | null,
  findings: Finding[],
  rows: PageRow[],
  settings: RuleSettings,
  lighthouse?: LighthousePage[],
): AuditReport {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const byRule = new Map<string, number>();
  for (const f of findings) {
    counts[f.severity]++;
    byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + 1);
  }
  const screenOf = new Map(rows.map((r) => [r.url, r.screen ?? 'unknown']));
  const byScreen = new Map<string, { pages: number; findings: number }>();
  for (const r of rows) {
    const s = byScreen.get(r.screen ?? 'unknown') ?? { pages: 0, findings: 0 };
    s.pages++;
    byScreen.set(r.screen ?? 'unknown', s);
  }
  for (const f of findings) {
    const screen = f.url === null ? 'site files' : (screenOf.get(f.url) ?? 'unknown');
    const s = byScreen.get(screen) ?? { pages: 0, findings: 0 };
    s.findings++;
    byScreen.set(screen, s);
  }
  return {
    tool: 'site audit',
    version: 1,
    dir,
    origin,
    summary: {
      pages: rows.length,
      indexable: rows.filter((r) => r.indexable).length,
      findings: counts,
      byRule: [...byRule]
        .map(([rule, count]) => ({ rule, severity: settings[rule].severity, count }))
        .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || b.count - a.count || a.rule.localeCompare(b.rule)),
      byScreen: [...byScreen]
        .map(([screen, v]) => ({ screen, ...v }))
        .sort((a, b) => b.findings - a.findings || a.screen.localeCompare(b.screen)),
    },
    rules: [...byRule.keys()]
      .map((id) => ({ ...RULES_BY_ID.get(id)!, severity: settings[id].severity, options: settings[id].options, enabled: settings[id].enabled }))
      .sort((a, b) => ruleIndex.get(a.id)! - ruleIndex.get(b.id)!),
    findings,
    pages: rows,
    ...(lighthouse ? { lighthouse } : {}),
  };
}

