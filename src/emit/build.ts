/**
 * `site build` as a library call: load → check → render in worker threads →
 * emit (404, artwork, assets, sitemap, robots, search index) → link check →
 * atomic swap into the output folder → reports.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { countBySeverity, type Diagnostic } from '../core/diagnostic.js';
import { checkCatalogue, resolveRoutes, type ResolvedRoute } from '../check/index.js';
import { loadCatalogue } from '../load/index.js';
import { createRenderPool, batchSizeFor, defaultConcurrency, type RenderPool } from '../render/pool.js';
import type { ArtworkResult, NotFoundResult, PageFacts, RenderFailure, RouteJob, RoutesResult } from '../render/protocol.js';
import { copyAssets, defaultClientDir, readAssetRefs } from './assets.js';
import { createTempDir, removeInBackground, staleSiblings, swapIn } from './atomic.js';
import { findBroken, mergeTally, type BrokenLink, type LinkTally } from './links.js';
import { safeOutputFile, UnsafePathError } from './paths.js';
import { writeSearchIndex } from './search-index.js';
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
  /** HTML pages written: one per resolved route, plus 404.html. */
  pages: number;
  /** Every file of the new output folder. */
  files: number;
  bytes: number;
  links: LinkSummary;
  errors: number;
  warnings: number;
  seconds: number;
  outDir: string;
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
}

/** Resolved routes → render jobs, refusing (again) any output that could leave the output folder. */
export function planRoutes(resolved: readonly ResolvedRoute[], routesFile: string): { plan: PlannedRoute[]; diagnostics: Diagnostic[] } {
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
  return { plan, diagnostics };
}

/** Every file under `dir`, relative, forward slashes. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => posix(path.relative(dir, path.join(e.parentPath, e.name))));
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const outDir = path.resolve(options.outDir);
  const reportsDir = path.resolve(options.reportsDir);
  const seconds = () => Math.round((performance.now() - started) / 10) / 100;
  const emptyLinks: LinkSummary = { pages: 0, references: 0, targets: 0, broken: 0, unsafe: 0 };
  const finish = (partial: Omit<BuildResult, 'errors' | 'warnings' | 'seconds' | 'outDir'>): BuildResult => {
    const counts = countBySeverity(partial.diagnostics);
    return { ...partial, errors: counts.error, warnings: counts.warning, seconds: seconds(), outDir };
  };

  // The bundle is checked first: without it nothing can be built, and the fix is one command.
  const clientDir = options.clientDir ?? defaultClientDir();
  const assets = readAssetRefs(clientDir);

  const loaded = await loadCatalogue(options.dataDir);
  if (loaded.catalogue === null) {
    return finish({ ok: false, failedAt: 'check', diagnostics: loaded.diagnostics, pages: 0, files: 0, bytes: 0, links: emptyLinks });
  }
  const catalogue = loaded.catalogue;
  const checkDiagnostics = [...loaded.diagnostics, ...checkCatalogue(catalogue)];
  const routesFile = posix(path.join(shown(path.resolve(options.dataDir)), 'routes.json'));
  const { plan, diagnostics: planDiagnostics } = planRoutes(resolveRoutes(catalogue), routesFile);
  const diagnostics = [...checkDiagnostics, ...planDiagnostics];
  const blocking = (d: Diagnostic) => d.severity === 'error' || (options.strict === true && d.severity === 'warning');
  if (diagnostics.some(blocking)) {
    return finish({ ok: false, failedAt: 'check', diagnostics, pages: 0, files: 0, bytes: 0, links: emptyLinks });
  }

  const stale = await staleSiblings(outDir);
  removeInBackground(stale);
  const tmp = await createTempDir(outDir);
  const threads = Math.max(1, Math.min(options.concurrency ?? defaultConcurrency(), Math.ceil(plan.length / 8) || 1));
  const pool = createRenderPool(
    { dataDir: path.resolve(options.dataDir), outDir: tmp, assets, renderModule: options.renderModule ?? new URL('../render/model.js', import.meta.url).href },
    threads,
  );
  try {
    const rendered = await renderAll(pool, plan, catalogue.products.length, options.onProgress);
    const failures = rendered.failures;
    const assetFiles = await copyAssets(clientDir, tmp);
    if (options.searchIndex !== false) {
      await writeSearchIndex(tmp, catalogue, plan.map((p) => p.route));
    }
    void assetFiles;

    const buildDiagnostics: Diagnostic[] = failures.map((f) => failureDiagnostic(f, plan, routesFile));
    if (rendered.notFound?.failure) {
      buildDiagnostics.push({
        code: 'build/not-found-fallback',
        severity: 'warning',
        file: shown(path.join(outDir, '404.html')),
        pointer: '',
        message: `The 404 template failed (${rendered.notFound.failure.cause}); the minimal error page was written instead. Fix the template and rebuild.`,
      });
    }
    if (failures.length > 0) {
      await rm(tmp, { recursive: true, force: true });
      return finish({ ok: false, failedAt: 'render', diagnostics: [...diagnostics, ...buildDiagnostics], pages: 0, files: 0, bytes: 0, links: emptyLinks });
    }

    const facts = rendered.facts;
    const sitemapFiles = await writeSitemap(tmp, catalogue.site.origin, sitemapEntries(plan.map((p) => facts[p.index])));
    await writeFile(path.join(tmp, 'robots.txt'), robotsTxt(catalogue.site.origin));
    void sitemapFiles;

    // Links resolve against what was really written, search index included.
    const files = await listFiles(tmp);
    const fileSet = new Set(files);
    const pathOfSource = (i: number) => (i < 0 ? '/404.html' : plan[i].route.path);
    const fileByPath = new Map(plan.map((p) => [p.route.path, p.file]));
    const fileOfSource = (source: string) => fileByPath.get(source) ?? '404.html';
    const broken = findBroken(rendered.tally, fileSet, pathOfSource);
    const unsafe = rendered.unsafe.map(([ref, i]) => ({ reference: ref, source: pathOfSource(i) }));
    for (const b of broken) buildDiagnostics.push(brokenDiagnostic(b, fileOfSource, outDir));
    for (const u of unsafe) {
      buildDiagnostics.push({
        code: 'build/unsafe-link',
        severity: 'error',
        file: shown(path.join(outDir, fileOfSource(u.source))),
        pointer: '',
        message: `The page links to "${u.reference.slice(0, 80)}", a URL scheme that runs code; only http, https, mailto, tel and relative links are allowed.`,
      });
    }
    const links: LinkSummary = {
      pages: plan.length + 1,
      references: [...rendered.tally.values()].reduce((n, t) => n + t.count, 0),
      targets: rendered.tally.size,
      broken: broken.length,
      unsafe: unsafe.length,
    };
    await mkdir(reportsDir, { recursive: true });
    await writeFile(path.join(reportsDir, 'links.json'), json({ ...links, brokenLinks: broken, unsafeLinks: unsafe }));
    await writeFile(path.join(reportsDir, 'build-routes.json'), json(buildRoutesReport(plan, facts, diagnostics, outDir)));

    const all = [...diagnostics, ...buildDiagnostics];
    if (all.some(blocking)) {
      await rm(tmp, { recursive: true, force: true });
      return finish({ ok: false, failedAt: broken.length + unsafe.length > 0 ? 'links' : 'render', diagnostics: all, pages: 0, files: 0, bytes: 0, links });
    }
    const bytes = facts.reduce((n, f) => n + (f?.bytes ?? 0), 0) + (rendered.notFound?.bytes ?? 0);
    const aside = await swapIn(tmp, outDir);
    if (aside !== null) removeInBackground([aside]);
    return finish({ ok: true, diagnostics: all, pages: plan.length + 1, files: files.length, bytes, links });
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  } finally {
    await pool.destroy();
  }
}

interface Rendered {
  facts: PageFacts[];
  failures: RenderFailure[];
  tally: LinkTally;
  unsafe: Array<[string, number]>;
  notFound: NotFoundResult | null;
}

/**
 * Streams the plan through the pool with a bounded number of batches in
 * flight (memory stays flat however large the catalogue), then the 404 page
 * and the product artwork. Stops handing out work after the first failure.
 */
