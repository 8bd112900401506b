/**
 * `site build` as a library call, phase by phase:
 * check → plan → prepare the output folder → render (pages, error pages,
 * artwork; search index, assets and images meanwhile) → site files → links →
 * reports → commit (swap into the output folder, or keep as the spare).
 * This module only sequences the phases and times them; each phase is a
 * module of its own beside it.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyStrict, countCatalogue } from '../check/report.js';
import { type CheckMemory, checkDataDir } from '../check/run.js';
import type { Catalogue } from '../core/catalogue.js';
import { countBySeverity, type Diagnostic } from '../core/diagnostics.js';
import { defaultCacheDir } from '../load/cache.js';
import { locateMany } from '../load/locate.js';
import { stopwatch } from './clock.js';
import { errorPageFallbackDiagnostic, failureDiagnostic, shown } from './diagnostics.js';
import { copyAssets, defaultClientDir, readAssetRefs } from './files/assets.js';
import { publishImages } from './files/images.js';
import { cachedSearchIndex, writeSearchIndexCached } from './files/search-cache.js';
import type { SearchIndexOutput } from './files/search-index.js';
import { doneWithSearchThread, indexInWorker, LAYOUT_BESIDE_PAGES, layoutInWorker } from './files/search-worker.js';
import { shareCardPng } from './files/share-card.js';
import { checkLinks } from './links/check.js';
import { keepAsSpare, prepareTempDir, recoverOutput, recycleSpare, removeUnwritten, swapIn, tempDirFor, type Inventory } from './output/atomic.js';
import { pagesToStat, type PageStatsTaken } from './output/page-stats.js';
import { foldersOf, twinFileOf } from './output/paths.js';
import { siteWriter } from './output/site-writer.js';
import type { Stock } from './output/stock.js';
import { stampRecorder, takeStamps } from './output/stamps.js';
import { pageDirs, planRoutes } from './plan.js';
import { detailBody, renderAll, workerCatalogue } from './render-pages.js';
import {
  globalKey,
  readRecord,
  RecordCollector,
  routeKey,
  routePart,
  routePartOf,
  writeRecord,
  type BuildRecord,
  type RecordedEntry,
} from './incremental/record.js';
import { takeOverPages, type TakenOver } from './incremental/reuse.js';
import { selectPages, type Selection } from './incremental/select.js';
import { keepStockTask, keptStockTask, stockTaskDigest, type PlannedStock } from './incremental/stock-task.js';
import { manifestFileOf, optionsKey, startVerifying, writeManifest, type Answer, type Verifying } from './incremental/up-to-date.js';
import { mergeTally } from './links/scan.js';
import { createRenderer, type Renderer } from './threads/worker.js';
import { writeReports } from './reports.js';
import { allSettledOrThrow } from './settle.js';
import { writeSiteFiles } from './site-files.js';
import { createRenderPool, type RenderPool } from './threads/pool.js';
import type { DigestsResult, PrepareResult } from './threads/protocol.js';
import { boundHeapGrowth, threadsFor } from './threads/sizing.js';
import { writeSnapshot } from './threads/snapshot.js';
import { STOCK_BESIDE_PAGES, takeKeptStockInThread, takeStockInThread } from './threads/stock-thread.js';
import { NO_LINKS, NONE_KEPT, type BuildOptions, type BuildResult, type LinkSummary, type PageStamps, type PlannedRoute } from './types.js';

export type { BuildOptions, BuildResult, LinkSummary } from './types.js';

/** The render API the threads import unless the caller names another (BuildOptions.renderModule). */
const RENDER_MODULE = new URL('../render/index.js', import.meta.url).href;

/**
 * What a build leaves in memory for the next build of the same data in one process (`site build --watch`): the
 * last check's results, used in place of decoding the same from the build cache (which is still written, for
 * the next process) whenever they are what it holds. Given it, a build knows another follows in this process:
 * the search index's thread stays up for it, and a large build's heap grows further between collections
 * (boundHeapGrowth). (The build record is read back from its file: held as the
 * build made it, 100,000 pages' entries as as many small arrays, it cost the collector more time in the phases
 * after than reading it saved.)
 */
