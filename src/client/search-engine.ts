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

export async function loadEngine(entryUrl: string = SEARCH_ENTRY_PATH): Promise<Engine> {
  const entry = await getJson<SearchEntry>(entryUrl);
  if (entry.version !== SEARCH_INDEX_VERSION) throw new Error(`search index version ${entry.version}, expected ${SEARCH_INDEX_VERSION}`);
  const file = await getJson<SearchIndexFile>(entry.index);
  // The async loader yields between batches: rebuilding a large index in one go blocks the page for seconds on slow phones.
  const mini = await MiniSearch.loadJSAsync(file.index as Parameters<typeof MiniSearch.loadJSAsync>[0], INDEX_OPTIONS);
  const options = queryOptionsFor(file.docs);
  return {
    documents: file.docs.length,
    search(query, kind = null) {
      // Typos are forgiven only when the words as typed find nothing: "sleep" must not also find "sheep".
      let results = mini.search(query, { ...options, fuzzy: false });
      if (results.length === 0) results = mini.search(query, options);
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
        results = mini.search(query, { ...options, combineWith: 'OR' }).filter((r) => r.queryTerms.length >= need);
      }
      const counts: Record<SearchKind, number> = { product: 0, article: 0, news: 0 };
      for (const r of results) counts[file.docs[r.id as number][0]]++;
      const shown = kind !== null && counts[kind] > 0 ? kind : null;
      if (shown !== null) results = results.filter((r) => file.docs[r.id as number][0] === shown);
      const hits = results.slice(0, SEARCH.maxResults).map((r) => {
        const [kind, url, title, excerpt] = file.docs[r.id as number];
        const terms = new Set(r.terms);
        return { kind, url, title: highlight(title, terms), snippet: highlight(snippetWindow(excerpt, terms, SEARCH.snippetChars), terms) };
      });
      return { hits, counts, kind: shown };
    },
  };
}
