/**
 * Rules that tie routes and content together as a whole: every entity has
 * exactly the routes it needs (one detail route per product, article and news
 * item; pages 1..N per list), and nothing more.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { pointer } from '../core/diagnostics.js';
import type { Catalogue } from '../core/catalogue.js';
import type { Category, Product } from '../core/schema.js';
import { diagnostic, type CheckContext, type Declaration } from './context.js';
import { DETAIL_SCREENS, PAGE_SCREENS } from './routes.js';

/**
 * The products a category lists: those whose `category` or `listedIn` holds
 * its id, or every product for the all-products category.
 */
export function listedProducts(catalogue: Catalogue, category: Category): Product[] {
  if (category.all) return catalogue.products;
  return catalogue.products.filter((p) => p.category === category.id || p.listedIn.includes(category.id));
}

export function pageCount(items: number, perPage: number): number {
  return Math.ceil(items / perPage);
}

export function checkCoverage(ctx: CheckContext): Diagnostic[] {
  return [...checkDetailRoutes(ctx), ...checkListRoutes(ctx), ...checkPageRoutes(ctx)];
}

/** Distinct declarations (identical duplicates count once) grouped by node id, per screen. */
const memo = new WeakMap<CheckContext, Map<string, Map<string, Declaration[]>>>();
function routesByNode(ctx: CheckContext, screens: readonly string[]): Map<string, Declaration[]> {
  let perCtx = memo.get(ctx);
  if (!perCtx) memo.set(ctx, (perCtx = new Map()));
  const key = screens.join(',');
  const hit = perCtx.get(key);
  if (hit) return hit;
  const map = new Map<string, Declaration[]>();
  perCtx.set(key, map);
  const seenPath = new Set<string>();
  for (const d of ctx.distinct) {
    if (!screens.includes(d.route.screen)) continue;
    // A conflicting redeclaration is already an error of its own; count the path once here.
    const key = `${d.route.nodeid}\u0000${d.route.path}`;
    if (seenPath.has(key)) continue;
    seenPath.add(key);
    const list = map.get(d.route.nodeid);
    if (list) list.push(d);
    else map.set(d.route.nodeid, [d]);
  }
  return map;
}

/** Every product, article and news item has exactly one detail route. */
function checkDetailRoutes(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { products, articles, news } = ctx.catalogue;
  const kinds = [
    { screen: 'product', items: products.map((p) => ({ entity: p, id: p.id, label: `Product "${p.name}"` })) },
    { screen: 'article', items: articles.map((a) => ({ entity: a, id: a.id, label: `Article "${a.headline}"` })) },
    { screen: 'news-detail', items: news.map((n) => ({ entity: n, id: n.id, label: `News item "${n.title}"` })) },
  ] as const;
  for (const { screen, items } of kinds) {
    const routes = routesByNode(ctx, [screen]);
    for (const { entity, id, label } of items) {
      const file = ctx.fileOf(entity);
      const found = routes.get(id) ?? [];
      if (found.length === 0) {
        out.push(
          diagnostic(
            'check/missing-detail-route',
            file,
            '/id',
            `${label} (${id}) has no detail route; add a route with screen "${screen}" and nodeid "${id}" to ${ctx.routesFile}, or remove the ${DETAIL_SCREENS[screen]}.`,
          ),
        );
      } else if (found.length > 1) {
        const list = found.map((d) => `${d.route.path} (/${d.index})`).join(', ');
        out.push(diagnostic('check/multiple-detail-routes', file, '/id', `${label} (${id}) has ${found.length} detail routes: ${list}; keep exactly one.`));
      }
    }
  }
  return out;
}

/** Every category and every page of data/pages is reachable by a route. */
function checkListRoutes(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const categoryRoutes = routesByNode(ctx, ['products', 'category']);
  for (const c of ctx.catalogue.categories) {
    if (!categoryRoutes.has(c.id)) {
      out.push(
        diagnostic(
          'check/category-without-route',
          ctx.fileOf(c),
          '/id',
          `Category "${c.name}" (${c.path}) has no route; add a ${c.all ? 'products' : 'category'} route for ${c.path} with nodeid "${c.id}".`,
        ),
      );
    }
    // The category's own path is where navigation links to; its bare route must be there.
    for (const d of categoryRoutes.get(c.id) ?? []) {
      if (d.route.page === undefined && d.route.path !== c.path) {
        out.push(
          diagnostic(
            'check/category-path-mismatch',
            ctx.routesFile,
            pointer(d.index, 'path'),
            `Route ${d.route.path} shows category "${c.name}", whose path is ${c.path}; the paths must match.`,
          ),
        );
      }
    }
  }
  // Hosts serve dist/index.html for the bare origin; without a route at / there is none.
  if (!ctx.byPath.has('/')) {
    out.push(
      diagnostic(
        'check/missing-home',
        ctx.routesFile,
        '',
        'No route has the path "/", so the site has no home page; add the home route (screen "home", name "Home").',
      ),
    );
  }
  const screens = Object.keys(PAGE_SCREENS);
  const pageRoutes = routesByNode(ctx, screens);
  for (const p of ctx.catalogue.pages) {
    if (!pageRoutes.has(p.id)) {
      out.push(
        diagnostic(
          'check/page-without-route',
          ctx.fileOf(p),
          '/id',
          `Page "${p.heading}" (${p.kind}) has no route; add a route with screen "${p.kind}" and nodeid "${p.id}".`,
        ),
      );
    }
  }
  return out;
}

