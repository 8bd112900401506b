/**
 * The site model: everything a template needs that is not in the route
 * itself, computed once per worker thread so that rendering a route is a
 * cheap, pure function of (model, route).
 */
import type { Catalogue } from '../core/catalogue.js';
import { srcSetOf } from '../core/images.js';
import type { Article, Category, NewsItem, Page, Product, RouteRecord, SiteConfig } from '../core/schema.js';
import { laterDate } from './text.js';

/** Absolute URLs under `/assets/` of the bundled stylesheet and scripts (from Vite's manifest). */
export interface AssetRefs {
  css: string;
  js: string;
  search: string;
}

export type PageKind = Page['kind'];

/** Screens whose routes list items in pages. */
export const LIST_SCREENS = new Set(['products', 'category', 'knowledge', 'news']);

/** One declared route of a list, by page number. */
export interface ListPageRef {
  page: number;
  path: string;
}

/** A list's pages by number: what its pagination and its head's prev/next links look up on every page of it. */
export interface ListPageIndex {
  /** Page numbers, ascending. */
  numbers: readonly number[];
  pathOf: ReadonlyMap<number, string>;
}

const pageIndexes = new WeakMap<readonly ListPageRef[], ListPageIndex>();

/** The index of a list's pages, made once per list: rebuilding it on each of a 7,000-page list's pages is quadratic. */
export function listPageIndex(pages: readonly ListPageRef[]): ListPageIndex {
  let index = pageIndexes.get(pages);
  if (index === undefined) pageIndexes.set(pages, (index = { numbers: pages.map((p) => p.page), pathOf: new Map(pages.map((p) => [p.page, p.path])) }));
  return index;
}

/** The declared routes of one list (a category, the knowledge library or the news). */
export interface ListRoutes {
  /** The bare path (`/herb-extract`) when declared. */
  bare?: string;
  /** Declared pages in order; page 1 links to the bare path when both exist. */
  pages: ListPageRef[];
  /** Page number → declared path of `/x/page-n` (bare not included). */
  paged: Map<number, string>;
}

/**
 * A navigation entry: a category (with a path) or a category group (without
 * one, it has no page), with the categories under it, in display order.
 */
export interface NavNode {
  /** Category id or category group id. */
  id: string;
  name: string;
  /** First declared page of the category's list; absent for category groups. */
  path?: string;
  children: NavNode[];
}

export interface SiteModel {
  site: SiteConfig;
  assets: AssetRefs;
  categories: Map<string, Category>;
  products: Map<string, Product>;
  articles: Map<string, Article>;
  news: Map<string, NewsItem>;
  /** Pages by id and by kind (`home`, `about`, …). */
  pages: Map<string, Page>;
  pageOfKind: Map<PageKind, Page>;
  /** The all-products category (`all: true`), when there is one. */
  allCategory?: Category;
  /** Category id → its products, featured first then by name (the all category lists every product). */
  productsIn: Map<string, Product[]>;
  articlesNewestFirst: Article[];
  articleIndex: Map<string, number>;
  newsNewestFirst: NewsItem[];
  newsIndex: Map<string, number>;
  /** Product id → articles that name it among their related products (newest first). */
  articlesAbout: Map<string, Article[]>;
  /** Entity id → the path of its declared detail route. */
  productPath: Map<string, string>;
  articlePath: Map<string, string>;
  newsPath: Map<string, string>;
  /** Screen (home, about, contact, search, …) → the path of its first declared route. */
  screenPath: Map<string, string>;
  /** List node id → its declared routes. */
  lists: Map<string, ListRoutes>;
  /** All categories grouped by parent (top-level categories and category groups first). */
  nav: NavNode[];
  /** Categories offered where a visitor is lost (search without results, 404, empty lists). */
  popularCategories: Category[];
  /** Newest content date of the whole catalogue: lastmod of pages with no content of their own. */
  newestDate: string;
  /** `srcset` of each photograph of data/images/ that has smaller copies, by its URL (see responsive). */
  srcSets: Map<string, string>;
}

const byName = (a: Product, b: Product): number =>
  Number(Boolean(b.featured)) - Number(Boolean(a.featured)) || compareText(a.name, b.name) || compareText(a.id, b.id);