export interface BuildMemory {
  check: CheckMemory;
}

export async function buildSite(options: BuildOptions, memory?: BuildMemory): Promise<BuildResult> {
  const clock = stopwatch();
  const outDir = path.resolve(options.outDir);
  const resident = memory !== undefined;
  type Outcome = Answer;
  let checkFiles: BuildResult['checkFiles'] = { validated: 0, reused: 0, read: 0 };
  const finish = (outcome: Outcome): BuildResult => {
    const counts = countBySeverity(outcome.diagnostics);
    return { ...outcome, checkFiles, errors: counts.error, warnings: counts.warning, seconds: clock.seconds(), outDir, timings: clock.timings };
  };

  // Before anything else: an earlier build killed during its swap may have left no output (output/atomic.ts).
  await recoverOutput(outDir);
  // The bundle is checked next: without it nothing can be built, and the fix is one command.
  const clientDir = options.clientDir ?? defaultClientDir();
  const assets = readAssetRefs(clientDir);

  const snapshot = path.join(tmpdir(), `site-build-${process.pid}-${Date.now()}.catalogue`);
  const tmp = tempDirFor(outDir);
  // Where the pages' stamps and the build record are kept between builds (output/stamps.ts, incremental/record.ts);
  // none outside a package (a cold CI checkout run elsewhere), nor under --no-cache.
  const cacheDir = options.cache === false ? undefined : defaultCacheDir();
  const renderModule = options.renderModule ?? RENDER_MODULE;
  const config = { snapshot, outDir: tmp, assets, renderModule, stamps: cacheDir !== undefined, record: cacheDir !== undefined };
  const htmlTwins = options.htmlTwins !== false;
  const code = { renderModule, assets, htmlTwins };
  const outputOptions = optionsKey({
    strict: options.strict === true,
    searchIndex: options.searchIndex !== false,
    dataDir: options.dataDir,
    reportsDir: options.reportsDir,
  });
  // Whether the output is still exactly what the last build left (incremental/up-to-date.ts): a large one's compared beside the check.
  const verifying: Verifying | undefined = cacheDir === undefined || options.saved === true ? undefined : startVerifying(cacheDir, outDir, code);
  // Threads asked for: the workers start now, so that importing React and the templates overlaps the check.
  let pool: RenderPool | undefined = options.concurrency === undefined ? undefined : createRenderPool(config, options.concurrency);
  let preparing: ReturnType<typeof prepareTempDir> | undefined;
  let stockBeside: Promise<Stock> | undefined;
  // The spare's stock, taken with the last build's task from the moment the check finds the data changed
  // (incremental/stock-task.ts): a large one-shot build's, when the last one kept its task.
  let early: { stock: Promise<Stock>; digest: string } | undefined;
  const onKey = (key: string | undefined, changed: boolean): void => {
    verifying?.dataKey(key);
    if (!changed || cacheDir === undefined || resident) return;
    const kept = keptStockTask(cacheDir, outDir);
    const recycled = kept === undefined ? null : recycleSpare(outDir);
    if (kept === undefined || recycled === null) return;
    preparing = Promise.resolve(recycled);
    early = { stock: takeKeptStockInThread(recycled.tmp, kept.file, manifestFileOf(cacheDir, recycled.tmp)), digest: kept.digest };
    early.stock.catch(() => undefined); // awaited at the prepare phase, or before the spare is put back
  };
  // The build cache's writes the output does not wait for: at once, unless the caller takes them (BuildOptions.later).
  const later = options.later ?? ((write: () => void) => write());
  try {
    // check
    const checked = await checkDataDir(options.dataDir, { lean: true, cacheDir: cacheDir ?? false, onKey, later, memory: memory?.check });
    clock.lap('check');
    checkFiles = { validated: checked.validated, reused: checked.reused, read: checked.read };

    // nothing changed: the same data, code and options, and an output as the last build left it
    if (verifying !== undefined) {
      const unchanged = checked.key === undefined ? (verifying.stop(), null) : await verifying.answer(checked.key);
      if (unchanged !== null && unchanged.options === outputOptions) {
        clock.lap('verify');
        const routePages = unchanged.answer.rendered + unchanged.answer.reused;
        return finish({ ...unchanged.answer, rendered: 0, reused: routePages, unchanged: { pages: routePages, byStamp: routePages } });
      }
    }
    // Under --strict a warning is an error, exactly as `site check --strict` reports it.
    const checkDiagnostics = applyStrict(checked.diagnostics, options.strict === true);
    const checkCounts = countCatalogue(checked.sizes, checked.routes, checkDiagnostics);

    // plan
    const routesFile = shown(path.join(path.resolve(options.dataDir), 'routes.json'));
    const { plan, diagnostics: planDiagnostics } = planRoutes(checked.routes, routesFile, htmlTwins);
    const diagnostics = [...checkDiagnostics, ...planDiagnostics];
    if (checked.catalogue === null || diagnostics.some((d) => d.severity === 'error')) {
      return finish({
        ok: false,
        failedAt: 'check',
        diagnostics,
        checkCounts,
        pages: 0,
        files: 0,
        bytes: 0,
        links: NO_LINKS,
        unchanged: NONE_KEPT,
        rendered: 0,
        reused: 0,
      });
    }
    const catalogue = checked.catalogue;

    // incremental: the pages whose inputs did not change since the last build into this folder are taken over
    const bodyOf = detailBody(catalogue);
    const global = cacheDir === undefined ? '' : globalKey({ renderModule, assets, htmlTwins, origin: catalogue.site.origin });
    const previous = cacheDir === undefined ? undefined : readRecord(cacheDir, outDir, global);
    // Asked for by the selection and again by the new record: each route's key is made once. Planned from the same
    // registry (and by the same code: the record's global key), a page's route part is its last entry's.
    const { registry } = checked;
    const samePlan = registry !== undefined && previous?.registry === registry;
    const routeKeys: Array<string | undefined> = [];
    const keyOf = (planned: PlannedRoute, last?: RecordedEntry) =>
      (routeKeys[planned.index] ??= routeKey(samePlan && last !== undefined ? routePartOf(last.route) : routePart(planned), bodyOf(planned.route)?.digest));
    let mainRenderer: Renderer | undefined;
    let selection: Selection | undefined;
    let digests: string[] | undefined;
    let searchIndex: Promise<SearchIndexOutput> | undefined;
    const dirs = pageDirs(plan);
    const large = cacheDir !== undefined && !resident && plan.length >= (options.stockBeside ?? STOCK_BESIDE_PAGES);
    const beside = large && previous !== undefined;
    // What a large build's stock is taken for, and its digest: kept for the next build (incremental/stock-task.ts).
    const planned = large ? plannedStock(dirs, htmlTwins, plan) : undefined;
    if (early !== undefined && (!beside || early.digest !== planned?.digest)) {
      // Taken for another plan, or for a build that takes stock otherwise (a full one): taken again, once the
      // early one has made its folders.
      await early.stock.catch(() => undefined);
      early = undefined;
    }
    if (beside && cacheDir !== undefined && planned !== undefined) {
      // A large one-shot incremental build takes stock of the spare in a thread of its own beside the selection
      // (see threads/stock-thread.ts); other builds take it at the prepare phase, with the render threads.
      preparing ??= prepareTempDir(outDir);
      const { recycled } = await preparing;
      if (early !== undefined) stockBeside = early.stock;
      else if (recycled) {
        const manifest = manifestFileOf(cacheDir, tmp);
        stockBeside = takeStockInThread(tmp, { recycled, dirs, part: 0, parts: 1, twins: htmlTwins, manifest, pages: planned.plan.pages });
        stockBeside.catch(() => undefined); // awaited at the prepare phase; must not go unobserved meanwhile
      }
    }
    if (previous !== undefined) {
      // An incremental build's main thread renders little: the search index (a shard indexed again, when a
      // document changed) starts now, in a thread of its own, beside the selection and the take-over.
      if (options.searchIndex !== false) {
        // A large one-shot build's layout is made in the search thread too, while this one selects. Not a resident
        // build's: the thread it keeps between saves would keep the layout's heap too (278 MB more at 100,000 routes).
        const inThread = !resident && plan.length >= (options.layoutBeside ?? LAYOUT_BESIDE_PAGES);
        searchIndex = cachedSearchIndex(
          catalogue,
          plan.map((p) => p.route),
          cacheDir,
          checked.key,
          (tasks) => indexInWorker(tasks, resident),
          later,
          inThread ? layoutInWorker : undefined,
        );
        if (inThread) searchIndex = searchIndex.finally(doneWithSearchThread);
        searchIndex.catch(() => undefined); // awaited with the other files; must not go unobserved meanwhile
      }
      mainRenderer = createRenderer(config, catalogue);
      ({ digests } = (await mainRenderer({ kind: 'digests', names: previous.names })) as DigestsResult);
      selection = selectPages(plan, previous, digests, keyOf);
      clock.lap('select');
      // The selection ran without a turn of the event loop: what the threads answered meanwhile (the search index's
      // layout) is taken now, so that the shards to make are indexed during the take-over, not after it.
      await new Promise(setImmediate);
    }
    // Bounded from here, not from the plan: until now the heap only grew by what the build holds to its end (the
    // check's catalogue, the last record, the model), and a full collection at every 15 % of that growth found
    // little to free (docs/PERFORMANCE.md, "The search index's places, and the heap bounded after the selection").
    boundHeapGrowth(plan.length, resident);
    pool ??= createRenderPool(config, threadsFor(selection?.render.length ?? plan.length));
    const threads = pool;

    // prepare: the temporary folder (the spare of the last build, when there is one) and its inventory
    preparing ??= prepareTempDir(outDir);
    const { recycled } = await preparing;
    const stamps = recycled && cacheDir !== undefined ? takeStamps(cacheDir, tmp) : new Map<string, string>();
    const recorder = cacheDir === undefined ? undefined : stampRecorder(cacheDir, tmp);
    // Unless taken beside the selection, every render thread takes stock of its share of the folder (see ownerOf in
    // output/atomic.ts): the workers at once, this thread once it has written their snapshot.
    // What the spare held when it was last the output, when a manifest says so: only its folders changed since are listed.
    const manifest = recycled && cacheDir !== undefined && stockBeside === undefined ? manifestFileOf(cacheDir, tmp) : undefined;
    const prepare = (part: number) => threads.run<PrepareResult>({ kind: 'prepare', recycled, dirs, part, parts: threads.threads, twins: htmlTwins, manifest });
    const shares = stockBeside === undefined ? Array.from({ length: threads.workers }, (_, part) => prepare(part)) : [];
    for (const share of shares) share.catch(() => undefined); // awaited below; a failed snapshot write must not leave them unobserved
    threads.startMainThread(catalogue, mainRenderer);
    try {
      if (threads.workers > 0) writeSnapshot(snapshot, workerCatalogue(catalogue));
      const held = stockBeside === undefined ? await allSettledOrThrow([...shares, prepare(threads.workers)]) : [await stockBeside];
      const inventory: Inventory = { files: new Set(held.flatMap((h) => h.files)), dirs: new Set(held.flatMap((h) => h.dirs)) };
      const { pageStats } = held[0];
      clock.lap('prepare');

      const built = await emitAll({
        options,
        pool: threads,
        plan,
        catalogue,
        clientDir,
        tmp,
        outDir,
        routesFile,
        checkDiagnostics: diagnostics,
        lap: clock.lap,
        checkKey: checked.key,
        held: inventory.files,
        pageStats,
        stamps: { previous: stamps, record: recorder?.add },
        cacheDir,
        searchIndex,
        resident,
        bodyOf,
        incremental:
          cacheDir === undefined
            ? undefined
            : { previous, selection, collector: new RecordCollector(plan, keyOf, previous, { digests, again: selection?.again }) },
      });
      const all = [...diagnostics, ...built.diagnostics];

      // commit
      const blocking = (d: Diagnostic) => d.severity === 'error' || (options.strict === true && d.severity === 'warning');
      if (all.some(blocking)) {
        recorder?.drop();
        // Not deleted: the next build writes into it (see output/atomic.ts).
        await keepAsSpare(tmp, outDir);
        return finish({
          ok: false,
          failedAt: built.failedAt ?? 'render',
          diagnostics: all,
          checkCounts,
          pages: 0,
          files: 0,
          bytes: 0,
          links: built.links,
          unchanged: NONE_KEPT,
          rendered: built.rendered,
          reused: 0,
        });
      }
      // Asked for by the removal and by the manifest: the folders of every file written, made once.
      const folders = foldersOf(built.written);
      removeUnwritten(tmp, inventory, built.written, folders);
      const aside = await swapIn(tmp, outDir);
      recorder?.keep();
      const record = built.record;
      if (cacheDir !== undefined && record !== undefined) later(() => writeRecord(cacheDir, outDir, { global, registry, ...record }, previous));
      if (cacheDir !== undefined && !resident)
        later(() => keptStockTask(cacheDir, outDir)?.digest !== planned?.digest && keepStockTask(cacheDir, outDir, planned));
      if (aside !== null) await keepAsSpare(aside, outDir);
      clock.lap('swap');
      const answer: Answer = {
        ok: true,
        diagnostics: all,
        checkCounts,
        pages: built.links.pages,
        files: built.written.size,
        bytes: built.bytes,
        links: built.links,
        unchanged: built.unchanged,
        rendered: built.rendered,
        reused: built.reused,
      };
      if (cacheDir !== undefined && checked.key !== undefined) {
        // A page's twin is a hard link to it, so its stat is the page's; where it is a copy instead (a file system
        // without hard links) the next build's comparison fails and the build runs, as it must.
        const stamps = new Map((built.record?.entries ?? []).map((e) => [e.file, e.stamp]));
        for (const [file, stamp] of built.fileStamps ?? []) stamps.set(file, stamp);
        for (const p of plan) if (p.twin && stamps.has(p.file)) stamps.set(twinFileOf(p.file)!, stamps.get(p.file)!);
        const check = checked.key;
        later(() => writeManifest(cacheDir, outDir, { code, check, options: outputOptions }, answer, built.written, stamps, built.reports, folders));
        clock.lap('manifest');
      }
      return finish(answer);
    } catch (err) {
      recorder?.drop();
      // Stop every writer before putting their folder away; the original error is the one to report.
      await Promise.all([threads.destroy().catch(() => undefined), stockBeside?.catch(() => undefined)]);
      await keepAsSpare(tmp, outDir).catch(() => undefined);
      throw err;
    }
  } finally {
    verifying?.stop();
    await Promise.all([pool?.destroy(), rm(snapshot, { force: true })]);
    // A folder taken from the spare and never used (the output was up to date, the check failed or threw, before
    // the render): put back, once nothing writes in it. A used one is the output or the spare by now.
    const prepared = preparing === undefined ? null : await preparing.catch(() => null);
    await Promise.all([stockBeside?.catch(() => undefined), early?.stock.catch(() => undefined)]);
    if (prepared !== null && existsSync(prepared.tmp)) await keepAsSpare(prepared.tmp, outDir).catch(() => undefined);
  }
}

