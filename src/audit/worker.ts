/**
 * The audit's walk over dist/, one batch of folders at a time: list each
 * folder, read and check every page in it, and hand back only findings,
 * compact site facts, the other files' sizes and the sub-folders still to
 * walk. Runs in the extraction workers (the context comes once, as
 * workerData) or, for small sites, in the main thread.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, workerData } from 'node:worker_threads';
import { scanPage } from './scan.js';
import { checkPage, findingEmitter, type RouteInfo } from './page-rules.js';
import { excludeMatcher } from './exclude.js';
import { fileToUrl, servedPath } from './urls.js';
import { ERROR_PAGES } from '../core/error-pages.js';
import type { Finding, RuleSettings, SiteFacts } from './types.js';

/** What every page check needs; the same for the whole walk. */
export interface WalkContext {
  /** The audited dist/. */
  dir: string;
  origin: string;
  originKnown: boolean;
  /** The path the folder is served under: '/' or e.g. '/docs/15/'. */
  basePath: string;
  settings: RuleSettings;
  /** The build's route report, by clean path (empty unless it describes this folder). */
  routes: ReadonlyMap<string, RouteInfo>;
  /** Globs of HTML files that are not pages (see exclude.ts). */
  exclude: string[];
}

/** Folders to list (relative to dist/, '' for dist/ itself). */
export interface WalkTask {
  folders: string[];
  /** Per folder: whether its parent holds its `.html` twin (then its index.html is served at the clean URL). */
  twinned?: boolean[];
}

export interface PageResult {
  findings: Finding[];
  site: SiteFacts;
}

export interface WalkResult {
  pages: PageResult[];
  /** Findings about files rather than pages (a page's twin that differs from it). */
  findings: Finding[];
  /** Every file found, relative to dist/, with its size in bytes (0 for HTML: page sizes are not checked). */
  files: Array<[string, number]>;
  /** Sub-folders found, to walk in later tasks. */
  folders: string[];
  /** Those of the sub-folders that have a `.html` twin beside them. */
  twinned: string[];
}

/** The error pages: 404.html is served for unknown URLs, 500.html when serving fails; neither is a page of the site. */
const NOT_A_PAGE = new Set<string>(ERROR_PAGES);

/**
 * The page checks of one HTML document, from memory: `url` is its key (clean
 * path), `served` the path it was fetched or is served at, which relative
 * references resolve against. The walk over a folder and a crawl over HTTP
 * both feed pages through here.
 */
export function auditHtml(html: string, page: { url: string; served: string; file: string }, ctx: Omit<WalkContext, 'dir' | 'exclude'>): PageResult {
  const facts = scanPage(html, page.url, page.file);
  return checkPage(facts, {
    origin: ctx.origin,
    originKnown: ctx.originKnown,
    basePath: ctx.basePath,
    served: page.served,
    settings: ctx.settings,
    route: ctx.routes.get(page.url),
  });
}

function auditPage(ctx: WalkContext, file: string, hasTwin: boolean): PageResult {
  // Synchronous reads: many small files read an order of magnitude faster than with fs.promises, and a worker may block.
  const html = readFileSync(join(ctx.dir, file), 'utf8');
  return auditHtml(html, { url: fileToUrl(file, ctx.basePath), served: servedPath(file, ctx.basePath, hasTwin), file }, ctx);
}

/**
 * Whether `path` (`x.html`) is the twin of the page `x/index.html` (see
 * twinFileOf in build/output/paths.ts): the same page under the name some hosts
 * serve `/x` from. A twin that is not the same bytes is reported.
 */
function isTwin(ctx: WalkContext, path: string, findings: Finding[]): boolean {
  const page = `${path.slice(0, -'.html'.length)}/index.html`;
  const pageStat = statSync(join(ctx.dir, page), { throwIfNoEntry: false });
  if (pageStat === undefined || !pageStat.isFile()) return false;
  const twinStat = statSync(join(ctx.dir, path));
  // The build links the two names to one file: nothing to read then.
  const same =
    (twinStat.ino === pageStat.ino && twinStat.dev === pageStat.dev) ||
    (twinStat.size === pageStat.size && readFileSync(join(ctx.dir, path)).equals(readFileSync(join(ctx.dir, page))));
  if (!same) {
    findingEmitter(
      ctx.settings,
      findings,
      fileToUrl(page, ctx.basePath),
      path,
    )(
      'url/twin-differs',
      `${path} is not the same page as ${page}; GitHub Pages, Netlify and Cloudflare Pages serve ${fileToUrl(page, ctx.basePath)} from ${path}.`,
    );
  }
  return true;
}

let excluded: { globs: string[]; test: (path: string) => boolean } | null = null;
function isExcluded(ctx: WalkContext, path: string): boolean {
  if (excluded?.globs !== ctx.exclude) excluded = { globs: ctx.exclude, test: excludeMatcher(ctx.exclude) };
  return excluded.test(path);
}

export function walk(ctx: WalkContext, task: WalkTask): WalkResult {
  const result: WalkResult = { pages: [], findings: [], files: [], folders: [], twinned: [] };
  for (const [i, folder] of task.folders.entries()) {
    const entries = readdirSync(folder ? join(ctx.dir, folder) : ctx.dir, { withFileTypes: true });
    const subfolders = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
    // A folder's index.html with a `<folder>.html` twin beside the folder is served at the clean URL.
    const hasTwin = task.twinned?.[i] === true;
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      // Symbolic links are not walked (a static host may not follow them), but a link to a file is there
      // for the references that name it: packaged documentation links its scripts to shared copies.
      if (entry.isDirectory()) result.folders.push(path);
      else if (entry.isSymbolicLink()) {
        const target = statSync(join(ctx.dir, path), { throwIfNoEntry: false });
        if (target?.isFile()) result.files.push([path, path.endsWith('.html') ? 0 : target.size]);
      } else if (!entry.isFile()) continue;
      else if (!path.endsWith('.html')) result.files.push([path, statSync(join(ctx.dir, path)).size]);
      else {
        result.files.push([path, 0]);
        if (NOT_A_PAGE.has(path) || isExcluded(ctx, path)) continue;
        // A page's twin is not another page: the page itself is checked at its folder's index.html.
        if (subfolders.has(entry.name.slice(0, -'.html'.length)) && isTwin(ctx, path, result.findings)) {
          result.twinned.push(path.slice(0, -'.html'.length));
          continue;
        }
        result.pages.push(auditPage(ctx, path, entry.name === 'index.html' && hasTwin));
      }
    }
  }
  return result;
}

const context = isMainThread ? undefined : (workerData as WalkContext);

export default function walkInWorker(task: WalkTask): WalkResult {
  return walk(context!, task);
}
