/**
 * A render worker: reads the catalogue snapshot and builds the site model once, then
 * renders batches of routes, writes each page itself and sends back only
 * compact facts and link tallies. The build's main thread runs the same
 * renderer in-process (createRenderer with the catalogue it already holds) as
 * one more render thread.
 */
import { rmSync } from 'node:fs';
import { isMainThread, workerData } from 'node:worker_threads';
import type { Catalogue } from '../../core/catalogue.js';
import type { Block, Product, RouteRecord } from '../../core/schema.js';
import type { AssetRefs } from '../../model/model.js';
import type { SiteModel } from '../../model/model.js';
import { readSnapshot } from './snapshot.js';
import { takeRecordedStock } from './stock-thread.js';
import { readDigests, recordReads, recordingModel, shortHash } from '../../model/reads.js';
import { BatchRecord } from '../incremental/batch.js';
import { digestOfStamp } from '../output/stamps.js';
import { BatchTally, extractLinks, resolveReferences } from '../links/scan.js';
import { insideRoot, twinFileOf } from '../output/paths.js';
import { writeStampedOutputFile, type PageWrite } from '../output/page-file.js';
import { clearWay } from '../output/clear-way.js';
import { BodyChangedError, readBody } from '../../load/lean.js';
import { ERROR_PAGES, errorPageSource, type ErrorPageFile } from '../../core/error-pages.js';
import type { ArtworkResult, ErrorPagesResult, PageFacts, RenderFailure, RenderResult, RenderTask, RouteJob, RoutesResult, WorkerConfig } from './protocol.js';

/** The render API (src/render/index.ts; CONTRACTS.md), as far as the build uses it. */
export interface RenderApi<Model = unknown> {
  createSiteModel(catalogue: Catalogue, assets: AssetRefs): Model;
  renderRoute(model: Model, route: RouteRecord): string;
  /** renderRoute in pieces, the shared ones marked (used when present: the link check reads a header once per thread). */
  renderRouteParts?(model: Model, route: RouteRecord): { parts: string[]; shared: boolean[] };
  routeFacts(model: Model, route: RouteRecord): { canonical: string; indexable: boolean; lastmod: string; metaFallback: string[] };
  render404(model: Model): string;
  render500(model: Model): string;
  renderErrorFallback(): string;
  productArtwork(model: Model, product: Product): { url: string; svg: string };
  /** Screen → the template component that renders it, for failure messages. */
  TEMPLATE_OF?: Record<string, string>;
  /** The HTML of a header or footer a page read by name (model/reads.ts); without it such reads never match. */
  chromePiece?(model: Model, name: string): string | undefined;
}

export function causeOf(err: unknown): string {
  if (err instanceof Error) {
    const frame = err.stack?.split('\n').find((l) => l.trimStart().startsWith('at '));
    return frame === undefined ? err.message : `${err.message} (${frame.trim()})`;
  }
  return String(err);
}

/**
 * Writes one output file into the output folder (see writeStampedOutputFile),
 * and with `twin` its twin; a page with its stamp when `stamp` (see RouteJob.previous).
 */
function writeOutput(outDir: string, file: string, pieces: readonly string[], { fresh, twin, previous }: Partial<RouteJob> = {}, stamp = false): PageWrite {
  const twinFile = twin ? twinFileOf(file) : null;
  const write = (anew: boolean) =>
    writeStampedOutputFile(insideRoot(outDir, file), pieces, anew, twinFile === null ? undefined : insideRoot(outDir, twinFile), previous, stamp);
  try {
    return write(fresh === true);
  } catch (err) {
    // A folder where the file goes, or a file where a folder does: left by an earlier build in the spare (see clear-way.ts).
    const cleared = clearWay(outDir, file, 'file');
    if (!(twinFile !== null && clearWay(outDir, twinFile, 'file')) && !cleared) throw err;
    // As a new file: whatever the failed attempt wrote or kept goes (never written through, nor counted as kept).
    rmSync(insideRoot(outDir, file), { force: true });
    return write(true);
  }
}

// The worker imports the render module by URL (tests may substitute one); this keeps the real one in step with RenderApi.
type Conforms<T extends RenderApi<SiteModel>> = T;
export type RenderIndexConforms = Conforms<typeof import('../../render/index.js')>;

interface Session {
  api: RenderApi;
  /** What pages render from: the site model, recording their reads when the build keeps a record. */
  model: unknown;
  /** The site model itself. */
  raw: SiteModel;
  /** Each read's hash in the raw model (model/reads.ts), made on first use. */
  digests?: (name: string) => string;
  catalogue: Catalogue;
  /** Node id → the entity whose body a detail route's job brings along. */
  detailEntity: Map<string, { body?: Block[]; description?: Block[] }>;
}

