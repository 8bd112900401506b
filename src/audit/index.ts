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
import type { Severity } from '../core/diagnostics.js';
import { shownSize } from '../core/images.js';
import { RULES, RULES_BY_ID } from './rules.js';
import type { RouteInfo } from './page-rules.js';
import { parseRobots } from './robots.js';
import { checkSite } from './site-rules.js';
import { parseSitemap, type ParsedSitemap } from './sitemap.js';
import { cssReferences } from './css.js';
import { DEFAULT_EXCLUDES } from './exclude.js';
import { candidateFiles } from '../core/static-files.js';
import { PLACEHOLDER_ORIGIN, cleanPath, normaliseBasePath, resolveLink } from './urls.js';
import { walk, type PageResult, type WalkContext, type WalkResult, type WalkTask } from './worker.js';
import type { Finding, RuleDef, RuleId, RuleSettings, SiteFacts } from './types.js';
import type { CrawlSection } from './crawl/section.js';

export interface AuditOptions {
  /** The built site. */
  dir: string;
  /** Where reports/build-routes.json may be (the build's reports folder); read only when its routes are the folder's pages. */
  reportsDir?: string;
  /**
   * Explicit origin (--origin or config), whose path is the base path the folder is served under;
   * otherwise taken from the home page's canonical or the sitemap, or from data/site.json when the
   * build's routes describe the folder.
   */
  origin?: string;
  /** Where data/site.json may be. */
  dataDir?: string;
  /** Globs of HTML files that are not pages, besides the defaults for generators' fragments (exclude.ts). */
  exclude?: string[];
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
  /** The path a host serves it at (`/dir/` for a folder's index.html without a twin). */
  served: string;
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
  /** The pages and files of the site it links to (keys), in document order. */
  outlinks: string[];
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
  /** The path the folder is served under ('/' unless --origin or the site says otherwise). */
  basePath: string;
  /** Whether the build's route report described the folder (screens and route rules then apply). */
  routesKnown: boolean;
  summary: {
    pages: number;
    indexable: number;
    findings: Record<Severity, number>;
    byRule: Array<{ rule: RuleId; severity: Severity; count: number }>;
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
 * Below this many folders waiting to be walked the pool does not pay: each
 * worker starts, loads the modules and warms the JIT on its own, which a site
 * of the shipped size does not repay (docs/PERFORMANCE.md, "Audit").
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

/**
 * Whether a route report is about the audited folder: nearly all its routes
 * (a build may drop a few) have their page there. A report left by another
 * build, or next to a foreign site, is not read.
 */
function describesFolder(dir: string, paths: readonly string[]): boolean {
  if (paths.length === 0) return false;
  // An even sample is enough to tell the two apart, and costs a few hundred file lookups at most.
  const step = Math.max(1, Math.floor(paths.length / 256));
  let found = 0;
  let tried = 0;
  for (let i = 0; i < paths.length; i += step, tried++) if (candidateFiles(paths[i]).some((f) => existsSync(join(dir, f)))) found++;
  return found >= tried * 0.9;
}

async function readRoutes(dir: string, reportsDir: string | undefined): Promise<Map<string, RouteInfo>> {
  const routes = new Map<string, RouteInfo>();
  if (!reportsDir) return routes;
  const json = (await readJson(join(reportsDir, 'build-routes.json'))) as { routes?: Array<RouteInfo & { path: string }> } | undefined;
  const declared = (json?.routes ?? []).filter((r) => typeof r?.path === 'string');
  if (
    !describesFolder(
      dir,
      declared.map((r) => cleanPath(r.path)),
    )
  )
    return routes;
  for (const r of declared) {
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

export interface Located {
  origin: string;
  basePath: string;
}

/** An absolute http(s) URL's origin, and its folder as the base path; null for anything else. */
function locate(href: string, folderOnly: boolean): Located | null {
  try {
    const url = new URL(href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const path = url.pathname;
    return { origin: url.origin, basePath: normaliseBasePath(folderOnly ? path.slice(0, path.lastIndexOf('/') + 1) : path) };
  } catch {
    return null;
  }
}

function safePathname(href: string): string {
  try {
    return new URL(href).pathname;
  } catch {
    return '';
  }
}

/**
 * Where the folder is served: explicit (its path kept as the base path);
 * else the home page's canonical (the URL of index.html); else the
 * sitemap's origin, with the folder of its shortest URL as the base path
 * when every URL lies under it and they are the folder's files from there; else data/site.json when the build's
 * routes describe the folder.
 */
async function detectOrigin(opts: AuditOptions, sitemaps: Awaited<ReturnType<typeof readSitemaps>>, routesKnown: boolean): Promise<Located | null> {
  if (opts.origin) return locate(opts.origin, false);
  const home = isListedFile(opts.dir, 'index.html') ? await readFile(join(opts.dir, 'index.html'), 'utf8') : '';
  const canonical = /<link[^>]+rel=["']?canonical["']?[^>]*href=["']([^"']+)["']/i.exec(home);
  const fromCanonical = canonical ? locate(canonical[1].trim(), true) : null;
  if (fromCanonical) return fromCanonical;
  const first = sitemaps?.[0]?.parsed;
  if (first?.ok && first.entries.length > 0) {
    const located = first.entries.map((e) => locate(e.loc, true)).filter((l): l is Located => l !== null);
    if (located.length > 0) {
      const origin = located[0].origin;
      const shortest = located.reduce((a, l) => (l.basePath.length < a.length ? l.basePath : a), located[0].basePath);
      // The folder of the shortest URL is the base path only where the sitemap's URLs are files of the folder
      // under it rather than from the root: a sitemap listing /products/… alone says nothing of a base path.
      const common = first.kind === 'urlset' && shortest !== '/' && located.every((l) => l.origin === origin && l.basePath.startsWith(shortest));
      const found = (basePath: string): number =>
        first.entries.slice(0, 50).filter((e) => candidateFiles(cleanPath(safePathname(e.loc)), basePath).some((f) => existsSync(join(opts.dir, f)))).length;
      return { origin, basePath: common && found(shortest) > found('/') ? shortest : '/' };
    }
  }
  if (!routesKnown) return null;
  const site = (await readJson(join(opts.dataDir ?? 'data', 'site.json'))) as { origin?: string } | undefined;
  return typeof site?.origin === 'string' ? locate(site.origin, false) : null;
}

/** One string object per distinct value: results cloned from workers bring a copy of every link target and rule id. */
function interner(): <S extends string>(s: S) => S {
  const seen = new Map<string, string>();
  return <S extends string>(s: S): S => {
    // A value equal to s is s's own type.
    const known = seen.get(s) as S | undefined;
    if (known !== undefined) return known;
    seen.set(s, s);
    return s;
  };
}

/** Shares the strings many pages repeat (link targets, screens, element ids of shared forms, rule ids) and the page's own URL and file in its findings. */
function compactPage(page: PageResult, intern: <S extends string>(s: S) => S): PageResult {
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
  const twinned = new Set<string>();
  const task = (batch: string[]): WalkTask => ({ folders: batch, twinned: batch.map((f) => twinned.has(f)) });
  let next = 0; // folders[next…] are still to walk
  const absorb = (r: WalkResult): void => {
    for (const folder of r.twinned) twinned.add(folder);
    for (const [path, size] of r.files) files.set(path, size);
    for (const page of r.pages) pages.push(compactPage(page, intern));
    findings.push(...r.findings);
    for (const folder of r.folders) folders.push(folder);
  };
  const workerUrl = new URL('./worker.js', import.meta.url);
  // Under vitest this module is TypeScript and no compiled worker sits beside it: walk inline.
  const poolable = threads > 0 && import.meta.url.endsWith('.js') && existsSync(fileURLToPath(workerUrl));
  // Facts are slices of their page's text, and a slice keeps the whole page alive: kept as they are, every page
  // read stayed in memory to the end. A copy (what results from the pool get anyway) keeps only the facts.
  while (next < folders.length && !(poolable && folders.length - next >= poolMinFolders)) absorb(structuredClone(walk(ctx, task([folders[next++]]))));
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
            (pool.run(task(batch)) as Promise<WalkResult>).then(
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
  const routes = await readRoutes(opts.dir, opts.reportsDir);
  const sitemaps = await readSitemaps(opts.dir);
  phase('read sitemaps');
  const detected = await detectOrigin(opts, sitemaps, routes.size > 0);
  const origin = detected?.origin ?? PLACEHOLDER_ORIGIN;
  const basePath = detected?.basePath ?? '/';
  const robotsFile = isListedFile(opts.dir, 'robots.txt')
    ? { file: 'robots.txt', parsed: parseRobots(await readFile(join(opts.dir, 'robots.txt'), 'utf8')) }
    : null;
  phase('robots.txt, origin');

  const ctx: WalkContext = {
    dir: opts.dir,
    origin,
    originKnown: detected !== null,
    basePath,
    settings: opts.settings,
    routes,
    exclude: [...DEFAULT_EXCLUDES, ...(opts.exclude ?? [])],
  };
  const {
    files,
    pages: results,
    findings: fileFindings,
  } = await walkDist(ctx, opts.threads ?? availableParallelism(), opts.poolMinFolders ?? POOL_MIN_FOLDERS);
  phase(`walk ${files.size} files, check ${results.length} pages`);

  const pages = results.map((r) => r.site);
  const site = checkSite({
    pages,
    files,
    pixelSizes: await readPixelSizes(opts.dir, files, pages, basePath),
    stylesheetRefs: await readStylesheetRefs(opts.dir, files, origin, basePath),
    origin,
    originKnown: detected !== null,
    basePath,
    settings: opts.settings,
    sitemaps,
    robots: robotsFile,
    today: opts.today ?? new Date().toISOString().slice(0, 10),
  });
  phase('site-wide passes');
  const findings = sortFindings([...results.flatMap((r) => r.findings), ...fileFindings, ...site.findings]);
  const report = buildReport(opts, detected, routes.size > 0, findings, pages, site);
  phase('summary');
  return report;
}

/**
 * The pixel size of every image file an <img> declares a size for, from its header (image-size):
 * what img/aspect-mismatch compares the declared shape with. Each file is read once.
 */
async function readPixelSizes(
  dir: string,
  files: ReadonlyMap<string, number>,
  pages: readonly SiteFacts[],
  basePath: string,
): Promise<Map<string, { width: number; height: number }>> {
  const wanted = new Set<string>();
  for (const page of pages)
    for (const [path] of page.imageShapes) {
      const file = candidateFiles(path, basePath).find((f) => files.has(f));
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

/** The internal files each stylesheet of the folder names (url(), @import), resolved against the stylesheet's URL. */
async function readStylesheetRefs(
  dir: string,
  files: ReadonlyMap<string, number>,
  origin: string,
  basePath: string,
): Promise<Array<{ file: string; refs: string[] }>> {
  const out: Array<{ file: string; refs: string[] }> = [];
  const site = { origin, basePath };
  for (const file of [...files.keys()].filter((f) => f.endsWith('.css')).sort()) {
    const url = basePath + file;
    const refs = new Set<string>();
    for (const ref of cssReferences(readFileSync(join(dir, file), 'utf8'))) {
      const target = resolveLink(ref, origin + url, url, site);
      if (target.kind === 'internal') refs.add(target.path);
    }
    if (refs.size > 0) out.push({ file, refs: [...refs] });
  }
  return out;
}

const ruleIndex = new Map(RULES.map((r, i) => [r.id, i]));

/** Worst severity first, then rule order, then where. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      ruleIndex.get(a.rule)! - ruleIndex.get(b.rule)! ||
      (a.url ?? a.file).localeCompare(b.url ?? b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      a.message.localeCompare(b.message),
  );
}

export function buildReport(
  opts: Pick<AuditOptions, 'dir' | 'settings'>,
  located: Located | null,
  routesKnown: boolean,
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
        served: p.served,
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
        outlinks: p.outlinks,
      };
    })
    .sort((a, b) => a.url.localeCompare(b.url));
  return assembleReport({ dir: opts.dir, origin: located?.origin ?? null, basePath: located?.basePath ?? '/', routesKnown }, findings, rows, opts.settings);
}

/** What the report says about the audited folder, besides findings and pages. */
export type ReportSite = Pick<AuditReport, 'dir' | 'origin' | 'basePath' | 'routesKnown'>;

/** Builds the summary from findings and rows; also used after Lighthouse adds findings. */
export function assembleReport(site: ReportSite, findings: Finding[], rows: PageRow[], settings: RuleSettings, lighthouse?: LighthousePage[]): AuditReport {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const byRule = new Map<RuleId, number>();
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
    dir: site.dir,
    origin: site.origin,
    basePath: site.basePath,
    routesKnown: site.routesKnown,
    summary: {
      pages: rows.length,
      indexable: rows.filter((r) => r.indexable).length,
      findings: counts,
      byRule: [...byRule]
        .map(([rule, count]) => ({ rule, severity: settings[rule].severity, count }))
        .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || b.count - a.count || a.rule.localeCompare(b.rule)),
      byScreen: [...byScreen].map(([screen, v]) => ({ screen, ...v })).sort((a, b) => b.findings - a.findings || a.screen.localeCompare(b.screen)),
    },
    rules: [...byRule.keys()]
      .map((id) => ({ ...RULES_BY_ID.get(id)!, severity: settings[id].severity, options: settings[id].options, enabled: settings[id].enabled }))
      .sort((a, b) => ruleIndex.get(a.id)! - ruleIndex.get(b.id)!),
    findings,
    pages: rows,
    ...(lighthouse ? { lighthouse } : {}),
  };
}
