/**
 * The kinds of search result and their names. A module of its own: the
 * /search page's chunk imports these, and importing search-options.ts would
 * bring its stop-word list along (a module-level Set is kept by the bundler),
 * 350 bytes of a page's 15 KB of JavaScript.
 */
export type SearchKind = 'product' | 'article' | 'news';

export const KIND_LABELS: Record<SearchKind, string> = { product: 'Product', article: 'Article', news: 'News' };

/** The kinds in their order on the search page, and their names for many results. */
export const KINDS = Object.keys(KIND_LABELS) as SearchKind[];
export const KIND_PLURALS: Record<SearchKind, string> = { product: 'Products', article: 'Articles', news: 'News' };
