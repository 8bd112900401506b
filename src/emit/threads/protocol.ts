/**
 * What crosses the boundary between the build's main thread and its render
 * workers. Messages stay compact: routes go in, small facts and link tallies
 * come back; page HTML never leaves the worker that rendered it.
 */
import type { RouteRecord } from '../../core/schema.js';
import type { BodyRef } from '../../core/catalogue.js';
import type { AssetRefs } from '../../model/model.js';
import type { TallyEntries } from '../links/scan.js';
import type { ErrorPageFile } from '../../core/error-pages.js';
import type { Stock, StockTask } from '../output/stock.js';

export interface WorkerConfig {
  /**
   * A v8-serialised copy of the loaded catalogue, lean (without the body
   * blocks of products, articles and news, see RouteJob.body, nor route meta,
   * see workerCatalogue), written by the main thread once the check passed. Workers start (and import React and the
   * templates) while the main thread is still loading and checking, then
   * read this: far cheaper than loading and validating data/ again.
   */
  snapshot: string;
  /** The temporary output folder the workers write into. */
  outDir: string;
  assets: AssetRefs;
  /** URL of the module providing the render API (src/render/index.ts unless a test substitutes one). */
  renderModule: string;
  /** Stamp every page written (build/output/stamps.ts): the build has a cache folder to keep them in. */
  stamps?: boolean;
  /**
   * Record what each page was made from (model/reads.ts), its links and its
   * digest, for the incremental build's record (build/incremental/). Needs `stamps`.
   */
  record?: boolean;
}

/** A lean entity's body: its file, the sha1 of the bytes checked, and the field that holds the blocks. */
export type BodySource = Pick<BodyRef, 'path' | 'digest' | 'field'>;

/** One route to render: its position in the resolved route list (stable across workers) and its output file. */
export interface RouteJob {
  index: number;
  route: RouteRecord;
  /** Relative to the output folder, e.g. `herb-extract/index.html`. */
  file: string;
  /**
   * Where the body blocks of the entity a detail route shows are (product
   * description, article or news body). The build loads the catalogue lean
   * (src/load/lean.ts): bodies are most of its size and each is shown on one
   * page only, so the thread that renders the page reads them from the file.
   */
  body?: BodySource;
  /** The output folder holds no file at `file` (a new folder, or a page the previous build did not have): written without looking. */
  fresh?: true;
  /** Give the page its second name too, `<path>.html` beside its folder (twinFileOf in build/output/paths.ts). */
  twin?: true;
  /** The stamp the build that left the output folder recorded for `file` (build/output/stamps.ts). */
  previous?: string;
}

export type RenderTask =
  | { kind: 'routes'; jobs: RouteJob[] }
  /**
   * The artwork of products `from` to `to` (exclusive), with the stamp the folder's last build recorded for each
   * product's file, in order (undefined where none): a file still matching its stamp is kept without being read.
   */
  | { kind: 'artwork'; from: number; to: number; previous?: Array<string | undefined> }
  | { kind: 'error-pages' }
  /** The hash of each read's value in this thread's model (model/reads.ts readDigests), in order. */
  | { kind: 'digests'; names: string[] }
  /**
   * Readies the output folder before any page is written: when it was made
   * from the spare, takes its inventory (removing links, see atomic.ts); then
   * creates the pages' folders (relative to it) that are not there yet. One
   * per render thread, run at once, a share each (see takeStock in
   * build/output/stock.ts).
   */
  | ({ kind: 'prepare' } & StockTask);

/** What the sitemap and reports need about a page (render's RouteFacts plus size). */
export interface PageFacts {
  index: number;
  bytes: number;
  canonical: string;
  indexable: boolean;
  lastmod: string;
  metaFallback: string[];
}

export interface RenderFailure {
  /** Route index, or -1 for the 404 page and artwork. */
  index: number;
  /** What failed, e.g. the route path or `artwork of <product slug>`. */
  subject: string;
  /** The template component that threw, when known. */
  template?: string;
  cause: string;
}

export interface RoutesResult {
  kind: 'routes';
  pages: PageFacts[];
  failures: RenderFailure[];
  links: TallyEntries;
  /** [reference, route index] for every `javascript:`-like reference found. */
  unsafe: Array<[string, number]>;
  /** [route index, stamp] of every page written, when the build keeps stamps (WorkerConfig.stamps). */
  stamps: Array<[number, string]>;
  /** Pages whose file in the output folder already held their bytes, and was kept. */
  unchanged: number;
  /** Of those, the ones found so by their stamp, without reading them. */
  byStamp: number;
  /** What each page was made from, when the build records it (WorkerConfig.record). */
  record?: PageRecords;
}

/** A batch's pages as the incremental record keeps them; names and groups are listed once per batch. */
export interface PageRecords {
  /** The reads' names (model/reads.ts) of this batch's pages. */
  names: string[];
  /** The site-absolute targets of each shared-piece group (links/scan.ts TargetGroup) of this batch. */
  groups: string[][];
  pages: RecordedPage[];
}

export interface RecordedPage {
  index: number;
  /** Positions in PageRecords.names. */
  reads: number[];
  /** The page's own internal targets (PageLinks.internal). */
  internal: string[];
  /** Position in PageRecords.groups, or -1. */
  group: number;
  unsafe: string[];
  /** pageDigest of the page's bytes. */
  digest: string;
}

export interface DigestsResult {
  kind: 'digests';
  digests: string[];
}

export interface ArtworkResult {
  kind: 'artwork';
  files: string[];
  failures: RenderFailure[];
  /** Each file written and its stamp, when the build stamps its files (WorkerConfig.stamps). */
  stamps: Array<[string, string]>;
}

export interface ErrorPagesResult {
  kind: 'error-pages';
  pages: Array<{
    file: ErrorPageFile;
    bytes: number;
    /** Set when its template threw and the minimal error page was written instead. */
    failure: RenderFailure | null;
  }>;
  links: TallyEntries;
}

export interface PrepareResult extends Stock {
  kind: 'prepare';
}

export type RenderResult = RoutesResult | ArtworkResult | ErrorPagesResult | PrepareResult | DigestsResult;
