/**
 * The site search's index, built at build time from the catalogue (not by
 * scraping the HTML: the catalogue has the clean text) with MiniSearch, and
 * written as `dist/search/index-<hash>.json` plus a small fixed-name
 * `dist/search/entry.json` that names it. Only /search loads it.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MiniSearch from 'minisearch';
import type { Catalogue } from '../load/catalogue.js';
import type { Block, RichText, RouteRecord } from '../load/schema.js';
import {
  INDEX_OPTIONS,
  SEARCH_ENTRY_PATH,
  SEARCH_INDEX_VERSION,
  type SearchEntry,
  type SearchIndexFile,
  type SearchKind,
  type StoredDoc,
} from '../client/search-options.js';

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
  /** URL of the hashed index file. */
  url: string;
  documents: number;
}

/** Stored excerpt length: enough for the snippet window (SEARCH.snippetChars, 180), small enough for 1,000+ articles. */
const EXCERPT_CHARS = 300;

/**
 * Indexed text per document, after title and summary. The whole index is one
 * download for /search; past the first few hundred words an article's text adds
 * size (and build time) far faster than it adds findable words.
 */
export const INDEXED_TEXT_CHARS = 4000;

const SCREEN_KIND: Partial<Record<string, SearchKind>> = { product: 'product', article: 'article', 'news-detail': 'news' };

const richText = (text: RichText): string => (typeof text === 'string' ? text : text.map((i) => (typeof i === 'string' ? i : i.text)).join(''));

/** Plain text of body blocks, one block per line. */
export function blocksText(blocks: readonly Block[]): string {
  return blocks
    .map((b) => {
      switch (b.type) {
        case 'heading':
        case 'quote':
          return b.text;
        case 'paragraph':
          return richText(b.text);
        case 'list':
          return b.items.map(richText).join('\n');
        case 'table':
          return [b.caption ?? '', b.head.join(' '), ...b.rows.map((r) => r.join(' '))].filter(Boolean).join('\n');
      }
    })
    .join('\n');
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The first `max` characters, cut at a space so no word is indexed half. */
function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return text.slice(0, cut > max / 2 ? cut : max);
}
const excerptOf = (text: string): string => capText(text, EXCERPT_CHARS);

/**
 * `capText(squash(raw), max)` without squashing all of a long text: squash of
 * a prefix is a prefix of squash of the whole, and capText reads only the
 * first max + 1 characters, so once a prefix squashes to more than that the
 * rest cannot change the result. (Squashing whole article bodies was a tenth
 * of the index's cost.)
 */
export function cappedSquash(raw: string, max: number): string {
  for (let take = 2 * max + 64; take < raw.length; take *= 4) {
    const head = squash(raw.slice(0, take));
    if (head.length > max + 1) return capText(head, max);
  }
  return capText(squash(raw), max);
}

/**
 * The searchable documents: every product, article and news item that a
 * route shows, at its first declared path (a legacy duplicate path does not
 * make a second result). Sorted by kind then URL so the output is stable.
 */
export function searchDocuments(catalogue: Catalogue, routes: readonly SearchRoute[]): SearchDocument[] {
  const products = new Map(catalogue.products.map((p) => [p.id, p]));
  const articles = new Map(catalogue.articles.map((a) => [a.id, a]));
  const news = new Map(catalogue.news.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const docs: SearchDocument[] = [];
  const add = (kind: SearchKind, id: string, url: string, title: string, parts: string[]) => {
    const key = `${kind}:${id}`;
    if (seen.has(key)) return;
    seen.add(key);
    const text = cappedSquash(parts.filter(Boolean).join('\n'), INDEXED_TEXT_CHARS);
    docs.push({ kind, url, title: squash(title), text, excerpt: excerptOf(text) });
  };
  for (const route of routes) {
    const kind = SCREEN_KIND[route.screen];
    if (kind === 'product') {
      const p = products.get(route.nodeid);
      if (p)
        add(kind, p.id, route.path, p.name, [
          p.summary,
          p.latinName,
          p.specification,
          p.appearance,
          blocksText(p.description),
          p.applications.join(', '),
          p.claims.join('. '),
          p.certifications.join(' '),
        ]);
    } else if (kind === 'article') {
      const a = articles.get(route.nodeid);
      if (a) add(kind, a.id, route.path, a.headline, [a.summary, blocksText(a.body), a.category]);
    } else if (kind === 'news') {
      const n = news.get(route.nodeid);
      if (n) add(kind, n.id, route.path, n.title, [n.summary, blocksText(n.body)]);
    }
  }
  const order: Record<SearchKind, number> = { product: 0, article: 1, news: 2 };
  return docs.sort((a, b) => order[a.kind] - order[b.kind] || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

/** The index files, pure: the same catalogue gives byte-identical output. */
export function buildSearchIndex(catalogue: Catalogue, routes: readonly SearchRoute[]): SearchIndexOutput {
  return indexDocuments(searchDocuments(catalogue, routes));
}

/** The index files of documents made by searchDocuments. */
export function indexDocuments(docs: readonly SearchDocument[]): SearchIndexOutput {
  const mini = new MiniSearch<{ id: number; title: string; text: string }>(INDEX_OPTIONS);
  mini.addAll(docs.map((d, id) => ({ id, title: d.title, text: d.text })));
  const file: SearchIndexFile = {
    version: SEARCH_INDEX_VERSION,
    docs: docs.map((d): StoredDoc => [d.kind, d.url, d.title, d.excerpt]),
    index: mini.toJSON(),
  };
  const contents = JSON.stringify(file);
  const hash = createHash('sha256').update(contents).digest('hex').slice(0, 10);
  const url = `/search/index-${hash}.json`;
  const entry: SearchEntry = { version: SEARCH_INDEX_VERSION, index: url, documents: docs.length };
  return {
    files: [
      { path: url.slice(1), contents },
      { path: SEARCH_ENTRY_PATH.slice(1), contents: JSON.stringify(entry) + '\n' },
    ],
    url,
    documents: docs.length,
  };
}

/** Writes the index under `outDir` (the temporary dist folder) and says what it wrote. */
export async function writeSearchIndex(outDir: string, catalogue: Catalogue, routes: readonly SearchRoute[]): Promise<SearchIndexOutput> {
  const out = buildSearchIndex(catalogue, routes);
  await mkdir(path.join(outDir, 'search'), { recursive: true });
  for (const f of out.files) await writeFile(path.join(outDir, ...f.path.split('/')), f.contents);
  return out;
}
