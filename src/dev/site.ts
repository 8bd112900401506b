/**
 * What `site dev` serves at a moment: the checked catalogue, its site model
 * and its routes by the file the build would write for each, rendered only
 * when a page is asked for. A new view is made after every change; a check
 * with errors keeps the last good view (the overlay says what is wrong).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { planRoutes } from '../emit/plan.js';
import type { ResolvedRoute } from '../check/index.js';
import type { CheckResult } from '../check/run.js';
import type { Catalogue } from '../core/catalogue.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { AssetRefs, SiteModel } from '../model/model.js';
import { resolveAgainst } from '../serve/paths.js';
import type { RenderApi } from './render-source.js';

export interface SiteView {
  api: RenderApi;
  catalogue: Catalogue;
  routes: readonly ResolvedRoute[];
  model: SiteModel;
  /** `/x/index.html` → its route: the pages as `site build` would write them. */
  files: ReadonlyMap<string, ResolvedRoute>;
  /** The check result's content key (see CheckResult.key), for the search index cache. */
  checkKey?: string;
}

/** The check's and the plan's findings about a catalogue, and the view when it has no error. */
export interface Checked {
  diagnostics: Diagnostic[];
  errors: Diagnostic[];
  view: SiteView | null;
}

/** The plan of a resolution of the routes, kept while that resolution is in use (a quick re-check keeps it). */
const plans = new WeakMap<readonly ResolvedRoute[], { files: Map<string, ResolvedRoute>; diagnostics: Diagnostic[] }>();

function planOf(routes: readonly ResolvedRoute[], routesFile: string): { files: Map<string, ResolvedRoute>; diagnostics: Diagnostic[] } {
  let made = plans.get(routes);
  if (made === undefined) {
    const { plan, diagnostics } = planRoutes(routes, routesFile);
    made = { files: new Map(plan.map((p) => [`/${p.file}`, p.route])), diagnostics };
    plans.set(routes, made);
  }
  return made;
}

export function viewOf(checked: CheckResult, dataDir: string, api: RenderApi, assets: AssetRefs): Checked {
  const { files, diagnostics: planned } = planOf(checked.routes, path.join(dataDir, 'routes.json'));
  const diagnostics = [...checked.diagnostics, ...planned];
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (checked.catalogue === null || errors.length > 0) return { diagnostics, errors, view: null };
  const catalogue = checked.catalogue;
  return { diagnostics, errors, view: { api, catalogue, routes: checked.routes, model: api.createSiteModel(catalogue, assets), files, checkKey: checked.key } };
}

/** The same catalogue rendered by another render API (a template changed). */
export function withApi(view: SiteView, api: RenderApi, assets: AssetRefs): SiteView {
  return { ...view, api, model: api.createSiteModel(view.catalogue, assets) };
}

export type PageAnswer = { kind: 'page'; status: 200 | 404; html: string } | { kind: 'redirect'; location: string } | { kind: 'none' };

/**
 * A request path as `site serve` answers it from dist/: a page (rendered now),
 * a redirect to the page's own URL, or none (not a page; maybe another file).
 */
export function answerPath(view: SiteView, requestPath: string): PageAnswer {
  const r = resolveAgainst((file) => view.files.has(file), requestPath);
  if (r.kind === 'redirect') return { kind: 'redirect', location: r.location };
  if (r.kind === 'missing') return { kind: 'none' };
  const route = view.files.get(r.file);
  if (route === undefined) return { kind: 'none' };
  return { kind: 'page', status: 200, html: view.api.renderRoute(view.model, route) };
}

/** The page a path shows, the 404 page when it shows none (what a browser tab open at `path` displays). */
export function pageAt(view: SiteView, requestPath: string): { status: 200 | 404; html: string } {
  const answer = answerPath(view, requestPath);
  if (answer.kind === 'page') return answer;
  return { status: 404, html: view.api.render404(view.model) };
}

/** A short fingerprint of a page's HTML: what the open tab has, compared after a change. */
export const htmlHash = (html: string): string => createHash('sha1').update(html).digest('base64url').slice(0, 16);
