/**
 * The site search's index, built at build time from the catalogue (not by
 * scraping the HTML: the catalogue has the clean text) with MiniSearch, and
 * written as `dist/search/index-<hash>.json` plus a small fixed-name
 * `dist/search/entry.json` that names it. Only /search loads it.
 */
import { hash } from 'node:crypto';
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
  /**
   * What `text` and `excerpt` were made from, when that is known without them: a lean catalogue's entity, its
   * file's sha1 and the text cap. Neither indexed nor stored; the search cache names the document by it.
   */
  source?: string;
}

/**
 * A file of the index, relative to the output directory (forward slashes): a shard's stored bytes as the cache
 * holds them, or text made now.
 */
export type SearchFile = { path: string; contents: string | Uint8Array };

export interface SearchIndexOutput {
  files: SearchFile[];
  /** URLs of the shards' files (content-hashed), in shard order. */
  shards: string[];
  documents: number;
}

/** Stored excerpt length: enough for the snippet window (SEARCH.snippetChars, 180), small enough for 1,000+ articles. */
const EXCERPT_CHARS = 300;

/** The kind of document a route's screen shows, for the screens that show one. */
export const SCREEN_KIND: Partial<Record<string, SearchKind>> = { product: 'product', article: 'article', 'news-detail': 'news' };

const excerptOf = (text: string): string => capText(text, EXCERPT_CHARS);

/** A search document before its text is made: the entity a route shows, at the URL the document links to. */
export interface DocumentPlace {
  kind: SearchKind;
  url: string;
  entity: Product | Article | NewsItem;
}

/**
 * Where the searchable documents are: every product, article and news item
 * that a route shows, at its first declared path (a legacy duplicate path does
 * not make a second result). Sorted by kind then URL so the output is stable.
 */
export function searchPlaces(catalogue: Catalogue, routes: readonly SearchRoute[]): DocumentPlace[] {
  const entities = { product: catalogue.products, article: catalogue.articles, news: catalogue.news };
  return placesOf(entities, routes).map(({ kind, route, entity }) => ({ kind, url: routes[route].path, entity: entities[kind][entity] }));
}

/** A place as placesOf finds it: the route (its index) that shows an entity (its index in its kind's list). */
export interface PlaceAt {
  kind: SearchKind;
  route: number;
  entity: number;
}

/**
 * searchPlaces over anything with ids: what it reads of the catalogue is each entity's id and its position. The
 * search thread finds the places from the ids alone (search-plan.ts).
 */
