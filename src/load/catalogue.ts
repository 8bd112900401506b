import type { Article, Category, NewsItem, Page, Product, RouteRecord, SiteConfig } from './schema.js';

/** The whole catalogue as the load stage returns it: validated, nothing cross-checked yet. */
export interface Catalogue {
  /** Absolute path of the data directory. */
  root: string;
  site: SiteConfig;
  routes: RouteRecord[];
  categories: Category[];
  products: Product[];
  articles: Article[];
  news: NewsItem[];
  pages: Page[];
  /**
   * Where each entity came from, relative to the project (e.g. `data/products/bulk-curcumin.json`),
   * so later stages can point diagnostics at the right file. Keys are the entity objects above.
   */
  sourceOf: WeakMap<object, string>;
}

export type EntityKind = 'category' | 'product' | 'article' | 'news' | 'page';