/** Locale-free comparison: the same order on every machine. */
function compareText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

const newestFirst = <T extends { date: string; id: string }>(a: T, b: T): number => compareText(b.date, a.date) || compareText(a.id, b.id);

function indexBy<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
  return map;
}

function positions<T extends { id: string }>(items: readonly T[]): Map<string, number> {
  return new Map(items.map((item, i) => [item.id, i]));
}

/** Members of every category list, in list order. */
function listMembership(categories: readonly Category[], products: readonly Product[]): Map<string, Product[]> {
  const members = new Map<string, Product[]>(categories.map((c) => [c.id, []]));
  const sorted = [...products].sort(byName);
  const allIds = new Set(categories.filter((c) => c.all).map((c) => c.id));
  for (const p of sorted) {
    for (const id of new Set([p.category, ...p.listedIn])) if (!allIds.has(id)) members.get(id)?.push(p);
  }
  for (const id of allIds) members.set(id, sorted);
  return members;
}

/**
 * A path other pages may link to: site-absolute, one leading slash. Anything
 * else (a scheme, `//host`) is never linked; rendering that route fails.
 */
export const isSitePath = (path: string): boolean => /^\/(?![/\\])/.test(path) && !/[\u0000-\u001f\s]/.test(path);

/** First declared path per node id for one screen: duplicate declarations share one output. */
function pathsOf(routes: readonly RouteRecord[], screen: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const r of routes) if (r.screen === screen && !map.has(r.nodeid) && isSitePath(r.path)) map.set(r.nodeid, r.path);
  return map;
}

/** The page number a list route shows: its `page`, or 1 for the bare path. */
export function pageNumber(route: RouteRecord): number {
  return route.page ?? 1;
}

function listRoutes(routes: readonly RouteRecord[]): Map<string, ListRoutes> {
  const lists = new Map<string, ListRoutes>();
  for (const r of routes) {
    if (!LIST_SCREENS.has(r.screen) || !isSitePath(r.path)) continue;
    let list = lists.get(r.nodeid);
    if (!list) lists.set(r.nodeid, (list = { pages: [], paged: new Map() }));
    if (r.page === undefined) list.bare ??= r.path;
    else if (!list.paged.has(r.page)) list.paged.set(r.page, r.path);
  }
  for (const list of lists.values()) {
    const numbers = new Set(list.paged.keys());
    if (list.bare) numbers.add(1);
    list.pages = [...numbers].sort((a, b) => a - b).map((page) => ({ page, path: page === 1 && list.bare ? list.bare : list.paged.get(page)! }));
  }
  return lists;
}

/**
 * Navigation of all categories grouped by parent: top-level categories and
 * category groups (site.categoryGroups), each with the categories under it,
 * to any depth. A parent id that names nothing counts as top level.
 */
function navigation(site: SiteConfig, categories: readonly Category[], lists: Map<string, ListRoutes>): NavNode[] {
  const visible = categories.filter((c) => !c.all).sort((a, b) => a.order - b.order || compareText(a.name, b.name));
  const known = new Set([...visible.map((c) => c.id), ...site.categoryGroups.map((g) => g.id)]);
  const under = new Map<string | null, Category[]>();
  for (const c of visible) {
    const parent = c.parentId && known.has(c.parentId) && c.parentId !== c.id ? c.parentId : null;
    under.set(parent, [...(under.get(parent) ?? []), c]);
  }
  const seen = new Set<string>();
  const node = (c: Category): NavNode => {
    seen.add(c.id);
    const kids = (under.get(c.id) ?? []).filter((k) => !seen.has(k.id)); // a cycle in parentIds must not loop
    return { id: c.id, name: c.name, path: lists.get(c.id)?.pages[0]?.path ?? c.path, children: kids.map(node) };
  };
  const tops: Array<{ order: number; node: NavNode }> = (under.get(null) ?? []).map((c) => ({ order: c.order, node: node(c) }));
  for (const g of site.categoryGroups) {
    const members = under.get(g.id) ?? [];
    if (members.length === 0) continue;
    tops.push({ order: Math.min(...members.map((m) => m.order)), node: { id: g.id, name: g.name, children: members.map(node) } });
  }
  return tops.sort((a, b) => a.order - b.order || compareText(a.node.name, b.node.name)).map((t) => t.node);
}

