/**
 * The search engine chunk: MiniSearch and the index. Loaded lazily by the
 * /search page only, so no other page pays for the library.
 */
import MiniSearch from 'minisearch';
import { SEARCH } from './constants.js';
import {
  INDEX_OPTIONS,
  processTerm,
  queryOptionsFor,
  SEARCH_ENTRY_PATH,
  tokenize,
  SEARCH_INDEX_VERSION,
  type SearchEntry,
  type SearchIndexFile,
  type SearchKind,
  type StoredDoc,
} from '../core/search-options.js';
import { highlight, snippetWindow, type Segment } from './snippet.js';

export interface Hit {
  kind: SearchKind;
  url: string;
  title: Segment[];
  snippet: Segment[];
}

/** The answer to a query: the first results (of `kind`, or of every kind), and how many of each kind matched in all. */
export interface Answer {
  hits: Hit[];
  counts: Record<SearchKind, number>;
  /** The kind the hits are of; null when asked for none, or when nothing of the kind asked for matched. */
  kind: SearchKind | null;
}

export interface Engine {
  documents: number;
  search(query: string, kind?: SearchKind | null): Answer;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

/** A shard's document by its id there, and the result that found it. */
interface Found {
  doc: StoredDoc;
  score: number;
  terms: string[];
  queryTerms: string[];
}

export async function loadEngine(entryUrl: string = SEARCH_ENTRY_PATH): Promise<Engine> {
  const entry = await getJson<SearchEntry>(entryUrl);
  if (entry.version !== SEARCH_INDEX_VERSION) throw new Error(`search index version ${entry.version}, expected ${SEARCH_INDEX_VERSION}`);
  const files = await Promise.all(entry.shards.map((url) => getJson<SearchIndexFile>(url)));
  // The async loader yields between batches: rebuilding a large index in one go blocks the page for seconds on slow phones.
  const shards = await Promise.all(
    files.map(async (file) => ({
      docs: file.docs,
      mini: await MiniSearch.loadJSAsync(file.index as Parameters<typeof MiniSearch.loadJSAsync>[0], INDEX_OPTIONS),
      options: queryOptionsFor(file.docs),
    })),
  );
  /** The query on every shard, merged by score (ties in shard order, as one index would list them by id). */
  const searchAll = (query: string, override: { fuzzy?: false; combineWith?: 'OR' }): Found[] =>
    shards
      .flatMap(({ docs, mini, options }) =>
        mini
          .search(query, { ...options, ...override } as typeof options)
          .map((r) => ({ doc: docs[r.id as number], score: r.score, terms: r.terms, queryTerms: r.queryTerms })),
      )
      .sort((a, b) => b.score - a.score);
  return {
    documents: entry.documents,
    search(query, kind = null) {
      // Typos are forgiven only when the words as typed find nothing: "sleep" must not also find "sheep".
      let results = searchAll(query, { fuzzy: false });
      if (results.length === 0) results = searchAll(query, {});
      if (results.length === 0) {
        // Nothing has every word: accept documents with at least half of them,
        // so one stray word does not hide good results, and one common word
        // ("1", "powder") does not pass off noise as an answer.
        const words = new Set(
          tokenize(query)
            .map(processTerm)
            .filter((t): t is string => t !== null),
        ).size;
        const need = Math.max(1, Math.ceil(words / 2));
        results = searchAll(query, { combineWith: 'OR' }).filter((r) => r.queryTerms.length >= need);
      }
      const counts: Record<SearchKind, number> = { product: 0, article: 0, news: 0 };
      for (const r of results) counts[r.doc[0]]++;
      const shown = kind !== null && counts[kind] > 0 ? kind : null;
      if (shown !== null) results = results.filter((r) => r.doc[0] === shown);
      const hits = results.slice(0, SEARCH.maxResults).map((r) => {
        const [kind, url, title, excerpt] = r.doc;
        const terms = new Set(r.terms);
        return { kind, url, title: highlight(title, terms), snippet: highlight(snippetWindow(excerpt, terms, SEARCH.snippetChars), terms) };
      });
      return { hits, counts, kind: shown };
    },
  };
}
