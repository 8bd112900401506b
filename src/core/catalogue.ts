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
  /** The files of `data/images/`, sorted by URL: the build publishes each at its `url`. */
  images: CatalogueImage[];
  /**
   * Where each entity came from, relative to the project (e.g. `data/products/bulk-curcumin.json`),
   * so later stages can point diagnostics at the right file. Keys are the entity objects above.
   */
  sourceOf: WeakMap<object, string>;
  /**
   * Set when the catalogue was loaded lean (`validateData(snapshot, { lean: true })`,
   * what `site build` does): each product's description and each article's and
   * news item's body was dropped once its file was validated, and this says
   * where it is and what the check and the search index needed from it.
   * Keys are the product, article and news objects.
   */
  bodies?: WeakMap<object, BodyRef>;
  /**
   * Set when the check keeps its results in the build cache: each file's
   * validated value (the entity objects above, site.json's and routes.json's
   * values) → the hash of its JSON, made once when the file was validated and
   * kept with its result (`valueDigest` in src/load/index.ts). It is the hash
   * the build's record would compute for the object (`readDigests` in
   * src/model/reads.ts), which then need not serialise it again.
   */
  valueDigests?: WeakMap<object, string>;
}

/** Where a lean catalogue's dropped body is, and what was taken from it while its file was in hand. */
export interface BodyRef {
  /** Absolute path of the entity's data file. */
  path: string;
  /** sha1 of the file's bytes as validated: whoever reads the body back refuses a file changed since. */
  digest: string;
  /** The field that holds the blocks: `description` of a product, `body` of an article or news item. */
  field: 'description' | 'body';
  /** The entity's search text (src/core/search-text.ts), capped for the catalogue's size. */
  searchText: string;
  /**
   * Every link written in the blocks, as [JSON pointer, href], for the check's link rules;
   * emptied once they ran (checkDataDir), since nothing later reads them.
   */
  links: Array<[string, string]>;
}

/** An image file of `data/images/`. */
export interface CatalogueImage {
  /** Where the site publishes it: `/images/<path under data/images/>`. */
  url: string;
  /** As diagnostics name it: `data/images/…`. */
  file: string;
  /** Absolute path of the file. */
  path: string;
  size: number;
  /** sha1 of its bytes when the catalogue was read: the build refuses to publish a file changed since. */
  digest: string;
  /** Pixel size from the file's header, when it could be read. */
  width?: number;
  height?: number;
  /** An SVG that could run code when opened on its own (see isScriptedSvg in load/read.ts). */
  scripted?: true;
}

export type EntityKind = 'category' | 'product' | 'article' | 'news' | 'page';
