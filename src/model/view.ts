/**
 * Binds a route to the content it shows (docs/CONTRACTS.md "How a route
 * binds to content"): one resolved view per route, shared by the head and
 * the screen templates so that neither looks anything up twice.
 */
import type { Article, Category, NewsItem, Page, Product, RouteRecord } from '../core/schema.js';
import { PAGE_SCREENS } from '../core/screens.js';
import { type ListRoutes, type PageKind, isSitePath, type SiteModel, articleHref, newsHref, pageNumber, pageSlice, productHref, screenHref } from './model.js';

/** One step of a breadcrumb trail; the last one is the current page. */
export interface Crumb {
  name: string;
  path: string;
}

interface ListView<T> {
  pageNo: number;
  items: T[];
  /** Items before this page (positions in ItemList continue across pages). */
  offset: number;
  total: number;
  list: ListRoutes;
}

type PageScreen = 'home' | 'about' | 'contact' | 'search' | 'search-not-found' | 'thanks';

export type View =
  | { [S in PageScreen]: { screen: S; page: Page } }[PageScreen]
  | { [S in 'products' | 'category']: { screen: S; category: Category } & ListView<Product> }['products' | 'category']
  | { screen: 'product'; product: Product; category: Category }
  | ({ screen: 'knowledge'; page: Page } & ListView<Article>)
  | { screen: 'article'; article: Article }
  | ({ screen: 'news'; page: Page } & ListView<NewsItem>)
  | { screen: 'news-detail'; item: NewsItem };

/** A route names content that does not exist, or a screen no template shows. */
export class RouteBindingError extends Error {
  override name = 'RouteBindingError';
}

function missing(route: RouteRecord, what: string, dir: string): never {
  throw new RouteBindingError(`route ${route.path}: no ${what} with id "${route.nodeid}" in data/${dir}/ (nodeid of the route)`);
}

function pageFor(model: SiteModel, route: RouteRecord, kind: PageKind): Page {
  const page = model.pages.get(route.nodeid);
  if (page && page.kind === kind) return page;
  // A registry that names the page by something else still shows the one page of that kind.
  return model.pageOfKind.get(kind) ?? missing(route, `page of kind "${kind}"`, 'pages');
}

function listView<T>(model: SiteModel, route: RouteRecord, items: readonly T[], perPage: number): ListView<T> {
  const pageNo = pageNumber(route);
  return {
    pageNo,
    items: pageSlice(items, pageNo, perPage),
    offset: (pageNo - 1) * perPage,
    total: items.length,
    list: model.lists.get(route.nodeid) ?? { bare: route.path, pages: [{ page: pageNo, path: route.path }], paged: new Map() },
  };
}

export function resolveView(model: SiteModel, route: RouteRecord): View {
  if (!isSitePath(route.path)) {
    throw new RouteBindingError(`route ${JSON.stringify(route.path)}: a path must start with a single "/" and hold no spaces or control characters`);
  }
  const per = model.site.itemsPerPage;
  switch (route.screen) {
    case 'products':
    case 'category': {
      const category = model.categories.get(route.nodeid) ?? missing(route, 'category', 'categories');
      return { screen: route.screen, category, ...listView(model, route, model.productsIn.get(category.id) ?? [], per.products) };
    }
    case 'product': {
      const product = model.products.get(route.nodeid) ?? missing(route, 'product', 'products');
      const category =
        model.categories.get(product.category) ?? missing({ ...route, nodeid: product.category }, `category (of product "${product.slug}")`, 'categories');
      return { screen: 'product', product, category };
    }
    case 'article':
      return { screen: 'article', article: model.articles.get(route.nodeid) ?? missing(route, 'article', 'articles') };
    case 'news-detail':
      return { screen: 'news-detail', item: model.news.get(route.nodeid) ?? missing(route, 'news item', 'news') };
    case 'knowledge':
      return { screen: 'knowledge', page: pageFor(model, route, 'knowledge'), ...listView(model, route, model.articlesNewestFirst, per.articles) };
    case 'news':
      return { screen: 'news', page: pageFor(model, route, 'news'), ...listView(model, route, model.newsNewestFirst, per.news) };
    case 'home':
    case 'about':
    case 'contact':
    case 'search':
    case 'search-not-found':
    case 'thanks':
      return { screen: route.screen, page: pageFor(model, route, PAGE_SCREENS[route.screen as keyof typeof PAGE_SCREENS]!) } as View;
    default:
      // The spec's error catalogue names this message for a screen kind nobody knows.
      throw new RouteBindingError(`route ${route.path}: Unknown middleware ${route.screen}`);
  }
}

/** Categories above a category, outermost first (a group id without a page is skipped). */
function ancestors(model: SiteModel, category: Category): Category[] {
  const chain: Category[] = [];
  const seen = new Set([category.id]);
  let parent = category.parentId ? model.categories.get(category.parentId) : undefined;
  while (parent && !seen.has(parent.id) && !parent.all) {
    chain.unshift(parent);
    seen.add(parent.id);
    parent = parent.parentId ? model.categories.get(parent.parentId) : undefined;
  }
  return chain;
}

function categoryTrail(model: SiteModel, category: Category): Crumb[] {
  const home: Crumb = { name: 'Home', path: screenHref(model, 'home') };
  const all = model.allCategory;
  const allCrumb: Crumb[] = all && all.id !== category.id ? [{ name: all.name, path: listHref(model, all.id, all.path) }] : [];
  return [
    home,
    ...allCrumb,
    ...ancestors(model, category).map((c) => ({ name: c.name, path: listHref(model, c.id, c.path) })),
    { name: category.name, path: listHref(model, category.id, category.path) },
  ];
}

/** Path of a list's first page: the bare path when declared, else `/x/page-1`. */
export function listHref(model: SiteModel, nodeid: string, fallback: string): string {
  return model.lists.get(nodeid)?.pages[0]?.path ?? fallback;
}

/** The breadcrumb trail of a view; empty on home. */
export function breadcrumbs(model: SiteModel, route: RouteRecord, view: View): Crumb[] {
  const home: Crumb = { name: 'Home', path: screenHref(model, 'home') };
  const paged = (trail: Crumb[], pageNo: number): Crumb[] => (pageNo > 1 ? [...trail, { name: `Page ${pageNo}`, path: route.path }] : trail);
  switch (view.screen) {
    case 'home':
      return [];
    case 'products':
    case 'category':
      return paged(categoryTrail(model, view.category), view.pageNo);
    case 'product':
      return [...categoryTrail(model, view.category), { name: view.product.name, path: productHref(model, view.product) }];
    case 'knowledge':
    case 'news':
      return paged([home, { name: view.page.heading, path: listHref(model, route.nodeid, screenHref(model, view.screen)) }], view.pageNo);
    case 'article': {
      const list = model.pageOfKind.get('knowledge');
      return [
        home,
        { name: list?.heading ?? 'Knowledge', path: screenHref(model, 'knowledge') },
        { name: view.article.headline, path: articleHref(model, view.article) },
      ];
    }
    case 'news-detail': {
      const list = model.pageOfKind.get('news');
      return [home, { name: list?.heading ?? 'News', path: screenHref(model, 'news') }, { name: view.item.title, path: newsHref(model, view.item) }];
    }
    default:
      return [home, { name: view.page.heading, path: route.path }];
  }
}