export function placesOf(entities: Readonly<Record<SearchKind, ReadonlyArray<{ id: string }>>>, routes: readonly SearchRoute[]): PlaceAt[] {
  // As a Map made from the list: an id listed twice is its last entity.
  const byId = (kind: SearchKind) => new Map(entities[kind].map((e, i) => [e.id, i]));
  const index: Record<SearchKind, Map<string, number>> = { product: byId('product'), article: byId('article'), news: byId('news') };
  const seen: Record<SearchKind, Set<number>> = { product: new Set(), article: new Set(), news: new Set() };
  const places: PlaceAt[] = [];
  routes.forEach((r, route) => {
    const kind = SCREEN_KIND[r.screen];
    if (kind === undefined) return;
    const entity = index[kind].get(r.nodeid);
    if (entity === undefined || seen[kind].has(entity)) return;
    seen[kind].add(entity);
    places.push({ kind, route, entity });
  });
  const order: Record<SearchKind, number> = { product: 0, article: 1, news: 2 };
  return places.sort((a, b) => {
    if (a.kind !== b.kind) return order[a.kind] - order[b.kind];
    const [x, y] = [routes[a.route].path, routes[b.route].path];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** The cap on each document's indexed text in this catalogue (see indexedTextChars). */
export const textCapOf = (catalogue: Catalogue): number => indexedTextChars(catalogue.products.length + catalogue.articles.length + catalogue.news.length);

const TITLE: Record<SearchKind, (entity: never) => string> = {
  product: (p: Product) => p.name,
  article: (a: Article) => a.headline,
  news: (n: NewsItem) => n.title,
};

/**
 * The document at a place, its text capped at `max` (textCapOf). The text of a lean catalogue's entity (its body
 * dropped at load) is the one the load stage kept for it, made by the same function.
 */
export function documentAt(catalogue: Catalogue, place: DocumentPlace, max: number): SearchDocument {
  const { kind, url, entity } = place;
  const body = catalogue.bodies?.get(entity);
  const text = body?.searchText ?? entitySearchText(kind, entity, max);
  return { kind, url, title: squash(TITLE[kind](entity as never)), text, excerpt: excerptOf(text), source: body && leanSource(body.digest, max) };
}

/** What a lean entity's document is made from (SearchDocument.source): its file's sha1 and the text cap. */
export function leanSource(digest: string, max: number): string {
  return `${digest}:${max}`;
}

/** The searchable documents (see searchPlaces), sorted by kind then URL. */
export function searchDocuments(catalogue: Catalogue, routes: readonly SearchRoute[]): SearchDocument[] {
  const max = textCapOf(catalogue);
  return searchPlaces(catalogue, routes).map((place) => documentAt(catalogue, place, max));
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

/**
 * The documents (or their places) of each shard, by a hash of their URL (stable as other documents come and go),
 * each in the given order. FNV-1a over the URL's UTF-16 code units: a shard's place needs no secret, and at
 * 100,000 routes a sha1 each was a fifth of a second of every build whose data changed.
 */
export function shardDocuments<T extends { url: string }>(docs: readonly T[]): T[][] {
  const count = shardCount(docs.length);
  const shards: T[][] = Array.from({ length: count }, () => []);
  for (const doc of docs) shards[count === 1 ? 0 : urlHash(doc.url) % count].push(doc);
  return shards;
}

/** 32-bit FNV-1a of a string's code units, unsigned. */
export function urlHash(url: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) h = Math.imul(h ^ url.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A shard's file in the output: its path (named by its content's hash) and contents. */
export type ShardFile = { path: string; contents: string };

/** MiniSearch's serialised index (`toJSON()`, serialisation version 2), as this stage reads and writes it. */
export interface SerializedIndex {
  documentCount: number;
  nextId: number;
  /** MiniSearch's short id → the document's id (its position in the shard, or search-update.ts's id of an added one). */
  documentIds: Record<string, number | string>;
  fieldIds: Record<string, number>;
  fieldLength: Record<string, number[]>;
  averageFieldLength: number[];
  storedFields: Record<string, unknown>;
  dirtCount: number;
  /** [term, {field id: {short id: frequency}}] */
  index: Array<[string, Record<string, Record<string, number>>]>;
  serializationVersion: number;
}

/** Documents moved to another short id, at most, for which the postings are patched rather than rebuilt. */
const PATCHED_MOVES = 32;

/**
 * The index in one form, whatever order its documents and terms were added
 * in: the document at position i has short id i (`position` maps a
 * document's id to its position), the terms are in code-unit order, and each
 * field's average length is the mean of its lengths. MiniSearch's own
 * serialisation depends on that history (ids handed out in turn, terms in
 * insertion order, averages updated one document at a time), so without this
 * a shard updated in place (search-update.ts) would not be the bytes of the
 * same shard indexed afresh. Postings that name no document of the index
 * are a caller's error: it vacuums discarded documents first.
 */
export function canonicalIndex(json: SerializedIndex, position: (id: number | string) => number): SerializedIndex {
  const n = json.documentCount;
  const documentIds: Record<string, number> = {};
  const fieldLength: Record<string, number[]> = {};
  const storedFields: Record<string, unknown> = {};
  const moves = new Map<string, string>();
  for (const [short, id] of Object.entries(json.documentIds)) {
    const at = String(position(id));
    documentIds[at] = Number(at);
    fieldLength[at] = json.fieldLength[short];
    if (json.storedFields[short] !== undefined) storedFields[at] = json.storedFields[short];
    if (at !== short) moves.set(short, at);
  }
  if (moves.size > 0) {
    for (const [, fields] of json.index) {
      for (const field of Object.keys(fields)) fields[field] = movePostings(fields[field], moves);
    }
  }
  const fields = Object.keys(json.fieldIds).length;
  const averageFieldLength = Array.from({ length: fields }, (_, f) => {
    let total = 0;
    for (let i = 0; i < n; i++) total += fieldLength[i]?.[f] ?? 0;
    return n === 0 ? 0 : total / n;
  });
  const index = json.index.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    documentCount: n,
    nextId: n,
    documentIds,
    fieldIds: json.fieldIds,
    fieldLength,
    averageFieldLength,
    storedFields,
    dirtCount: 0,
    index,
    serializationVersion: json.serializationVersion,
  };
}

/**
 * One term's postings in a field with each moved short id renamed and each
 * one moved to null deleted (JSON lists integer keys in numeric order, so the
 * result's key order is not a concern). Few moves patch the object in place.
 */
export function movePostings(postings: Record<string, number>, moves: ReadonlyMap<string, string | null>): Record<string, number> {
  if (moves.size > PATCHED_MOVES) {
    const out: Record<string, number> = {};
    for (const short of Object.keys(postings)) {
      const to = moves.get(short);
      if (to !== null) out[to ?? short] = postings[short];
    }
    return out;
  }
  // Taken out first, then put back: a document may move to the short id another is moving from.
  const taken: Array<[string, number]> = [];
  for (const [from, to] of moves) {
    const freq = postings[from];
    if (freq === undefined) continue;
    delete postings[from];
    if (to !== null) taken.push([to, freq]);
  }
  for (const [to, freq] of taken) postings[to] = freq;
  return postings;
}

/** What one shard's file holds: its documents and their index. */
export function shardIndexFile(docs: readonly SearchDocument[], index: SerializedIndex): SearchIndexFile {
  return { version: SEARCH_INDEX_VERSION, docs: docs.map((d): StoredDoc => [d.kind, d.url, d.title, d.excerpt]), index };
}

/** One shard's file, named by its content's hash. */
export function shardFileOf(file: SearchIndexFile): ShardFile {
  const contents = JSON.stringify(file);
  return { path: `search/index-${hash('sha256', contents, 'hex').slice(0, 10)}.json`, contents };
}

/** One shard's file, its documents indexed afresh by MiniSearch. */
export function indexShard(docs: readonly SearchDocument[]): ShardFile {
  return shardFileOf(indexShardFile(docs));
}

/** What indexShard's file holds. */
export function indexShardFile(docs: readonly SearchDocument[]): SearchIndexFile {
  const mini = new MiniSearch<{ id: number; title: string; text: string }>(INDEX_OPTIONS);
  mini.addAll(docs.map((d, id) => ({ id, title: d.title, text: d.text })));
  return shardIndexFile(
    docs,
    canonicalIndex(mini.toJSON() as unknown as SerializedIndex, (id) => id as number),
  );
}

/** The index files of the shards' files, in shard order: theirs and the entry file that names them. */
export function searchIndexOutput(shards: readonly SearchFile[], documents: number): SearchIndexOutput {
  const urls = shards.map((f) => `/${f.path}`);
  const entry: SearchEntry = { version: SEARCH_INDEX_VERSION, shards: urls, documents };
  return { files: [...shards, { path: SEARCH_ENTRY_PATH.slice(1), contents: JSON.stringify(entry) + '\n' }], shards: urls, documents };
}

/** The index files of documents made by searchDocuments. */
export function indexDocuments(docs: readonly SearchDocument[]): SearchIndexOutput {
  return searchIndexOutput(shardDocuments(docs).map(indexShard), docs.length);
}