async function renderAll(pool: RenderPool, plan: readonly PlannedRoute[], productCount: number, onProgress?: (done: number, total: number) => void): Promise<Rendered> {
  const facts: PageFacts[] = new Array(plan.length);
  const failures: RenderFailure[] = [];
  const tally: LinkTally = new Map();
  const unsafe: Array<[string, number]> = [];
  const size = batchSizeFor(plan.length, pool.threads);
  let next = 0;
  let done = 0;

  const takeBatch = (): RouteJob[] => {
    const jobs = plan.slice(next, next + size).map(({ index, route, file }) => ({ index, route, file }));
    next += jobs.length;
    return jobs;
  };
  const lane = async (): Promise<void> => {
    for (let jobs = takeBatch(); jobs.length > 0 && failures.length === 0; jobs = takeBatch()) {
      const result = await pool.run<RoutesResult>({ kind: 'routes', jobs });
      for (const f of result.pages) facts[f.index] = f;
      failures.push(...result.failures);
      mergeTally(tally, result.links);
      unsafe.push(...result.unsafe);
      done += jobs.length;
      onProgress?.(done, plan.length);
    }
  };
  const artworkSize = Math.max(1, Math.ceil(productCount / pool.threads));
  const artwork = Array.from({ length: Math.ceil(productCount / artworkSize) }, (_, i) =>
    pool.run<ArtworkResult>({ kind: 'artwork', from: i * artworkSize, to: Math.min(productCount, (i + 1) * artworkSize) }),
  );
  const notFound = pool.run<NotFoundResult>({ kind: 'not-found' });
  // Two batches per thread in flight: one rendering, one queued, so no worker waits on the main thread.
  await Promise.all(Array.from({ length: pool.threads * 2 }, lane));
  const nf = await notFound;
  mergeTally(tally, nf.links);
  for (const a of await Promise.all(artwork)) failures.push(...a.failures);
  unsafe.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  failures.sort((a, b) => a.index - b.index || (a.subject < b.subject ? -1 : 1));
  return { facts, failures, tally, unsafe, notFound: nf };
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
    message: `Route ${p.route.path} (screen "${p.route.screen}") failed to render: ${f.cause}`,
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
