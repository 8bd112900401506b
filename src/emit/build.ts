/**
 * `site build` as a library call: load → check → render in worker threads →
 * emit (404 and 500 pages, artwork, assets, sitemap, robots, search index) → link check →
 * atomic swap into the output folder → reports.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { countBySeverity, type Diagnostic } from '../core/diagnostic.js';
import type { ResolvedRoute } from '../check/index.js';
import type { Catalogue } from '../load/catalogue.js';
import { locateMany } from '../load/locate.js';
import { photoUrls } from '../render/text.js';
import { writeSnapshot } from '../render/snapshot.js';
import { LOGO_MARK, logoSvg, SHARE_CARD } from '../render/artwork.js';
import { shareCardPng } from './share-card.js';
import type { RouteRecord } from '../load/schema.js';
import { applyStrict, countCatalogue, type CheckCounts } from '../check/report.js';
import { checkDataDir } from '../check/run.js';
import { batchSizeFor, createRenderPool, defaultConcurrency, type RenderPool } from '../render/pool.js';
import { errorPageOfSource, type ErrorPageFile } from '../core/error-pages.js';
import type { ArtworkResult, BodySource, ErrorPagesResult, PageFacts, PrepareResult, RenderFailure, RouteJob, RoutesResult } from '../render/protocol.js';
import { copyAssets, defaultClientDir, readAssetRefs } from './assets.js';
import { keepAsSpare, prepareTempDir, recoverOutput, removeUnwritten, swapIn, tempDirFor, type Inventory } from './atomic.js';
import { findBroken, mergeTally, type BrokenLink, type LinkTally } from './links.js';
import { planTwins, safeOutputFile, twinFileOf, UnsafePathError } from './paths.js';
import { writeSearchIndexCached } from './search-cache.js';
import { publishImages } from './images.js';
import { siteWriter } from './site-files.js';
import { defaultCacheDir } from '../load/cache.js';
import { headersFile, HEADERS_FILE } from './headers-file.js';
import { stampRecorder, takeStamps } from './output-stamps.js';
import { robotsTxt, sitemapEntries, writeSitemap } from './sitemap.js';

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  reportsDir: string;
  /** Worker threads; defaults to one per core. */
  concurrency?: number;
  /** Warnings fail the build, as under `site check --strict`. */
  strict?: boolean;
  /** Write the search index (default true). */
  searchIndex?: boolean;
  /** Vite's output (default build/client of this project). */
  clientDir?: string;
  /** Module URL of the render API; tests substitute one to make a template fail. */
  renderModule?: string;
  /** Called after each rendered batch. */
  onProgress?: (done: number, total: number) => void;
  /** Write `<path>.html` beside every `<path>/index.html` (default true; see twinFileOf in paths.ts). */
  htmlTwins?: boolean;
}

export interface LinkSummary {
  /** Pages whose links were checked. */
  pages: number;
  /** Internal references found (each page counts a target once). */
  references: number;
  /** Distinct internal targets checked against the built files. */
  targets: number;
  broken: number;
  unsafe: number;
}

export interface BuildResult {
  ok: boolean;
  /** The stage that stopped the build, when it failed. */
  failedAt?: 'check' | 'render' | 'links';
  /** Check diagnostics followed by the build's own. */
  diagnostics: Diagnostic[];
  /** What the check stage counted (routes per screen kind, content totals), as `site check` reports it. */
  checkCounts: CheckCounts;
  /** HTML pages written: one per resolved route, plus 404.html and 500.html. */
  pages: number;
  /**
   * Route pages whose file in the output folder (the spare, on a rebuild)
   * already held their bytes and was kept as it was; `byStamp` of them were
   * known so from the stamps the build that left them recorded, without
   * reading them back (output-stamps.ts).
   */
  unchanged: { pages: number; byStamp: number };
  /** Every file of the new output folder. */
  files: number;
  bytes: number;
  links: LinkSummary;
  errors: number;
  warnings: number;
  seconds: number;
  outDir: string;
  timings: Record<string, number>;
}

