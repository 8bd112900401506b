/**
 * The site search's index, built at build time from the catalogue (not by
 * scraping the HTML: the catalogue has the clean text) with MiniSearch, and
 * written as `dist/search/index-<hash>.json` plus a small fixed-name
 * `dist/search/entry.json` that names it. Only /search loads it.
 */
import { createHash } from 'node:crypto';
import MiniSearch from 'minisearch';
import type { Catalogue } from '../../core/catalogue.js';
import type { Article, NewsItem, Product, RouteRecord } from '../../core/schema.js';
import { capText, entitySearchText, indexedTextChars, squash } from '../../core/search-text.js';
import {
  INDEX_OPTIONS,
  SEARCH_ENTRY_PATH,
  SEARCH_INDEX_VERSION,
  type SearchEntry,
  type SearchIndexFile,
  type SearchKind,
  type StoredDoc,
} from '../../core/search-options.js';

/** What the index needs of a route: a ResolvedRoute or a RouteRecord both fit. */
export type SearchRoute = Pick<RouteRecord, 'path' | 'screen' | 'nodeid'>;

export interface SearchDocument {
  kind: SearchKind;
  url: string;
  title: string;
  /** Plain text of the whole content, indexed. */
  text: string;
  /** The opening of the text, stored for result snippets. */
  excerpt: string;
}

export interface SearchIndexOutput {
  /** Files relative to the output directory, forward slashes. */
  files: Array<{ path: string; contents: string }>;
  /** URLs of the shards' files (content-hashed), in shard order. */
  shards: string[];
  documents: number;
}

/** Stored excerpt length: enough for the snippet window (SEARCH.snippetChars, 180), small enough for 1,000+ articles. */
const EXCERPT_CHARS = 300;

const SCREEN_KIND: Partial<Record<string, SearchKind>> = { product: 'product', article: 'article', 'news-detail': 'news' };

const excerptOf = (text: string): string => capText(text, EXCERPT_CHARS);

/**
 * The searchable documents: every product, article and news item that a
 * route shows, at its first declared path (a legacy duplicate path does not
 * make a second result). Sorted by kind then URL so the output is stable.
 * The text of a lean catalogue's entity (its body dropped at load) is the
 * one the load stage kept for it, made by the same function.
 */
export function searchDocuments(catalogue: Catalogue, routes: readonly SearchRoute[]): SearchDocument[] {
  const products = new Map(catalogue.products.map((p) => [p.id, p]));
  const articles = new Map(catalogue.articles.map((a) => [a.id, a]));
  const news = new Map(catalogue.news.map((n) => [n.id, n]));
  const max = indexedTextChars(catalogue.products.length + catalogue.articles.length + catalogue.news.length);
  const seen = new Set<string>();
  const docs: SearchDocument[] = [];
  const add = (kind: SearchKind, entity: Product | Article | NewsItem | undefined, url: string, title: (e: never) => string) => {
    if (entity === undefined) return;
    const key = `${kind}:${entity.id}`;
    if (seen.has(key)) return;
    seen.add(key);
    const text = catalogue.bodies?.get(entity)?.searchText ?? entitySearchText(kind, entity, max);
    docs.push({ kind, url, title: squash(title(entity as never)), text, excerpt: excerptOf(text) });
  };
  for (const route of routes) {
    const kind = SCREEN_KIND[route.screen];
    if (kind === 'product') add(kind, products.get(route.nodeid), route.path, (p: Product) => p.name);
    else if (kind === 'article') add(kind, articles.get(route.nodeid), route.path, (a: Article) => a.headline);
    else if (kind === 'news') add(kind, news.get(route.nodeid), route.path, (n: NewsItem) => n.title);
  }
  const order: Record<SearchKind, number> = { product: 0, article: 1, news: 2 };
  return docs.sort((a, b) => order[a.kind] - order[b.kind] || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

/** The index files, pure: the same catalogue gives byte-identical output. */
export function buildSearchIndex(catalogue: Catalogue, routes: readonly SearchRoute[]): SearchIndexOutput {
  return indexDocuments(searchDocuments(catalogue, routes));
}

/**
 * Documents a shard holds at most, about: few enough that indexing one again
 * is quick. A shard ranks by its own statistics, so results merged from
 * several rank a little differently from one index: a catalogue of this
 * size (the shipped one is 1,300) stays one index.
 */
const DOCUMENTS_PER_SHARD = 2048;
const MAX_SHARDS = 256;

/** How many shards an index of `documents` has: a power of two, so a growing site rarely moves every document. */
export function shardCount(documents: number): number {
  let shards = 1;
  while (shards < MAX_SHARDS && shards * DOCUMENTS_PER_SHARD < documents) shards *= 2;
  return shards;
}

/** The documents of each shard, by a hash of their URL (stable as other documents come and go), each in the documents' order. */
export function shardDocuments(docs: readonly SearchDocument[]): SearchDocument[][] {
  const count = shardCount(docs.length);
  const shards: SearchDocument[][] = Array.from({ length: count }, () => []);
  for (const doc of docs) shards[count === 1 ? 0 : createHash('sha1').update(doc.url).digest().readUInt32BE(0) % count].push(doc);
  return shards;
}

/** One shard's file: its documents and their MiniSearch index, named by its content's hash. */
export function indexShard(docs: readonly SearchDocument[]): { path: string; contents: string } {
  const mini = new MiniSearch<{ id: number; title: string; text: string }>(INDEX_OPTIONS);
  mini.addAll(docs.map((d, id) => ({ id, title: d.title, text: d.text })));
  const file: SearchIndexFile = {
    version: SEARCH_INDEX_VERSION,
    docs: docs.map((d): StoredDoc => [d.kind, d.url, d.title, d.excerpt]),
    index: mini.toJSON(),
  };
  const contents = JSON.stringify(file);
  const hash = createHash('sha256').update(contents).digest('hex').slice(0, 10);
  return { path: `search/index-${hash}.json`, contents };
}

/** The index files of the shards' files, in shard order: theirs and the entry file that names them. */
export function searchIndexOutput(shards: ReadonlyArray<{ path: string; contents: string }>, documents: number): SearchIndexOutput {
  const urls = shards.map((f) => `/${f.path}`);
  const entry: SearchEntry = { version: SEARCH_INDEX_VERSION, shards: urls, documents };
  return { files: [...shards, { path: SEARCH_ENTRY_PATH.slice(1), contents: JSON.stringify(entry) + '\n' }], shards: urls, documents };
}

/** The index files of documents made by searchDocuments. */
export function indexDocuments(docs: readonly SearchDocument[]): SearchIndexOutput {
  return searchIndexOutput(shardDocuments(docs).map(indexShard), docs.length);
}