interface PagedList {
  id: string;
  label: string;
  file: string;
  items: number;
  perPage: number;
  noun: string;
  /** Where the pages live: `<base>/page-<n>`. */
  base: string | undefined;
  screens: string[];
}

/** Lists run from page 1 to ceil(items / per page), each page once, at `<list>/page-<n>`. */
function checkPageRoutes(ctx: CheckContext): Diagnostic[] {
  const { catalogue } = ctx;
  const per = catalogue.site.itemsPerPage;
  const lists: PagedList[] = catalogue.categories.map((c) => ({
    id: c.id,
    label: `Category "${c.name}" (${c.path})`,
    file: ctx.fileOf(c),
    items: listedProducts(catalogue, c).length,
    perPage: per.products,
    noun: 'products',
    base: c.path,
    screens: ['products', 'category'],
  }));
  for (const p of catalogue.pages) {
    if (p.kind !== 'knowledge' && p.kind !== 'news') continue;
    const bare = ctx.distinct.find((d) => d.route.nodeid === p.id && d.route.screen === p.kind && d.route.page === undefined);
    lists.push({
      id: p.id,
      label: p.kind === 'knowledge' ? `The knowledge list` : `The news list`,
      file: ctx.fileOf(p),
      items: p.kind === 'knowledge' ? catalogue.articles.length : catalogue.news.length,
      perPage: p.kind === 'knowledge' ? per.articles : per.news,
      noun: p.kind === 'knowledge' ? 'articles' : 'news items',
      base: bare?.route.path,
      screens: [p.kind],
    });
  }

  const out: Diagnostic[] = [];
  for (const list of lists) {
    const pages = (routesByNode(ctx, list.screens).get(list.id) ?? []).filter((d) => d.route.page !== undefined);
    const n = pageCount(list.items, list.perPage);
    const why = `${list.label} lists ${list.items} ${list.noun} at ${list.perPage} per page, so it has ${n === 0 ? 'no pages (bare list only)' : n === 1 ? 'page 1 only' : `pages 1 to ${n}`}`;
    const byNumber = new Map<number, Declaration[]>();
    for (const d of pages) byNumber.set(d.route.page!, [...(byNumber.get(d.route.page!) ?? []), d]);

    for (let page = 1; page <= n; page++) {
      if (!byNumber.has(page)) {
        const where = list.base ? ` ${list.base.replace(/\/$/, '')}/page-${page}` : '';
        out.push(diagnostic('check/missing-page', ctx.routesFile, '', `${why}; add the route${where} (page ${page}, nodeid "${list.id}").`));
      }
    }
    for (const [page, decls] of byNumber) {
      if (page > n) {
        for (const d of decls) {
          out.push(
            diagnostic(
              'check/extra-page',
              ctx.routesFile,
              pointer(d.index, 'page'),
              `${why}; route ${d.route.path} (page ${page}) is past the end. Remove it, or list more ${list.noun}.`,
            ),
          );
        }
      }
      for (const d of decls.slice(1)) {
        out.push(
          diagnostic(
            'check/duplicate-page',
            ctx.routesFile,
            pointer(d.index, 'page'),
            `${list.label} has page ${page} twice: ${decls[0].route.path} (/${decls[0].index}) and ${d.route.path} (/${d.index}); keep one.`,
          ),
        );
      }
      for (const d of decls) {
        const expected = list.base === undefined ? undefined : `${list.base.replace(/\/$/, '')}/page-${page}`;
        const shapeOk = expected === undefined ? d.route.path.endsWith(`/page-${page}`) : d.route.path === expected;
        if (!shapeOk) {
          out.push(
            diagnostic(
              'check/page-path',
              ctx.routesFile,
              pointer(d.index, 'path'),
              `Route ${d.route.path} is page ${page} of ${list.label.replace(/^The /, 'the ')}; its path must be ${expected ?? `<list path>/page-${page}`}.`,
            ),
          );
        }
      }
    }
  }
  return out;
}
