/**
 * Rules about each route declaration of the registry: its path, its screen
 * kind and name, the node it shows, grandId, type, meta, and declarations that
 * repeat or clash with each other.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { pointer } from '../core/diagnostics.js';
import { SCREENS, type RouteRecord, type Screen } from '../core/schema.js';
import { PAGE_SCREENS } from '../core/screens.js';
import type { CheckCode } from '../core/codes.js';
import { canonicalJson, diagnostic, type CheckContext, type Declaration } from './context.js';
import { outputFileOf, pathProblems } from './paths.js';

const HEX_ID = /^[0-9a-f]{32}$/;
const KNOWN_SCREENS = new Set<string>(SCREENS);

export { PAGE_SCREENS };

/** Screens whose routes may be paged (`page` set, path `<list>/page-<n>`). */
export const LIST_SCREENS = new Set<Screen>(['products', 'category', 'knowledge', 'news']);

/** Detail screens and the entity kind their node id names. */
export const DETAIL_SCREENS = { product: 'product', article: 'article', 'news-detail': 'news item' } as const;

const FIXED_NAMES: Partial<Record<Screen, string>> = {
  home: 'Home',
  product: 'productsdetail',
  article: 'knowledgedetail',
  'news-detail': 'newsdetail',
  about: 'about',
  contact: 'contact',
  search: 'search',
  'search-not-found': 'search404',
  thanks: 'thanks',
};
const BARE_LIST_NAMES: Partial<Record<Screen, string>> = { products: 'products', category: 'productsclass', knowledge: 'knowledge', news: 'news1' };

/** The route name of spec section 3 for a route; list names depend on the page. */
export function expectedNames(route: RouteRecord): string[] {
  const screen = route.screen as Screen;
  const fixed = FIXED_NAMES[screen];
  if (fixed) return [fixed];
  if (route.page === undefined) return [BARE_LIST_NAMES[screen] ?? ''];
  // The news list is `news1` on its first page too; later pages follow the numbering or the node-id rule.
  if (screen === 'news') return route.page === 1 ? ['news1'] : [`news${route.page}`, route.nodeid];
  return [route.nodeid];
}

export function checkRoutes(ctx: CheckContext): Diagnostic[] {
  return [...checkPaths(ctx), ...checkDuplicates(ctx), ...checkOutputs(ctx), ...ctx.distinct.flatMap((d) => checkDeclaration(ctx, d))];
}

/** Path syntax, once per distinct path, at its first declaration; and no page where the inquiry endpoint is. */
function checkPaths(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const endpoint = endpointPath(ctx.catalogue.site.inquiryEndpoint);
  for (const [path, decls] of ctx.byPath) {
    const at = pointer(decls[0].index, 'path');
    for (const p of pathProblems(path)) out.push(diagnostic(p.code, ctx.routesFile, at, p.message));
    if (endpoint !== null && path.replace(/\/+$/, '') === endpoint) {
      out.push(
        diagnostic(
          'check/path-reserved',
          ctx.routesFile,
          at,
          `Route path "${path}" is the inquiry endpoint (inquiryEndpoint in ${ctx.siteFile}), which site serve answers for POST only: the page would answer 405. Choose another path, or move the endpoint.`,
        ),
      );
    }
  }
  return out;
}

/** The path of an inquiry endpoint on this site, without query and trailing slash; null for one elsewhere (https:). */
function endpointPath(endpoint: string | undefined): string | null {
  if (endpoint === undefined || !endpoint.startsWith('/')) return null;
  return endpoint.replace(/[?#].*$/s, '').replace(/\/+$/, '');
}

/**
 * A path declared more than once: identically is a legacy wart the build
 * tolerates (it builds the page once); with different fields nobody can tell
 * which page was meant, so it is an error listing both declarations.
 */
function checkDuplicates(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [path, decls] of ctx.byPath) {
    if (decls.length < 2) continue;
    const first = decls[0];
    const firstKey = canonicalJson(first.route);
    for (const d of decls.slice(1)) {
      if (canonicalJson(d.route) === firstKey) {
        out.push(
          diagnostic(
            'check/duplicate-route',
            ctx.routesFile,
            pointer(d.index),
            `Route ${path} is declared again at /${d.index}, identically to /${first.index}; the build uses one. Remove the repeated declaration.`,
          ),
        );
      } else {
        const fields = differingFields(first.route, d.route);
        out.push(
          diagnostic(
            'check/conflicting-route',
            ctx.routesFile,
            pointer(d.index),
            `Route ${path} is declared twice with different ${fields.join(', ')}: /${first.index} and /${d.index}; keep one declaration.`,
          ),
        );
      }
    }
  }
  return out;
}

function differingFields(a: RouteRecord, b: RouteRecord): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort() as Array<keyof RouteRecord>;
  const fields: string[] = [];
  for (const k of keys) {
    if (k === 'meta') {
      for (const m of ['title', 'description', 'keywords'] as const) if (a.meta?.[m] !== b.meta?.[m]) fields.push(`meta.${m}`);
    } else if (canonicalJson(a[k]) !== canonicalJson(b[k])) fields.push(k);
  }
  return fields;
}

/**
 * Different paths that end up as the same file (`/a` and `/a/`) overwrite
 * each other; paths that differ only in case do so on case-insensitive hosts.
 */