/** Every category of the navigation, depth first (footer links, lookups). */
export function navCategories(nav: readonly NavNode[]): NavNode[] {
  return nav.flatMap((n) => [...(n.path ? [n] : []), ...navCategories(n.children)]);
}

/** The navigation entry of a category, at any depth. */
export function findNav(nav: readonly NavNode[], id: string): NavNode | undefined {
  for (const n of nav) {
    if (n.id === id) return n;
    const found = findNav(n.children, id);
    if (found) return found;
  }
  return undefined;
}

function newestContentDate(catalogue: Catalogue): string {
  let newest = '';
  for (const p of catalogue.products) newest = laterDate(newest, p.updated);
  for (const a of catalogue.articles) newest = laterDate(newest, a.updated ?? a.date);
  for (const n of catalogue.news) newest = laterDate(newest, n.date);
  for (const p of catalogue.pages) newest = laterDate(newest, p.updated);
  return newest;
}

export function createSiteModel(catalogue: Catalogue, assets: AssetRefs): SiteModel {
  const { site, routes } = catalogue;
  const categories = indexBy(catalogue.categories);
  const products = indexBy(catalogue.products);
  const articlesNewestFirst = [...catalogue.articles].sort(newestFirst);
  const newsNewestFirst = [...catalogue.news].sort(newestFirst);
  const pages = indexBy(catalogue.pages);
  const pageOfKind = new Map<PageKind, Page>();
  for (const p of catalogue.pages) if (!pageOfKind.has(p.kind)) pageOfKind.set(p.kind, p);

  const articlesAbout = new Map<string, Article[]>();
  for (const a of articlesNewestFirst) {
    for (const id of new Set(a.relatedProducts)) {
      const list = articlesAbout.get(id) ?? [];
      list.push(a);
      articlesAbout.set(id, list);
    }
  }

  const screenPath = new Map<string, string>();
  for (const r of routes) if (r.page === undefined && !screenPath.has(r.screen) && isSitePath(r.path)) screenPath.set(r.screen, r.path);

  const lists = listRoutes(routes);
  const nav = navigation(site, catalogue.categories, lists);
  const home = pageOfKind.get('home');
  const featured = (home?.featuredCategories ?? []).map((id) => categories.get(id)).filter((c): c is Category => c !== undefined);
  const popularCategories =
    featured.length > 0
      ? featured
      : catalogue.categories
          .filter((c) => !c.all && c.parentId === null)
          .sort((a, b) => a.order - b.order)
          .slice(0, 8);

  return {
    site,
    assets,
    categories,
    products,
    articles: indexBy(catalogue.articles),
    news: indexBy(catalogue.news),
    pages,
    pageOfKind,
    allCategory: catalogue.categories.find((c) => c.all),
    productsIn: listMembership(catalogue.categories, catalogue.products),
    articlesNewestFirst,
    articleIndex: positions(articlesNewestFirst),
    newsNewestFirst,
    newsIndex: positions(newsNewestFirst),
    articlesAbout,
    productPath: pathsOf(routes, 'product'),
    articlePath: pathsOf(routes, 'article'),
    newsPath: pathsOf(routes, 'news-detail'),
    screenPath,
    lists,
    nav,
    popularCategories,
    newestDate: newestContentDate(catalogue),
    srcSets: new Map(
      catalogue.images.flatMap((i): Array<[string, string]> => {
        const srcSet = srcSetOf(i);
        return srcSet === undefined ? [] : [[i.url, srcSet]];
      }),
    ),
  };
}

/**
 * `srcset` and `sizes` for an image of the site: a photograph of data/images/
 * lists its smaller copies (core/images.ts), so a phone or a list's card loads
 * one of them instead of the file; any other image gets neither.
 */
export function responsive(model: SiteModel, src: string, sizes: string): { srcSet?: string; sizes?: string } {
  const srcSet = model.srcSets.get(src);
  return srcSet ? { srcSet, sizes } : {};
}

// ------------------------------------------------------------ lookups templates use

