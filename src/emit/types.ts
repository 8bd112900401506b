/** What `site build` takes and returns as a library call, and the records its phases pass along. */
import type { ResolvedRoute } from '../check/index.js';
import type { CheckCounts, CheckedFiles } from '../check/report.js';
import type { Diagnostic } from '../core/diagnostics.js';

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
  /** Module URL of the render API (src/render/index.ts): what the render threads import. Tests pass one whose template fails. */
  renderModule?: string;
  /** Called after each rendered batch. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Use the build cache (default true): the check's and the search index's
   * cached results, image copies, page stamps and the build record, so that
   * only pages whose inputs changed are rendered. False builds everything
   * from scratch and keeps nothing.
   */
  cache?: boolean;
  /** Write `<path>.html` beside every `<path>/index.html` (default true; see twinFileOf in paths.ts). */
  htmlTwins?: boolean;
  /**
   * The caller saw files of the catalogue saved (`site build --watch`): the comparison with the last build's
   * output, which pays only when nothing changed, is not started. The build is the same either way.
   */
  saved?: boolean;
  /**
   * Takes the build cache's writes that the output does not wait for (the check's entry, the record, the
   * output's manifest, the search index's shards), to run once the result is out and before the next build
   * starts (`site build --watch`); default: written before buildSite returns. Each write is whole or absent
   * (temporary file and rename), and a record or manifest left from an earlier build names another output
   * folder, so a process killed before they ran builds more next time, never less.
   */
  later?: (write: () => void) => void;
  /**
   * Pages from which a one-shot incremental build takes stock of its spare in a thread beside the selection
   * (default STOCK_BESIDE_PAGES, threads/stock-thread.ts; the CLI never sets it). The build is the same either way;
   * the tests set 0 to build the shipped catalogue both ways.
   */
  stockBeside?: number;
  /**
   * Routes from which a one-shot incremental build has the search thread make the index's layout (default
   * LAYOUT_BESIDE_PAGES, files/search-worker.ts; the CLI never sets it). The build is the same either way.
   */
  layoutBeside?: number;
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
  /** Data files the check validated, took from its cache, and read (an incremental check validates only the edited ones). */
  checkFiles: CheckedFiles;
  /** HTML pages written: one per resolved route, plus 404.html and 500.html. */
  pages: number;
  /**
   * Route pages whose file in the output folder (the spare, on a rebuild)
   * already held their bytes and was kept as it was; `byStamp` of them were
   * known so from the stamps the build that left them recorded, without
   * reading them back (output-stamps.ts).
   */
  unchanged: { pages: number; byStamp: number };
  /** Route pages this build rendered; the others (`reused`) were taken over from the last build's output unchanged. */
  rendered: number;
  reused: number;
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

export interface PlannedRoute {
  /** Position in the build order (registry order, duplicates once); the key of every per-page result. */
  index: number;
  route: ResolvedRoute;
  /** Relative to the output folder. */
  file: string;
  /** The page has a second name, `<path>.html` (see twinFileOf in output/paths.ts). */
  twin?: true;
}

/** The pages' stamps (output/stamps.ts) on their way through a build. */
export interface PageStamps {
  /** The stamps the build that left the temporary folder recorded, by file; each is handed to its page's job once. */
  previous: Map<string, string>;
  /** Takes each page's new stamp as its render thread reports it (see stampRecorder). */
  record?: (file: string, stamp: string) => void;
}

export const NO_LINKS: LinkSummary = { pages: 0, references: 0, targets: 0, broken: 0, unsafe: 0 };
export const NONE_KEPT: BuildResult['unchanged'] = { pages: 0, byStamp: 0 };