function checkOutputs(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byOutput = new Map<string, string[]>();
  const byFolded = new Map<string, string[]>();
  for (const path of ctx.byPath.keys()) {
    const file = outputFileOf(path);
    byOutput.set(file, [...(byOutput.get(file) ?? []), path]);
    const folded = file.toLowerCase();
    if (!(byFolded.get(folded) ?? []).some((p) => outputFileOf(p) === file)) byFolded.set(folded, [...(byFolded.get(folded) ?? []), path]);
  }
  const at = (path: string) => ctx.byPath.get(path)![0].index;
  for (const [file, paths] of byOutput) {
    for (const path of paths.slice(1)) {
      out.push(
        diagnostic(
          'check/output-collision',
          ctx.routesFile,
          pointer(at(path), 'path'),
          `Routes ${paths[0]} (/${at(paths[0])}) and ${path} (/${at(path)}) are both written to dist/${file}; keep one path.`,
        ),
      );
    }
  }
  for (const paths of byFolded.values()) {
    for (const path of paths.slice(1)) {
      out.push(
        diagnostic(
          'check/output-case-collision',
          ctx.routesFile,
          pointer(at(path), 'path'),
          `Routes ${paths[0]} (/${at(paths[0])}) and ${path} (/${at(path)}) differ only in letter case; on a case-insensitive host (macOS, Windows) one overwrites the other. Rename one.`,
        ),
      );
    }
  }
  return out;
}

/** Rules about one declaration on its own (plus the entity it names). */
function checkDeclaration(ctx: CheckContext, { route, index }: Declaration): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (...tokens: Array<string | number>) => pointer(index, ...tokens);
  const add = (code: CheckCode, ptr: string, message: string) => out.push(diagnostic(code, ctx.routesFile, ptr, message));
  const path = route.path;

  if (!KNOWN_SCREENS.has(route.screen)) {
    add(
      'check/unknown-screen',
      at('screen'),
      `Unknown middleware ${route.screen}: route ${path} names a screen kind that does not exist; use one of ${SCREENS.join(', ')}.`,
    );
    return out;
  }
  const screen = route.screen as Screen;

  if (!HEX_ID.test(route.nodeid)) {
    add(
      'check/nodeid-not-hex',
      at('nodeid'),
      `Route ${path} has node id "${route.nodeid}", a name rather than 32 lower-case hex characters; it works, but new routes should use the CMS's hex id.`,
    );
  }
  if (route.type !== route.nodeid) {
    add('check/type-mismatch', at('type'), `Route ${path} has type "${route.type}" but node id "${route.nodeid}"; type must equal the node id.`);
  }

  const names = expectedNames(route);
  if (!names.includes(route.name)) {
    const shape = LIST_SCREENS.has(screen) ? (route.page === undefined ? ` (bare ${screen} list)` : ` (page ${route.page} of a ${screen} list)`) : '';
    add('check/route-name', at('name'), `Route ${path} is named "${route.name}"; a ${screen} route${shape} is named "${names[0]}".`);
  }

  if (route.page !== undefined && !LIST_SCREENS.has(screen)) {
    add(
      'check/unexpected-page',
      at('page'),
      `Route ${path} has page ${route.page}, but only list screens (${[...LIST_SCREENS].join(', ')}) are paged; remove "page".`,
    );
  }

  const product = screen === 'product' ? ctx.products.get(route.nodeid) : undefined;
  if (screen === 'product') {
    if (product && route.grandId !== product.category) {
      add(
        'check/grandid-mismatch',
        route.grandId === undefined ? at() : at('grandId'),
        `Product route ${path} has grandId "${route.grandId ?? ''}" but its product's category is "${product.category}"; set grandId to the category's node id.`,
      );
    }
  } else if (route.grandId !== undefined && route.grandId !== '') {
    add(
      'check/unexpected-grandid',
      at('grandId'),
      `Route ${path} (${screen}) has grandId "${route.grandId}"; only product detail routes have one. Remove it or leave it empty.`,
    );
  }

  const content = contentProblem(ctx, route, screen);
  if (content) add('check/route-without-content', at('nodeid'), content);

  const empty = (['title', 'description', 'keywords'] as const).filter((k) => route.meta[k].trim() === '');
  if (empty.length > 0) {
    add(
      'check/empty-meta',
      at('meta'),
      `Route ${path} has an empty meta ${listWords(empty)}; the build falls back to text made from the content. Write ${empty.length > 1 ? 'them' : 'it'} for better search results.`,
    );
  }
  return out;
}

/** Why a route's node id names nothing it could show, or undefined when it does. */
function contentProblem(ctx: CheckContext, route: RouteRecord, screen: Screen): string | undefined {
  const id = route.nodeid;
  const path = route.path;
  switch (screen) {
    case 'products': {
      const c = ctx.categories.get(id);
      return c?.all
        ? undefined
        : `Route ${path} (products) names node "${id}", which is not the all-products category (the one with "all": true); use that category's id.`;
    }
    case 'category': {
      const c = ctx.categories.get(id);
      if (!c) return `Route ${path} (category) names node "${id}", but no category in data/categories has that id.`;
      return c.all ? `Route ${path} names the all-products category; its screen is "products", not "category".` : undefined;
    }
    case 'product':
      return ctx.products.has(id)
        ? undefined
        : `Product route ${path} names node "${id}", but no product in data/products has that id; add the product or remove the route.`;
    case 'article':
      return ctx.articles.has(id)
        ? undefined
        : `Article route ${path} names node "${id}", but no article in data/articles has that id; add the article or remove the route.`;
    case 'news-detail':
      return ctx.news.has(id)
        ? undefined
        : `News route ${path} names node "${id}", but no news item in data/news has that id; add the item or remove the route.`;
    default: {
      const kind = PAGE_SCREENS[screen];
      const p = ctx.pages.get(id);
      if (!p) return `Route ${path} (${screen}) names node "${id}", but no page in data/pages has that id.`;
      return p.kind === kind ? undefined : `Route ${path} (${screen}) names page "${id}", which is a ${p.kind} page; use the id of the ${kind} page.`;
    }
  }
}

function listWords(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
