/**
 * The render phase: the plan streamed through the render threads, which
 * render each page and write it (see threads/worker.ts), then the error
 * pages and the product artwork. What comes back is what the later phases
 * need: each page's facts, the links it holds, its stamp, and any failure.
 */
import type { Catalogue } from '../core/catalogue.js';
import type { RouteRecord } from '../core/schema.js';
import { mergeTally, type LinkTally } from './links/scan.js';
import { allSettledOrThrow } from './settle.js';
import { batchSizeFor, type RenderPool } from './threads/pool.js';
import type { ArtworkResult, BodySource, ErrorPagesResult, PageFacts, RenderFailure, RouteJob, RoutesResult } from './threads/protocol.js';
import type { BuildResult, PageStamps, PlannedRoute } from './types.js';
import type { RecordCollector } from './incremental/record.js';
import { extended } from '../core/objects.js';
import { artworkPath } from '../core/images.js';

/**
 * The catalogue as the workers get it: the lean catalogue's plain data (its
 * WeakMaps do not serialize), and its routes without their meta. A worker
 * reads a route's title, description and keywords only while rendering that
 * route, from the route its job brings, so the snapshot and the worker's heap
 * do not hold every route's meta (docs/PERFORMANCE.md).
 */
export function workerCatalogue(catalogue: Catalogue): Omit<Catalogue, 'sourceOf' | 'bodies' | 'valueDigests'> {
  // Maps keyed by the entity objects, which a thread's copy does not share; the main thread hashes what pages read.
  const { sourceOf: _notClonable, bodies: _notNeeded, valueDigests: _mainThreadOnly, ...plain } = catalogue;
  // One object for every route: the serializer writes it once.
  const noMeta: RouteRecord['meta'] = { title: '', description: '', keywords: '' };
  return { ...plain, routes: plain.routes.map((route) => extended(route, { meta: noMeta })) };
}

/** A detail route → where its entity's body is (see RouteJob.body). */
export function detailBody(catalogue: Catalogue): (route: RouteRecord) => BodySource | undefined {
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

export interface Rendered {
  facts: PageFacts[];
  failures: RenderFailure[];
  tally: LinkTally;
  unsafe: Array<[string, number]>;
  errorPages: ErrorPagesResult;
  /** Artwork files written, relative to the output folder. */
  artwork: string[];
  /** Each artwork file's stamp, when the build stamps its files. */
  artworkStamps: Array<[string, string]>;
  unchanged: BuildResult['unchanged'];
}

/**
 * Streams the plan through the pool with a bounded number of batches in
 * flight (memory stays flat however large the catalogue), then the error pages
 * and the product artwork. Stops handing out work after the first failure.
 */
export async function renderAll(
  pool: RenderPool,
  plan: readonly PlannedRoute[],
  catalogue: Catalogue,
  held: ReadonlySet<string>,
  stamps: PageStamps,
  onProgress?: (done: number, total: number) => void,
  incremental: { only?: readonly PlannedRoute[]; collector?: RecordCollector } = {},
  /** detailBody of the catalogue, when the caller made it already: its maps cover every entity (0.14 s at 100,000 routes). */
  bodyOf: (route: RouteRecord) => BodySource | undefined = detailBody(catalogue),
): Promise<Rendered> {
  const todo = incremental.only ?? plan;
  const collector = incremental.collector;
  const productCount = catalogue.products.length;
  const facts: PageFacts[] = new Array(plan.length);
  const failures: RenderFailure[] = [];
  const tally: LinkTally = new Map();
  const unsafe: Array<[string, number]> = [];
  const unchanged = { pages: 0, byStamp: 0 };
  const size = batchSizeFor(todo.length, pool.threads);
  let next = 0;
  let done = 0;

  const takeBatch = (): RouteJob[] => {
    const jobs = todo.slice(next, next + size).map(({ index, route, file, twin }): RouteJob => {
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
      if (collector !== undefined && result.record !== undefined) {
        collector.addFacts(result.pages, result.stamps);
        collector.addBatch(result.record);
      }
      failures.push(...result.failures);
      mergeTally(tally, result.links);
      unsafe.push(...result.unsafe);
      if (stamps.record !== undefined) for (const [i, stamp] of result.stamps) stamps.record(plan[i].file, stamp);
      unchanged.pages += result.unchanged;
      unchanged.byStamp += result.byStamp;
      done += jobs.length;
      onProgress?.(done, todo.length);
    }
  };
  const artworkSize = Math.max(1, Math.ceil(productCount / pool.threads));
  const artwork = Array.from({ length: Math.ceil(productCount / artworkSize) }, (_, i) => {
    const from = i * artworkSize;
    const to = Math.min(productCount, from + artworkSize);
    return pool.run<ArtworkResult>({ kind: 'artwork', from, to, previous: previousArtworkStamps(catalogue, from, to, stamps) });
  });
  const errorPages = pool.run<ErrorPagesResult>({ kind: 'error-pages' });
  // One lane for the main thread and two per worker (one batch rendering, one waiting), all taking from the
  // same cursor: whichever thread is faster takes more. More lanes would queue the work in the pool up
  // front, and the main thread, which takes a batch only when it is free, would get almost none of it.
  const lanes = pool.workers * 2 + 1;
  const [, errors, art] = await allSettledOrThrow([allSettledOrThrow(Array.from({ length: lanes }, lane)), errorPages, allSettledOrThrow(artwork)] as const);
  mergeTally(tally, errors.links);
  for (const a of art) failures.push(...a.failures);
  const artworkFiles = art.flatMap((a) => a.files);
  const artworkStamps = art.flatMap((a) => a.stamps);
  if (stamps.record !== undefined) for (const [file, stamp] of artworkStamps) stamps.record(file, stamp);
  unsafe.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  failures.sort((a, b) => a.index - b.index || (a.subject < b.subject ? -1 : 1));
  return { facts, failures, tally, unsafe, errorPages: errors, artwork: artworkFiles, artworkStamps, unchanged };
}

/**
 * The stamps the output folder's last build recorded for the artwork of products `from` to `to`, handed out (the
 * map shrinks); undefined when there are none. A slug that cannot name a file finds none, and its product's artwork
 * task reports it.
 */
function previousArtworkStamps(catalogue: Catalogue, from: number, to: number, stamps: PageStamps): Array<string | undefined> | undefined {
  if (stamps.previous.size === 0) return undefined;
  const previous = catalogue.products.slice(from, to).map((product) => {
    const file = artworkPath(product.slug).slice(1);
    const stamp = stamps.previous.get(file);
    if (stamp !== undefined) stamps.previous.delete(file);
    return stamp;
  });
  return previous.some((s) => s !== undefined) ? previous : undefined;
}