const posix = (p: string): string => p.split(path.sep).join('/');
/** A path as diagnostics show it: relative to the working directory, forward slashes. */
const shown = (p: string): string => posix(path.relative(process.cwd(), p)) || '.';

interface PlannedRoute {
  /** Position in the build order (registry order, duplicates once); the key of every per-page result. */
  index: number;
  route: ResolvedRoute;
  /** Relative to the output folder. */
  file: string;
  /** The page has a second name, `<path>.html` (see twinFileOf in paths.ts). */
  twin?: true;
}

/**
 * Resolved routes → render jobs, refusing (again) any output that could
 * leave the output folder; with `htmlTwins`, each page's twin.
 */
export function planRoutes(resolved: readonly ResolvedRoute[], routesFile: string, htmlTwins = true): { plan: PlannedRoute[]; diagnostics: Diagnostic[] } {
  const plan: PlannedRoute[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const route of resolved) {
    try {
      plan.push({ index: plan.length, route, file: safeOutputFile(route.output) });
    } catch (err) {
      if (!(err instanceof UnsafePathError)) throw err;
      diagnostics.push({
        code: 'build/unsafe-path',
        severity: 'error',
        file: routesFile,
        pointer: `${route.declarations[0] ?? ''}/path`,
        message: `Route ${JSON.stringify(route.path)} was not written: ${err.message}; give the route a path of letters, digits and hyphens.`,
      });
    }
  }
  if (htmlTwins) {
    const { twins, clashes } = planTwins(plan.map((p) => p.file));
    for (const p of plan) if (twins.has(p.file)) p.twin = true;
    const byFile = new Map(plan.map((p) => [p.file, p.route]));
    for (const { file, twin } of clashes) {
      const route = byFile.get(file)!;
      diagnostics.push({
        code: 'build/html-twin-clash',
        severity: 'warning',
        file: routesFile,
        pointer: `${route.declarations[0] ?? ''}/path`,
        message: `Route ${JSON.stringify(route.path)} is written as ${file} only: ${twin}, which lets GitHub Pages, Netlify and Cloudflare Pages serve it without a redirect to "${route.path}/", is another page's file or folder. Rename one of the two routes.`,
      });
    }
  }
  return { plan, diagnostics };
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** A clock for the whole build and the time of each phase (in the --json summary: where a slow build goes). */
function stopwatch() {
  const started = performance.now();
  const timings: Record<string, number> = {};
  let lapStart = started;
  return {
    timings,
    lap(phase: string): void {
      const now = performance.now();
      timings[phase] = Math.round(now - lapStart);
      lapStart = now;
    },
    seconds: () => Math.round((performance.now() - started) / 10) / 100,
  };
}

/**
 * Below this many routes, and unless --concurrency says otherwise, the main
 * thread renders alone. A worker costs its own start-up, React and template
 * import, catalogue snapshot and a second cold JIT: on the 2-core machines
 * here the shipped catalogue (1,468 routes) built in a median 1.93 s on the
 * main thread alone and 2.19 s with one worker beside it (npm run bench --
 * build). The audit found the same break-even for its own pool.
 *
 * Nor does the second core sit idle meanwhile: a cold process spends it on
 * V8's background compiler and collector (user + sys time is 1.4 times the
 * wall time). A writer thread that took the link scan and the writes off the
 * main thread (pages sent to it as transferred UTF-8 buffers) built the
 * shipped catalogue in the same time, median of 10 alternating runs 2.02 s
 * against 2.03 s, with 14 MB more at the peak: what it saved the main thread,
 * the compiler lost to it.
 */
export const PARALLEL_MIN_ROUTES = 5000;

/** A full garbage collection, asked for as `node --expose-gc` would allow (V8 flags can be set at run time). */
function fullCollection(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * How far (in percent) a heap may grow past what it held after the last full
 * collection, in builds of PARALLEL_MIN_ROUTES or more. Rendering promotes a
 * steady trickle of short-lived objects (the main thread yields between pages,
 * so a page's objects outlive a scavenge) that only a full collection frees.
 */
const LARGE_BUILD_HEAP_GROWING_PERCENT = 15;

/** What the build reports when an error page's template failed and the spec's minimal page stands in for it. */
const ERROR_PAGE_FALLBACK: Record<ErrorPageFile, { code: string; name: string }> = {
  '404.html': { code: 'build/not-found-fallback', name: '404' },
  '500.html': { code: 'build/error-page-fallback', name: 'error page (500)' },
};

const NO_LINKS: LinkSummary = { pages: 0, references: 0, targets: 0, broken: 0, unsafe: 0 };
const NONE_KEPT = { pages: 0, byStamp: 0 };

export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const clock = stopwatch();
  const outDir = path.resolve(options.outDir);
  type Outcome = Omit<BuildResult, 'errors' | 'warnings' | 'seconds' | 'outDir' | 'timings'>;
  const finish = (outcome: Outcome): BuildResult => {
    const counts = countBySeverity(outcome.diagnostics);
    return { ...outcome, errors: counts.error, warnings: counts.warning, seconds: clock.seconds(), outDir, timings: clock.timings };
  };

  // Before anything else: an earlier build killed during its swap may have left no output (atomic.ts).
  await recoverOutput(outDir);
  // The bundle is checked next: without it nothing can be built, and the fix is one command.
  const clientDir = options.clientDir ?? defaultClientDir();
  const assets = readAssetRefs(clientDir);

  const snapshot = path.join(tmpdir(), `site-build-${process.pid}-${Date.now()}.catalogue`);
  const tmp = tempDirFor(outDir);
  // Where the pages' stamps are kept between builds (output-stamps.ts); none outside a package (a cold CI checkout run elsewhere).
  const cacheDir = defaultCacheDir();
  const config = { snapshot, outDir: tmp, assets, renderModule: options.renderModule ?? new URL('../render/index.js', import.meta.url).href, stamps: cacheDir !== undefined };
  // Threads asked for: the workers start now, so that importing React and the templates overlaps the check.
  // Otherwise the catalogue's size decides once it is known (see PARALLEL_MIN_ROUTES).
  let pool: RenderPool | undefined = options.concurrency === undefined ? undefined : createRenderPool(config, options.concurrency);
  let preparing: ReturnType<typeof prepareTempDir> | undefined;
  try {
    const checked = await checkDataDir(options.dataDir, { lean: true });
    clock.lap('check');
    // Under --strict a warning is an error, exactly as `site check --strict` reports it.
    const checkDiagnostics = applyStrict(checked.diagnostics, options.strict === true);
    const checkCounts = countCatalogue(checked.sizes, checked.routes, checkDiagnostics);
    const routesFile = posix(path.join(shown(path.resolve(options.dataDir)), 'routes.json'));
    const htmlTwins = options.htmlTwins !== false;
    const { plan, diagnostics: planDiagnostics } = planRoutes(checked.routes, routesFile, htmlTwins);
    const diagnostics = [...checkDiagnostics, ...planDiagnostics];
    if (checked.catalogue === null || diagnostics.some((d) => d.severity === 'error')) {
      return finish({ ok: false, failedAt: 'check', diagnostics, checkCounts, pages: 0, files: 0, bytes: 0, links: NO_LINKS, unchanged: NONE_KEPT });
    }
    const catalogue = checked.catalogue;

    // A large build's heaps would otherwise grow to four times what they hold between full collections (V8's
    // default growing factor): 2.5 GB of RSS for 100,000 routes, against 1.3 GB with this, at the same speed.
    if (plan.length >= PARALLEL_MIN_ROUTES) {
      setFlagsFromString(`--heap-growing-percent=${LARGE_BUILD_HEAP_GROWING_PERCENT}`);
      // The flag counts from the next full collection, and nothing large may come to force one: until then the
      // heap kept growing to the limit set during the check (1.25 GB at 100,000 routes, with the check cache's
      // 230 MB buffer still held). Collected now, the check's garbage goes and the new limit holds from here.
      fullCollection();
    }
    pool ??= createRenderPool(config, plan.length >= PARALLEL_MIN_ROUTES ? defaultConcurrency() : 1);
    const threads = pool;
    preparing = prepareTempDir(outDir);
    const { recycled } = await preparing;
    const stamps = recycled && cacheDir !== undefined ? takeStamps(cacheDir, tmp) : new Map<string, string>();
    const recorder = cacheDir === undefined ? undefined : stampRecorder(cacheDir, tmp);
    // Every render thread readies its share of the output folder (see the 'prepare' task and ownerOf): the
    // workers at once, this thread once it has written their snapshot. Walking a spare of 100,000 pages is
    // seconds of readdir, which one thread did alone while the other waited.
    const dirs = pageDirs(plan);
    const prepare = (part: number) => threads.run<PrepareResult>({ kind: 'prepare', recycled, dirs, part, parts: threads.threads, twins: htmlTwins });
    const shares = Array.from({ length: threads.workers }, (_, part) => prepare(part));
    for (const share of shares) share.catch(() => undefined); // awaited below; a failed snapshot write must not leave them unobserved
    threads.startMainThread(catalogue);
    try {
      if (threads.workers > 0) writeSnapshot(snapshot, workerCatalogue(catalogue));
      const held = await allSettledOrThrow([...shares, prepare(threads.workers)]);
      const inventory: Inventory = { files: new Set(held.flatMap((h) => h.files)), dirs: new Set(held.flatMap((h) => h.dirs)) };
      clock.lap('prepare');
      const built = await emitAll({ options, pool: threads, plan, catalogue, clientDir, tmp, outDir, routesFile, checkDiagnostics: diagnostics, lap: clock.lap, checkKey: checked.key, held: inventory.files, stamps: { previous: stamps, record: recorder?.add } });
      const all = [...diagnostics, ...built.diagnostics];
      const blocking = (d: Diagnostic) => d.severity === 'error' || (options.strict === true && d.severity === 'warning');
      if (all.some(blocking)) {
        recorder?.drop();
        // Not deleted: the next build writes into it (see atomic.ts).
        await keepAsSpare(tmp, outDir);
        return finish({ ok: false, failedAt: built.failedAt ?? 'render', diagnostics: all, checkCounts, pages: 0, files: 0, bytes: 0, links: built.links, unchanged: NONE_KEPT });
      }
      removeUnwritten(tmp, inventory, built.written);
      const aside = await swapIn(tmp, outDir);
      recorder?.keep();
      if (aside !== null) await keepAsSpare(aside, outDir);
      clock.lap('swap');
      return finish({ ok: true, diagnostics: all, checkCounts, pages: built.links.pages, files: built.written.size, bytes: built.bytes, links: built.links, unchanged: built.unchanged });
    } catch (err) {
      recorder?.drop();
      // Stop every writer before putting their folder away; the original error is the one to report.
      await threads.destroy().catch(() => undefined);
      await keepAsSpare(tmp, outDir).catch(() => undefined);
      throw err;
    }
  } catch (err) {
    // Thrown before the folder was in use (the check itself failed): put the spare back.
    const prepared = preparing === undefined ? null : await preparing.catch(() => null);
    if (prepared !== null && existsSync(prepared.tmp)) await keepAsSpare(prepared.tmp, outDir).catch(() => undefined);
    throw err;
  } finally {
    await Promise.all([pool?.destroy(), rm(snapshot, { force: true })]);
  }
}

interface EmitContext {
  options: BuildOptions;
  pool: RenderPool;
  plan: readonly PlannedRoute[];
  catalogue: Catalogue;
  clientDir: string;
  tmp: string;
  outDir: string;
  routesFile: string;
  /** The check's findings: build-routes.json names the codes about each route. */
  checkDiagnostics: readonly Diagnostic[];
  lap: (phase: string) => void;
  /** The check result's content key (see CheckResult.key). */
  checkKey?: string;
  /** Files the temporary folder held before this build wrote anything (see Inventory). */
  held: ReadonlySet<string>;
  stamps: PageStamps;
}

/** The pages' stamps (output-stamps.ts) on their way through a build. */
interface PageStamps {
  /** The stamps the build that left the temporary folder recorded, by file; each is handed to its page's job once. */
  previous: Map<string, string>;
  /** Takes each page's new stamp as its render thread reports it (see stampRecorder). */
  record?: (file: string, stamp: string) => void;
}

/**
 * Every page's folder, made before rendering. Each page has a folder of its
 * own, and a mkdir is a syscall as dear as the write: made by a worker while
 * the main thread writes the snapshot, it overlaps instead of adding to the
 * rendering. Writers still create a missing folder themselves.
 */
function pageDirs(plan: readonly PlannedRoute[]): string[] {
  return [...new Set(plan.map((p) => path.posix.dirname(p.file)).filter((d) => d !== '.'))].sort();
}

interface Emitted {
  diagnostics: Diagnostic[];
  failedAt?: 'render' | 'links';
  links: LinkSummary;
  /** Every file written into the temporary folder, relative to it. */
  written: Set<string>;
  bytes: number;
  unchanged: BuildResult['unchanged'];
}

/** Everything that goes into the temporary folder, and the reports; says what went wrong, never throws for content. */
async function emitAll(ctx: EmitContext): Promise<Emitted> {
  const { options, plan, catalogue, tmp, outDir } = ctx;
  const writer = siteWriter(tmp);
  const rendering = renderAll(ctx.pool, plan, catalogue, ctx.held, ctx.stamps, options.onProgress);
  const shareCard = shareCardPng(catalogue.site);
  shareCard.catch(() => undefined); // awaited with the sitemap; a failed render must not go unobserved meanwhile
  // The search index needs the bodies the workers do not have: the main thread makes its documents while they
  // render. When the main thread renders alone, MiniSearch indexes them on the core that would otherwise wait;
  // when every core renders, a third thread would add its own heap and no core.
  const indexInThread = ctx.pool.workers === 0;
  const searchIndex =
    options.searchIndex === false
      ? Promise.resolve([])
      : new Promise(setImmediate).then(async () =>
          (await writeSearchIndexCached(writer, catalogue, plan.map((p) => p.route), defaultCacheDir(), ctx.checkKey, indexInThread)).files.map((f) => f.path),
        );
  const [rendered, searchFiles, assetFiles, imageFiles] = await allSettledOrThrow([rendering, searchIndex, copyAssets(ctx.clientDir, writer), publishImages(writer, catalogue.images, defaultCacheDir())] as const);
  // Every page is written: the workers' memory (each its own copy of the catalogue and model) goes now, not after the reports.
  await ctx.pool.destroy();
  ctx.lap('render');
  const failed = rendered.failures.map((f) => failureDiagnostic(f, plan, ctx.routesFile));
  // Line and column of each failing route's declaration, so an editor jumps straight to it.
  const positions = locateMany(ctx.routesFile, failed.map((d) => d.pointer));
  const diagnostics: Diagnostic[] = failed.map((d, i) => (d.pointer === '' ? d : { ...d, ...positions[i] }));
  for (const page of rendered.errorPages.pages) {
    if (page.failure === null) continue;
    const { code, name } = ERROR_PAGE_FALLBACK[page.file];
    diagnostics.push({
      code,
      severity: 'warning',
      file: shown(path.join(outDir, page.file)),
      pointer: '',
      message: `The ${name} template failed (${page.failure.cause}); the minimal error page was written instead. Fix the template and rebuild.`,
    });
  }
  if (rendered.failures.length > 0) return { diagnostics, failedAt: 'render', links: NO_LINKS, written: new Set(), bytes: 0, unchanged: NONE_KEPT };

  const facts = rendered.facts;
  const origin = catalogue.site.origin;
  const photos = photosByEntity(catalogue);
  const card = await shareCard;
  const [sitemapFiles, siteFiles] = await Promise.all([
    writeSitemap(writer, origin, sitemapEntries(plan.map((p) => withPhotos(facts[p.index], p.route, photos)))),
    writer.write([
      { path: 'robots.txt', contents: robotsTxt(origin) },
      { path: HEADERS_FILE, contents: headersFile(catalogue.site) },
      { path: LOGO_MARK.url.slice(1), contents: logoSvg() },
      { path: SHARE_CARD.url.slice(1), contents: card },
    ]),
  ]);
  ctx.lap('sitemap');

  // Links resolve against what was really written, search index included.
  // Everything this build wrote (every writer reports its files): no walk over a folder of 100,000 pages.
  const errorFiles = rendered.errorPages.pages.map((p) => p.file);
  const files = new Set([...plan.flatMap((p) => (p.twin ? [p.file, twinFileOf(p.file)!] : [p.file])), ...errorFiles, ...rendered.artwork, ...assetFiles, ...imageFiles, ...searchFiles, ...sitemapFiles, ...siteFiles]);
  const pathOfSource = (i: number) => (i < 0 ? `/${errorPageOfSource(i)}` : plan[i].route.path);
  const fileByPath = new Map(plan.map((p) => [p.route.path, p.file]));
  const fileOfSource = (source: string) => fileByPath.get(source) ?? source.slice(1);
  const broken = findBroken(rendered.tally, files, pathOfSource);
  const unsafe = rendered.unsafe.map(([reference, i]) => ({ reference, source: pathOfSource(i) }));
  for (const b of broken) diagnostics.push(brokenDiagnostic(b, fileOfSource, outDir));
  for (const u of unsafe) {
    diagnostics.push({
      code: 'build/unsafe-link',
      severity: 'error',
      file: shown(path.join(outDir, fileOfSource(u.source))),
      pointer: '',
      message: `The page links to "${u.reference.slice(0, 80)}", a URL that runs code when followed; a template let it through, so fix the template (content with such links is refused by the check).`,
    });
  }
  let references = 0;
  for (const t of rendered.tally.values()) references += t.count;
  const links: LinkSummary = { pages: plan.length + errorFiles.length, references, targets: rendered.tally.size, broken: broken.length, unsafe: unsafe.length };
  ctx.lap('links');

  // Reports are written whatever the verdict: a failed build's links.json is how the editor finds the broken link.
  const reportsDir = path.resolve(options.reportsDir);
  await mkdir(reportsDir, { recursive: true });
  await writeFile(path.join(reportsDir, 'links.json'), json({ ...links, brokenLinks: broken, unsafeLinks: unsafe }));
  await writeFile(path.join(reportsDir, 'build-routes.json'), json(buildRoutesReport(plan, facts, ctx.checkDiagnostics, outDir)));
  ctx.lap('reports');
  let bytes = 0;
  for (const p of rendered.errorPages.pages) bytes += p.bytes;
  for (const f of facts) bytes += f.bytes;
  return { diagnostics, failedAt: broken.length + unsafe.length > 0 ? 'links' : undefined, links, written: files, bytes, unchanged: rendered.unchanged };
}

/**
 * Promise.all that waits for every promise to settle before rejecting with
 * the first error: nothing is still writing into the temporary folder when
 * the caller removes it, and no rejection goes unobserved.
 */
async function allSettledOrThrow<T extends readonly unknown[]>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/**
 * The catalogue as the workers get it: the lean catalogue's plain data (its
 * WeakMaps do not serialize), and its routes without their meta. A worker
 * reads a route's title, description and keywords only while rendering that
 * route, from the route its job brings; in the snapshot they were a fifth of
 * its bytes at 100,000 routes, and 40 MB of the worker's heap.
 */
export function workerCatalogue(catalogue: Catalogue): Omit<Catalogue, 'sourceOf' | 'bodies'> {
  const { sourceOf: _notClonable, bodies: _notNeeded, ...plain } = catalogue;
  // One object for every route: the serializer writes it once.
  const noMeta: RouteRecord['meta'] = { title: '', description: '', keywords: '' };
  return { ...plain, routes: plain.routes.map((route) => ({ ...route, meta: noMeta })) };
}

/** A detail route → where its entity's body is (see RouteJob.body). */
function detailBody(catalogue: Catalogue): (route: RouteRecord) => BodySource | undefined {
  const bodies = catalogue.bodies;
  if (bodies === undefined) throw new Error('the build renders from a lean catalogue (checkDataDir with lean: true)');
  const entries = (list: Array<{ id: string }>) => new Map(list.map((e): [string, BodySource | undefined] => [e.id, bodies.get(e)]).reverse());
  const products = entries(catalogue.products);
  const articles = entries(catalogue.articles);
  const news = entries(catalogue.news);
  return (route) => {
    const source = route.screen === 'product' ? products : route.screen === 'article' ? articles : route.screen === 'news-detail' ? news : undefined;
    const ref = source?.get(route.nodeid);
    // Only what the reader needs: the search text and links stay on this thread.
    return ref && { path: ref.path, digest: ref.digest, field: ref.field };
  };
}

interface Rendered {
  facts: PageFacts[];
  failures: RenderFailure[];
  tally: LinkTally;
  unsafe: Array<[string, number]>;
  errorPages: ErrorPagesResult;
  /** Artwork files written, relative to the output folder. */
  artwork: string[];
  unchanged: BuildResult['unchanged'];
}

/**
 * Streams the plan through the pool with a bounded number of batches in
 * flight (memory stays flat however large the catalogue), then the error pages
 * and the product artwork. Stops handing out work after the first failure.
 */
async function renderAll(
  pool: RenderPool,
  plan: readonly PlannedRoute[],
  catalogue: Catalogue,
  held: ReadonlySet<string>,
  stamps: PageStamps,
  onProgress?: (done: number, total: number) => void,
): Promise<Rendered> {
  const productCount = catalogue.products.length;
  const bodyOf = detailBody(catalogue);
  const facts: PageFacts[] = new Array(plan.length);
  const failures: RenderFailure[] = [];
  const tally: LinkTally = new Map();
  const unsafe: Array<[string, number]> = [];
  const unchanged = { pages: 0, byStamp: 0 };
  const size = batchSizeFor(plan.length, pool.threads);
  let next = 0;
  let done = 0;

  const takeBatch = (): RouteJob[] => {
    const jobs = plan.slice(next, next + size).map(({ index, route, file, twin }): RouteJob => {
      const job: RouteJob = { index, route, file, body: bodyOf(route) };
      if (!held.has(file)) job.fresh = true;
      if (twin) job.twin = true;
      const previous = stamps.previous.get(file);
      if (previous !== undefined) {
        if (job.fresh !== true) job.previous = previous;
        stamps.previous.delete(file); // handed out: the map shrinks as the pages go
      }
      return job;
    });
    next += jobs.length;
    return jobs;
  };
  let crashed = false;
  const lane = async (): Promise<void> => {
    for (let jobs = takeBatch(); jobs.length > 0 && failures.length === 0 && !crashed; jobs = takeBatch()) {
      const result = await pool.run<RoutesResult>({ kind: 'routes', jobs }).catch((err: unknown) => {
        crashed = true; // the other lanes stop handing out work
        throw err;
      });
      for (const f of result.pages) facts[f.index] = f;
      failures.push(...result.failures);
      mergeTally(tally, result.links);
      unsafe.push(...result.unsafe);
      if (stamps.record !== undefined) for (const [i, stamp] of result.stamps) stamps.record(plan[i].file, stamp);
      unchanged.pages += result.unchanged;
      unchanged.byStamp += result.byStamp;
      done += jobs.length;
      onProgress?.(done, plan.length);
    }
  };
  const artworkSize = Math.max(1, Math.ceil(productCount / pool.threads));
  const artwork = Array.from({ length: Math.ceil(productCount / artworkSize) }, (_, i) =>
    pool.run<ArtworkResult>({ kind: 'artwork', from: i * artworkSize, to: Math.min(productCount, (i + 1) * artworkSize) }),
  );
  const errorPages = pool.run<ErrorPagesResult>({ kind: 'error-pages' });
  // One lane for the main thread and two per worker (one batch rendering, one waiting), all taking from the
  // same cursor: whichever thread is faster takes more. More lanes would queue the work in the pool up
  // front, and the main thread, which takes a batch only when it is free, would get almost none of it.
  const lanes = pool.workers * 2 + 1;
  const [, errors, art] = await allSettledOrThrow([allSettledOrThrow(Array.from({ length: lanes }, lane)), errorPages, allSettledOrThrow(artwork)] as const);
  mergeTally(tally, errors.links);
  for (const a of art) failures.push(...a.failures);
  const artworkFiles = art.flatMap((a) => a.files);
  unsafe.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  failures.sort((a, b) => a.index - b.index || (a.subject < b.subject ? -1 : 1));
  return { facts, failures, tally, unsafe, errorPages: errors, artwork: artworkFiles, unchanged };
}

function failureDiagnostic(f: RenderFailure, plan: readonly PlannedRoute[], routesFile: string): Diagnostic {
  if (f.index < 0) {
    return { code: 'build/render-failed', severity: 'error', file: routesFile, pointer: '', message: `${f.subject} failed to render: ${f.cause}` };
  }
  const p = plan[f.index];
  return {
    code: 'build/render-failed',
    severity: 'error',
    file: routesFile,
    pointer: p.route.declarations[0] ?? '',
    message: `Route ${p.route.path} (screen "${p.route.screen}"${f.template ? `, template ${f.template}` : ''}) failed to render: ${f.cause}`,
  };
}

function brokenDiagnostic(b: BrokenLink, fileOfSource: (source: string) => string, outDir: string): Diagnostic {
  const first = b.sources[0] ?? '/';
  const file = fileOfSource(first);
  const more = b.references > 1 ? ` and ${b.references - 1} more page${b.references > 2 ? 's' : ''}` : '';
  return {
    code: 'build/broken-link',
    severity: 'error',
    file: shown(path.join(outDir, file)),
    pointer: '',
    message: `Link to ${b.target} (from ${first}${more}) resolves to no built file; fix the link or add the page it names.`,
  };
}

/** reports/build-routes.json (contract in CONTRACTS.md): what was built from which route, and the check codes about it. */
function buildRoutesReport(plan: readonly PlannedRoute[], facts: readonly PageFacts[], diagnostics: readonly Diagnostic[], outDir: string) {
  const codesAt = new Map<string, Set<string>>();
  for (const d of diagnostics) {
    if (!d.file.endsWith('routes.json')) continue;
    // `/12/meta/title` belongs to the declaration `/12`.
    const declaration = /^\/\d+/.exec(d.pointer)?.[0];
    if (declaration === undefined) continue;
    const set = codesAt.get(declaration) ?? new Set<string>();
    set.add(d.code);
    codesAt.set(declaration, set);
  }
  const outName = shown(outDir);
  return {
    routes: plan.map((p) => ({
      path: p.route.path,
      screen: p.route.screen,
      output: `${outName}/${p.file}`,
      indexable: facts[p.index].indexable,
      metaFallback: facts[p.index].metaFallback,
      warnings: [...new Set(p.route.declarations.flatMap((decl) => [...(codesAt.get(decl) ?? [])]))].sort(),
    })),
  };
}

/**
 * The photographs of each product and news item (not the generated artwork, which says nothing to an
 * image search), absolute, by entity id: what the sitemap's image extension lists for their pages.
 */
function photosByEntity(catalogue: Catalogue): Map<string, string[]> {
  const photos = new Map<string, string[]>();
  const { origin } = catalogue.site;
  for (const p of catalogue.products) if (p.images.length > 0) photos.set(p.id, photoUrls(origin, p.images));
  for (const n of catalogue.news) if (n.image) photos.set(n.id, photoUrls(origin, [n.image]));
  return photos;
}

/** A page's sitemap facts with the photographs of the product or news item it shows. */
function withPhotos<T extends object>(facts: T, route: { screen: string; nodeid: string }, photos: ReadonlyMap<string, string[]>): T & { images?: string[] } {
  const images = route.screen === 'product' || route.screen === 'news-detail' ? photos.get(route.nodeid) : undefined;
  return images?.length ? { ...facts, images } : facts;
}