/** Pages the main thread renders between two turns of its event loop (a few milliseconds). */
const MAIN_THREAD_SLICE = 8;

/** Runs one task; what a worker thread exports to the pool, and what the main thread calls in-process. */
export type Renderer = (task: RenderTask) => Promise<RenderResult>;

/**
 * A renderer for `config`. In a worker the catalogue is the snapshot file;
 * in-process it is the main thread's own. Both are lean: a detail page's body
 * is read from its data file (RouteJob.body), set on the entity while the
 * page renders, and emptied again.
 */
export function createRenderer(config: WorkerConfig, inProcess?: Catalogue): Renderer {
  // React picks its development build (ten times slower) unless NODE_ENV says production when it is first
  // loaded: set by whatever imports it first, in this thread or a worker (each has its own environment).
  process.env.NODE_ENV = 'production';
  // The render code is imported at once: in a worker, in parallel with the main thread's check.
  const apiReady = (import(config.renderModule) as Promise<RenderApi>).catch((err: unknown) => {
    throw new Error(`the render ${inProcess ? 'code' : 'workers'} cannot load the templates (${config.renderModule}): ${causeOf(err)}`);
  });
  // Marks a failed import handled here; the first task awaits it and reports the failure.
  apiReady.catch(() => undefined);
  let session: Promise<Session> | undefined;
  /** The catalogue and the site model, made once on the first task. */
  const ready = (): Promise<Session> =>
    (session ??= (async () => {
      const api = await apiReady;
      const catalogue = inProcess ?? { ...readSnapshot<Omit<Catalogue, 'sourceOf'>>(config.snapshot), sourceOf: new WeakMap<object, string>() };
      const detailEntity = new Map<string, { body?: Block[]; description?: Block[] }>();
      for (const e of [...catalogue.products, ...catalogue.articles, ...catalogue.news]) if (!detailEntity.has(e.id)) detailEntity.set(e.id, e);
      const raw = api.createSiteModel(catalogue, config.assets) as SiteModel;
      return { api, catalogue, detailEntity, raw, model: config.record === true ? recordingModel(raw) : raw };
    })());
  return async (task) => {
    switch (task.kind) {
      case 'routes':
        return renderRoutes(
          config.outDir,
          await ready(),
          task,
          inProcess === undefined ? undefined : MAIN_THREAD_SLICE,
          config.stamps === true,
          config.record === true,
        );
      case 'artwork':
        return renderArtwork(config.outDir, await ready(), task, config.stamps === true);
      case 'error-pages':
        return renderErrorPages(config.outDir, await ready());
      case 'prepare':
        return { kind: 'prepare', ...takeRecordedStock(config.outDir, task) };
      case 'digests': {
        const session = await ready();
        const api = session.api;
        const made = session.catalogue.valueDigests;
        session.digests ??= readDigests(
          session.raw,
          (name) => {
            const piece = api.chromePiece?.(session.raw, name);
            return piece === undefined ? undefined : shortHash(piece);
          },
          made && ((value) => made.get(value)),
        );
        return { kind: 'digests', digests: task.names.map(session.digests) };
      }
    }
  };
}