/** A large build's stock task (see incremental/stock-task.ts) for its plan, and the task's digest. */
function plannedStock(dirs: readonly string[], twins: boolean, plan: readonly PlannedRoute[]): { plan: PlannedStock; digest: string } {
  const planned: PlannedStock = { dirs, twins, pages: pagesToStat(plan) };
  return { plan: planned, digest: stockTaskDigest(planned) };
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
  /** The stats of the folder's pages, when its stock was taken whole in a thread of its own (see output/page-stats.ts). */
  pageStats?: PageStatsTaken;
  stamps: PageStamps;
  /** The build cache folder (check results, search index, image copies, stamps, record); none under --no-cache. */
  cacheDir: string | undefined;
  /** The search index, when started before the render phase (an incremental build). */
  searchIndex?: Promise<SearchIndexOutput>;
  /** Another build follows in this process (see BuildMemory): the search index's thread stays up. */
  resident: boolean;
  /** With a cache folder: the last build's record and what it selected (when it could be used), and the new record. */
  incremental?: { previous?: BuildRecord; selection?: Selection; collector: RecordCollector };
  /** A detail route → where its entity's body is (detailBody of the catalogue), made once for the selection and the render. */
  bodyOf: ReturnType<typeof detailBody>;
}

interface Emitted {
  diagnostics: Diagnostic[];
  failedAt?: 'render' | 'links';
  links: LinkSummary;
  /** Every file written into the temporary folder, relative to it. */
  written: Set<string>;
  bytes: number;
  unchanged: BuildResult['unchanged'];
  rendered: number;
  reused: number;
  /** The new build record, when every page has its entry (see RecordCollector). */
  record?: Omit<BuildRecord, 'folder' | 'format' | 'global'>;
  /** The report files written (absolute). */
  reports: string[];
  /** The stamps of files other than pages, as written (the product artwork): the manifest takes their stat from them. */
  fileStamps?: ReadonlyArray<[string, string]>;
}