/** Path of a product's detail page; falls back to `{category path}/{slug}` for an undeclared product. */
export function productHref(model: SiteModel, product: Product): string {
  return model.productPath.get(product.id) ?? `${model.categories.get(product.category)?.path ?? '/products'}/${product.slug}`;
}

export function articleHref(model: SiteModel, article: Article): string {
  return model.articlePath.get(article.id) ?? `/knowledge/${article.slug}`;
}

export function newsHref(model: SiteModel, item: NewsItem): string {
  return model.newsPath.get(item.id) ?? `/news/${item.slug}`;
}

/** Path of a non-catalogue screen, with the spec's path as fallback. */
const SCREEN_DEFAULTS: Record<string, string> = {
  home: '/',
  products: '/products',
  about: '/about-us',
  contact: '/contact-us',
  knowledge: '/knowledge',
  news: '/news',
  search: '/search',
  'search-not-found': '/search/404',
  thanks: '/thanks',
};
export function screenHref(model: SiteModel, screen: string): string {
  return model.screenPath.get(screen) ?? SCREEN_DEFAULTS[screen] ?? '/';
}

/** Up to `limit` products shown as related: the product's own list, then its category's other products. */
export function relatedProducts(model: SiteModel, product: Product, limit = 4): Product[] {
  const chosen: Product[] = [];
  const seen = new Set([product.id]);
  const take = (p: Product | undefined): void => {
    if (p && !seen.has(p.id) && chosen.length < limit) {
      seen.add(p.id);
      chosen.push(p);
    }
  };
  for (const id of product.relatedProducts) take(model.products.get(id));
  for (const p of model.productsIn.get(product.category) ?? []) {
    if (chosen.length >= limit) break;
    take(p);
  }
  return chosen;
}

/**
 * The first `limit` distinct articles of `sources`, in order. It stops at the
 * limit: a popular product is named by hundreds of articles.
 */
function firstArticles(limit: number, ...sources: Array<Iterable<Article | undefined>>): Article[] {
  const chosen: Article[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    for (const a of source) {
      if (chosen.length >= limit) return chosen;
      if (a && !seen.has(a.id)) {
        seen.add(a.id);
        chosen.push(a);
      }
    }
  }
  return chosen;
}

/** The articles a product names. */
function* namedBy(model: SiteModel, product: Product): Iterable<Article | undefined> {
  for (const id of product.relatedArticles) yield model.articles.get(id);
}

/** Articles shown on a product page: those it names, then those that name it. */
export function relatedArticles(model: SiteModel, product: Product, limit = 4): Article[] {
  return firstArticles(limit, namedBy(model, product), model.articlesAbout.get(product.id) ?? []);
}

/**
 * Articles shown under a page of a product list: one for each product on the
 * page in turn, until `limit`. Each page of a list gets articles of its own
 * products, so no two pages repeat one set, and the knowledge library gets
 * links from the catalogue as well as to it. For a product, the articles
 * that name it come first: they are about it, where the articles a product
 * names are sometimes only of the same kind.
 */
export function guidesFor(model: SiteModel, products: readonly Product[], limit = 3): Article[] {
  const chosen: Article[] = [];
  const seen = new Set<string>();
  const candidates = products.map((p) => firstArticles(limit, model.articlesAbout.get(p.id) ?? [], namedBy(model, p)));
  for (let round = 0; round < limit && chosen.length < limit; round++) {
    for (const list of candidates) {
      const a = list[round];
      if (a === undefined || seen.has(a.id)) continue;
      seen.add(a.id);
      chosen.push(a);
      if (chosen.length >= limit) break;
    }
  }
  return chosen;
}

/** Neighbours in a newest-first list: `prev` is the newer item, `next` the older one. */
export function neighbours<T extends { id: string }>(list: readonly T[], index: Map<string, number>, id: string): { prev?: T; next?: T } {
  const i = index.get(id);
  if (i === undefined) return {};
  return { prev: i > 0 ? list[i - 1] : undefined, next: i + 1 < list.length ? list[i + 1] : undefined };
}

/** Items shown on page `page` of a list. */
export function pageSlice<T>(items: readonly T[], page: number, perPage: number): T[] {
  return items.slice((page - 1) * perPage, page * perPage);
}
