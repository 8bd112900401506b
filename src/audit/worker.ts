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
import { checkPage, type RouteInfo } from './page-rules.js';
import { fileToUrl } from './urls.js';
import type { Finding, RuleSettings, SiteFacts } from './types.js';

/** What every page check needs; the same for the whole walk. */
export interface WalkContext {
  /** The audited dist/. */
  dir: string;
  origin: string;
  originKnown: boolean;
  settings: RuleSettings;
  /** The build's route report, by clean path. */
  routes: ReadonlyMap<string, RouteInfo>;
}

/** Folders to list (relative to dist/, '' for dist/ itself). */
export interface WalkTask {
  folders: string[];
}

export interface PageResult {
  findings: Finding[];
  site: SiteFacts;
}

export interface WalkResult {
  pages: PageResult[];
  /** Every file found, relative to dist/, with its size in bytes (0 for HTML: page sizes are not checked). */
  files: Array<[string, number]>;
  /** Sub-folders found, to walk in later tasks. */
  folders: string[];
}

/** 404.html is served for unknown URLs; it is not a page of the site. */
const NOT_A_PAGE = '404.html';

function auditPage(ctx: WalkContext, file: string): PageResult {
  // Synchronous reads: many small files read an order of magnitude faster than with fs.promises, and a worker may block.
  const html = readFileSync(join(ctx.dir, file), 'utf8');
  const url = fileToUrl(file);
  const facts = scanPage(html, url, file);
  return checkPage(facts, { origin: ctx.origin, originKnown: ctx.originKnown, settings: ctx.settings, route: ctx.routes.get(url) });
}

export function walk(ctx: WalkContext, task: WalkTask): WalkResult {
  const result: WalkResult = { pages: [], files: [], folders: [] };
  for (const folder of task.folders) {
    for (const entry of readdirSync(folder ? join(ctx.dir, folder) : ctx.dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      // Symbolic links are neither: a static host may not follow them.
      if (entry.isDirectory()) result.folders.push(path);
      else if (!entry.isFile()) continue;
      else if (!path.endsWith('.html')) result.files.push([path, statSync(join(ctx.dir, path)).size]);
      else {
        result.files.push([path, 0]);
        if (path !== NOT_A_PAGE) result.pages.push(auditPage(ctx, path));
      }
    }
  }
  return result;
}

const context = isMainThread ? undefined : (workerData as WalkContext);

export default function walkInWorker(task: WalkTask): WalkResult {
  return walk(context!, task);
}