/** Everything that goes into the temporary folder, and the reports; says what went wrong, never throws for content. */
async function emitAll(ctx: EmitContext): Promise<Emitted> {
  const { options, plan, catalogue, tmp, outDir } = ctx;
  const writer = siteWriter(tmp);

  // take over the pages an incremental build need not render (copied or kept in the temporary folder), then
  // render the others, with the search index, the bundle's assets and the catalogue's images written meanwhile
  const { previous, selection, collector } = ctx.incremental ?? {};
  let taken: TakenOver | undefined;
  let only: PlannedRoute[] | undefined;
  if (previous !== undefined && selection !== undefined && collector !== undefined) {
    taken = takeOverPages(tmp, outDir, selection.reuse, ctx.held, ctx.stamps, previous, collector, ctx.pageStats);
    only = [...selection.render, ...taken.failed].sort((a, b) => a.index - b.index);
    ctx.lap('take-over');
  }
  const rendering = renderAll(ctx.pool, plan, catalogue, ctx.held, ctx.stamps, options.onProgress, { only, collector }, ctx.bodyOf);
  const shareCard = shareCardPng(catalogue.site, ctx.cacheDir);
  shareCard.catch(() => undefined); // awaited with the site files; a failed render must not go unobserved meanwhile
  // The search index needs the bodies the workers do not have: the main thread makes its documents while they
  // render. When the main thread renders alone, MiniSearch indexes them on the core that would otherwise wait;
  // when every core renders, a third thread would add its own heap and no core.
  const indexInThread = ctx.pool.workers === 0;
  const searchIndex =
    options.searchIndex === false
      ? Promise.resolve([])
      : ctx.searchIndex !== undefined
        ? ctx.searchIndex.then((out) => writer.write(out.files))
        : new Promise(setImmediate).then(async () =>
            (
              await writeSearchIndexCached(
                writer,
                catalogue,
                plan.map((p) => p.route),
                ctx.cacheDir,
                ctx.checkKey,
                indexInThread,
                ctx.resident,
              )
            ).files.map((f) => f.path),
          );
  const [rendered, searchFiles, assetFiles, imageFiles] = await allSettledOrThrow([
    rendering,
    searchIndex,
    copyAssets(ctx.clientDir, writer),
    publishImages(writer, catalogue.images, ctx.cacheDir),
  ] as const);
  // Every page is written: the workers' memory (each its own copy of the catalogue and model) goes now, not after the reports.
  await ctx.pool.destroy();
  if (taken !== undefined) {
    for (const f of taken.facts) rendered.facts[f.index] = f;
    mergeTally(rendered.tally, taken.links);
    rendered.unsafe.push(...taken.unsafe);
    rendered.unsafe.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    rendered.unchanged.pages += taken.kept;
    rendered.unchanged.byStamp += taken.byStamp;
  }
  const renderedPages = only?.length ?? plan.length;
  ctx.lap('render');
  const failed = rendered.failures.map((f) => failureDiagnostic(f, plan, ctx.routesFile));
  // Line and column of each failing route's declaration, so an editor jumps straight to it.
  const positions = locateMany(
    ctx.routesFile,
    failed.map((d) => d.pointer),
  );
  const diagnostics: Diagnostic[] = failed.map((d, i) => (d.pointer === '' ? d : { ...d, ...positions[i] }));
  for (const page of rendered.errorPages.pages) if (page.failure !== null) diagnostics.push(errorPageFallbackDiagnostic(page.file, page.failure.cause, outDir));
  if (rendered.failures.length > 0)
    return {
      diagnostics,
      failedAt: 'render',
      links: NO_LINKS,
      written: new Set(),
      bytes: 0,
      unchanged: NONE_KEPT,
      rendered: renderedPages,
      reused: 0,
      reports: [],
    };

  // site files
  const siteFiles = await writeSiteFiles(writer, catalogue, plan, rendered.facts, await shareCard, ctx.cacheDir);
  ctx.lap('sitemap');

  // links, against everything this build wrote (every writer reports its files): no walk over a folder of 100,000 pages
  const errorFiles = rendered.errorPages.pages.map((p) => p.file);
  const files = new Set([
    ...plan.flatMap((p) => (p.twin ? [p.file, twinFileOf(p.file)!] : [p.file])),
    ...errorFiles,
    ...rendered.artwork,
    ...assetFiles,
    ...imageFiles,
    ...searchFiles,
    ...siteFiles,
  ]);
  const links = checkLinks(rendered.tally, rendered.unsafe, plan, errorFiles.length, files, outDir);
  diagnostics.push(...links.diagnostics);
  ctx.lap('links');

  // reports
  const reports = await writeReports(options.reportsDir, links, plan, rendered.facts, ctx.checkDiagnostics, outDir);
  ctx.lap('reports');

  // the new record: the hash of every name a page read (the selection hashed the last record's)
  let record: Emitted['record'];
  if (collector?.complete() === true) {
    const unhashed = collector.unhashedNames();
    const { digests } = unhashed.length === 0 ? { digests: [] } : await ctx.pool.run<DigestsResult>({ kind: 'digests', names: unhashed });
    const { global: _unset, ...rest } = collector.finish('', digests);
    record = rest;
  }
  let bytes = 0;
  for (const p of rendered.errorPages.pages) bytes += p.bytes;
  for (const f of rendered.facts) bytes += f.bytes;
  return {
    diagnostics,
    failedAt: links.broken.length + links.unsafe.length > 0 ? 'links' : undefined,
    links: links.links,
    written: files,
    bytes,
    unchanged: rendered.unchanged,
    rendered: renderedPages,
    reused: plan.length - renderedPages,
    record,
    fileStamps: rendered.artworkStamps,
    reports,
  };
}