async function renderRoutes(
  outDir: string,
  { api, model, catalogue, detailEntity }: Session,
  task: Extract<RenderTask, { kind: 'routes' }>,
  yieldEvery: number | undefined,
  stamps: boolean,
  recording: boolean,
): Promise<RoutesResult> {
  const origin = catalogue.site.origin;
  const pages: PageFacts[] = [];
  const failures: RenderFailure[] = [];
  const tally = new BatchTally();
  const unsafe: Array<[string, number]> = [];
  const stamped: Array<[number, string]> = [];
  let unchanged = 0;
  let byStamp = 0;
  let sinceYield = 0;
  const record = recording ? new BatchRecord() : undefined;
  for (const job of task.jobs) {
    const { index, route, file, body } = job;
    // On the main thread, let the event loop hand the workers their next batches every few pages.
    if (yieldEvery !== undefined && ++sinceYield > yieldEvery) {
      sinceYield = 0;
      await new Promise(setImmediate);
    }
    let document: { parts: string[]; shared?: boolean[] };
    let facts: ReturnType<RenderApi['routeFacts']>;
    let reads: string[] = [];
    const entity = body === undefined ? undefined : detailEntity.get(route.nodeid);
    try {
      if (entity !== undefined) entity[body!.field] = readBody(body!);
      if (record === undefined) {
        document = api.renderRouteParts ? api.renderRouteParts(model, route) : { parts: [api.renderRoute(model, route)] };
        facts = api.routeFacts(model, route);
      } else {
        const made = recordReads(() => {
          const parts = api.renderRouteParts ? api.renderRouteParts(model, route) : { parts: [api.renderRoute(model, route)] };
          return { parts, facts: api.routeFacts(model, route) };
        });
        document = made.value.parts;
        facts = made.value.facts;
        reads = made.reads;
      }
    } catch (err) {
      // A data file changed since the check is not the template's fault.
      const template = err instanceof BodyChangedError ? undefined : api.TEMPLATE_OF?.[route.screen];
      failures.push({ index, subject: route.path, template, cause: err instanceof BodyChangedError ? err.message : causeOf(err) });
      continue;
    } finally {
      // Dropped again at once: the thread's memory stays that of the lean catalogue however large the site.
      if (entity !== undefined) entity[body!.field] = [];
    }
    const links = resolveReferences(document.parts, route.path, origin, document.shared);
    tally.add(links, index);
    for (const u of links.unsafe) unsafe.push([u, index]);
    try {
      const written = writeOutput(outDir, file, document.parts, job, stamps);
      if (written.stamp !== undefined) stamped.push([index, written.stamp]);
      if (record !== undefined && written.stamp !== undefined) record.add(index, reads, links, digestOfStamp(written.stamp));
      if (written.kept !== undefined) unchanged++;
      if (written.kept === 'stamp') byStamp++;
      // Assigned, not spread: on Node 20 a spread gives each page's facts a hidden class of their own (core/objects.ts).
      pages.push(Object.assign({ index, bytes: written.bytes }, facts, { metaFallback: [...facts.metaFallback] }));
    } catch (err) {
      failures.push({ index, subject: route.path, cause: `cannot write ${file}: ${causeOf(err)}` });
    }
  }
  return { kind: 'routes', pages, failures, links: tally.entries(), unsafe, stamps: stamped, unchanged, byStamp, record: record?.done() };
}

async function renderArtwork(
  outDir: string,
  { api, model, catalogue }: Session,
  task: Extract<RenderTask, { kind: 'artwork' }>,
  stamp: boolean,
): Promise<ArtworkResult> {
  const files: string[] = [];
  const failures: RenderFailure[] = [];
  const stamps: Array<[string, string]> = [];
  for (let i = task.from; i < task.to; i++) {
    const product = catalogue.products[i];
    try {
      const { url, svg } = api.productArtwork(model, product);
      const file = url.replace(/^\/+/, '');
      const written = writeOutput(outDir, file, [svg], { previous: task.previous?.[i - task.from] }, stamp);
      files.push(file);
      if (written.stamp !== undefined) stamps.push([file, written.stamp]);
    } catch (err) {
      failures.push({ index: -1, subject: `artwork of product ${product.slug}`, cause: causeOf(err) });
    }
  }
  return { kind: 'artwork', files: files.sort(), failures, stamps };
}

/** dist/404.html and dist/500.html; a template that throws gets the spec's minimal page instead, and is reported. */
async function renderErrorPages(outDir: string, { api, model, catalogue }: Session): Promise<ErrorPagesResult> {
  const tally = new BatchTally();
  const pages: ErrorPagesResult['pages'] = [];
  const template: Record<ErrorPageFile, () => string> = { '404.html': () => api.render404(model), '500.html': () => api.render500(model) };
  for (const file of ERROR_PAGES) {
    let html: string;
    let failure: RenderFailure | null = null;
    try {
      html = template[file]();
    } catch (err) {
      // The spec's own fallback: a minimal page that needs no model.
      failure = { index: -1, subject: file, cause: causeOf(err) };
      html = api.renderErrorFallback();
    }
    tally.add(extractLinks(html, `/${file}`, catalogue.site.origin), errorPageSource(file));
    pages.push({ file, bytes: writeOutput(outDir, file, [html]).bytes, failure });
  }
  return { kind: 'error-pages', pages, links: tally.entries() };
}

// In a worker thread: the pool's task function.
const renderer = isMainThread ? undefined : createRenderer(workerData as WorkerConfig);

export default function run(task: RenderTask): Promise<RenderResult> {
  if (renderer === undefined) throw new Error('the render worker module runs in a worker thread; use createRenderer in-process');
  return renderer(task);
}
