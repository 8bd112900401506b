/**
 * The search index's shape, shared by the build (src/emit/files/search-index.ts,
 * which writes it) and the search page (which loads and queries it): the
 * tokenizer and term processing must be identical on both sides or queries
 * miss. Pure, no DOM and no Node APIs.
 */

export const SEARCH_INDEX_VERSION = 2;

/** Fixed-name entry file (revalidated) pointing at the content-hashed index (cached for ever). */
export const SEARCH_ENTRY_PATH = '/search/entry.json';

import type { SearchKind } from './search-kinds.js';

export { KIND_LABELS, type SearchKind } from './search-kinds.js';

/** One document: [kind, url, title, excerpt]. A tuple keeps the JSON small. */
export type StoredDoc = [SearchKind, string, string, string];

/**
 * The index is in shards, each a MiniSearch index of the documents whose URL
 * hashes to it: an edited document changes one shard, and a build indexes
 * only that one again (build/files/search-cache.ts). A query runs on every
 * shard; their results are merged by score.
 */
export interface SearchEntry {
  version: number;
  /** Absolute paths of the shards' files. */
  shards: string[];
  documents: number;
}

export interface SearchIndexFile {
  version: number;
  /** This shard's documents. */
  docs: StoredDoc[];
  /** MiniSearch's serialised index (`toJSON()`); document ids are positions in `docs`. */
  index: unknown;
}

/**
 * English function words: in nearly every document, so they rank nothing and
 * their postings were a sixth of the index. Domain words ("free", "sample",
 * "bulk") stay searchable.
 */
const STOP_WORDS = new Set(
  (
    'a about after all also an and any are as at be been before being both but by can could did do does each for from had has have how i if in ' +
    'into is it its just may might more most must no nor not of on only or other our over own per same should so some such than that the their ' +
    'them then there these they this those to too up us very via was we were what when where which while who whom why will with would you your'
  ).split(' '),
);

/** Letters and digits runs; everything else separates words ("98%", "l-arginine" → "98", "l", "arginine"). */
export const WORD = /[\p{L}\p{N}]+/gu;

export const tokenize = (text: string): string[] => text.match(WORD) ?? [];

const ASCII = /^[\x00-\x7f]*$/;

/** Lower case without diacritics, so "açaí" finds "acai". Null drops the term. */
export function processTerm(term: string): string | null {
  // Most terms are ASCII: skip the costly normalisation (a third of the index build).
  const t = (ASCII.test(term) ? term : term.normalize('NFKD').replace(/\p{M}+/gu, '')).toLowerCase();
  return t === '' || STOP_WORDS.has(t) ? null : t;
}

/** MiniSearch options for indexing and loading (must match). */
export const INDEX_OPTIONS = {
  idField: 'id',
  fields: ['title', 'text'],
  storeFields: [] as string[],
  tokenize,
  processTerm,
};

/**
 * How much a match counts by the kind of document. A buyer who types an
 * ingredient looks for the product first: an article about it mentions the
 * word more often and ranked above it ("berberine" listed four articles
 * before the product).
 */
export const KIND_BOOST: Record<SearchKind, number> = { product: 2, article: 1, news: 1 };

/** QUERY_OPTIONS with each document's kind boost; `docs` are the index file's documents. */
export function queryOptionsFor(docs: readonly StoredDoc[]) {
  return {
    ...QUERY_OPTIONS,
    boostDocument: (id: unknown): number => {
      const kind = docs[id as number]?.[0];
      return kind === undefined ? 1 : KIND_BOOST[kind];
    },
  };
}

/** Query options: title matches count most; prefixes help as-you-type; light typo tolerance on long words. */
export const QUERY_OPTIONS = {
  boost: { title: 3 },
  prefix: (term: string) => term.length >= 3,
  fuzzy: (term: string) => (term.length >= 5 ? 0.2 : false),
  combineWith: 'AND' as const,
};
