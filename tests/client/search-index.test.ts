/** The build-time search index: content, determinism, and that the browser's options can load and query it. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { INDEX_OPTIONS, QUERY_OPTIONS, queryOptionsFor, type SearchEntry, type SearchIndexFile } from '../../src/core/search-options.js';
import { checkDataDir } from '../../src/check/run.js';
import { buildSearchIndex, searchDocuments, shardCount } from '../../src/emit/files/search-index.js';
import { siteWriter } from '../../src/emit/output/site-writer.js';
import { asSentence, blocksText, entitySearchText, indexedTextChars, INDEXED_TEXT_CHARS, MIN_INDEXED_TEXT_CHARS } from '../../src/core/search-text.js';
import type { Catalogue } from '../../src/core/catalogue.js';

const para = (text: string) => ({ type: 'paragraph' as const, text });
const product = (id: string, name: string, text: string) => ({
  id,
  slug: id,
  name,
  category: 'c'.repeat(32),
  listedIn: [],
  latinName: 'Curcuma longa',
  specification: '95%',
  appearance: 'Yellow powder',
  certifications: ['ISO9001'],
  package: ['25kg drum'],
  delivery: '1-2 working days',
  moq: '1-5kg',
  freeSample: true,
  summary: `${name} summary`,
  description: [para(text)],
  applications: ['Supplements'],
  claims: [],
  images: [],
  relatedProducts: [],
  relatedArticles: [],
  updated: '2024-01-01',
});

const catalogue = {
  products: [
    product('p1', 'Bulk Curcumin', 'Turmeric root extract. ' + 'Long text. '.repeat(100)),
    product('p2', 'Berberine Powder', 'For <script>alert(1)</script> blood sugar.'),
  ],
  articles: [
    {
      id: 'a1',
      slug: 'a1',
      headline: 'What is curcumin?',
      date: '2024-01-01',
      category: 'Herbs',
      author: 'Lab',
      summary: 'Curcumin explained.',
      body: [
        { type: 'heading', level: 2, text: 'Dosage' },
        { type: 'list', items: ['500 mg', ['with ', { text: 'food', href: '/x' }]] },
        { type: 'table', caption: 'Assay', head: ['Grade', 'Purity'], rows: [['A', '95%']] },
      ],
      relatedProducts: [],
    },
  ],
  news: [{ id: 'n1', slug: 'n1', title: 'Exhibition 2024', date: '2024-05-01', summary: 'We exhibited.', body: [para('Booth 12.')] }],
} as unknown as Catalogue;

const routes = [
  { path: '/news/exhibition-2024', screen: 'news-detail', nodeid: 'n1' },
  { path: '/herb-extract/bulk-curcumin', screen: 'product', nodeid: 'p1' },
  { path: '/herb-extract/bulk-curcumin', screen: 'product', nodeid: 'p1' }, // a duplicate declaration
  { path: '/products/bulk-curcumin-legacy', screen: 'product', nodeid: 'p1' }, // a second path: still one result
  { path: '/monomer/berberine-powder', screen: 'product', nodeid: 'p2' },
  { path: '/knowledge/what-is-curcumin', screen: 'article', nodeid: 'a1' },
  { path: '/', screen: 'home', nodeid: 'h' },
  { path: '/x', screen: 'product', nodeid: 'missing' },
];

describe('search index', () => {
  it('has one document per product, article and news item that a route shows, at its first path', () => {
    const docs = searchDocuments(catalogue, routes);
    expect(docs.map((d) => [d.kind, d.url])).toEqual([
      ['product', '/herb-extract/bulk-curcumin'],
      ['product', '/monomer/berberine-powder'],
      ['article', '/knowledge/what-is-curcumin'],
      ['news', '/news/exhibition-2024'],
    ]);
    expect(docs[0].excerpt.length).toBeLessThanOrEqual(400);
    expect(docs[0].text.length).toBeGreaterThan(docs[0].excerpt.length);
  });

  it('stays one bounded download however large the catalogue: past the text budget each document indexes the opening of its text', () => {
    expect(indexedTextChars(1_300)).toBe(INDEXED_TEXT_CHARS); // the shipped catalogue keeps the whole cap
    expect(indexedTextChars(20_000)).toBe(400);
    expect(indexedTextChars(1_000_000)).toBe(MIN_INDEXED_TEXT_CHARS);
    const products = Array.from({ length: 4_000 }, (_, i) => product(`p${i}`, `Product ${i}`, `Opening words of ${i}. ` + 'More text here. '.repeat(400)));
    const big = { ...catalogue, products } as unknown as Catalogue;
    const docs = searchDocuments(
      big,
      products.map((p) => ({ path: `/p/${p.id}`, screen: 'product', nodeid: p.id })),
    );
    const cap = indexedTextChars(4_000 + catalogue.articles.length + catalogue.news.length);
    expect(cap).toBeLessThan(INDEXED_TEXT_CHARS);
    expect(docs).toHaveLength(4_000);
    for (const d of docs) {
      expect(d.text.length).toBeLessThanOrEqual(cap);
      expect(d.text.length).toBeGreaterThan(cap - 20); // cut at a word, not emptied
      expect(d.text).toMatch(/^Product \d+ summary\. Curcuma longa\. 95%\. Yellow powder\. Opening words of \d+\./);
    }
  });

  it('takes the plain text of every block kind, each line ended as a sentence so that snippets read as text', () => {
    expect(blocksText(catalogue.articles[0].body)).toBe('Dosage.\n500 mg.\nwith food.\nAssay.\nGrade Purity.\nA 95%.');
    expect(asSentence('Specification: 80 mesh')).toBe('Specification: 80 mesh.');
    for (const ended of ['Done.', 'Why?', 'Wow!', 'As follows:', 'Mey.', '']) expect(asSentence(ended)).toBe(ended);
  });

  it('does not repeat the summary, nor leave its punctuation behind', () => {
    const p = product('p-sum', 'Curcumin', 'Curcumin gives turmeric its colour; the rhizome holds 3%.');
    const withSummary = { ...p, summary: 'Curcumin gives turmeric its colour.' };
    const text = entitySearchText('product', withSummary as never, 10_000);
    expect(text.match(/gives turmeric its colour/g)).toHaveLength(1);
    expect(text).not.toMatch(/ ;/);
    // What is left of the sentence starts one of its own, as a snippet shows it.
    expect(text).toContain('. The rhizome holds 3%.');
  });

  it('is deterministic and named by its content hash', () => {
    const a = buildSearchIndex(catalogue, routes);
    const b = buildSearchIndex(catalogue, [...routes]);
    expect(a.files).toEqual(b.files);
    expect(a.shards).toHaveLength(1);
    expect(a.shards[0]).toMatch(/^\/search\/index-[0-9a-f]{10}\.json$/);
    const other = buildSearchIndex({ ...catalogue, news: [] } as Catalogue, routes);
    expect(other.shards[0]).not.toBe(a.shards[0]);
  });

  it('loads with the browser options and finds words of titles and text', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'search-index-'));
    try {
      const out = buildSearchIndex(catalogue, routes);
      await siteWriter(dir).write(out.files);
      const entry = JSON.parse(await readFile(path.join(dir, 'search/entry.json'), 'utf8')) as SearchEntry;
      expect(entry).toEqual({ version: 2, shards: out.shards, documents: 4 });
      const file = JSON.parse(await readFile(path.join(dir, entry.shards[0]), 'utf8')) as SearchIndexFile;
      const mini = MiniSearch.loadJS(file.index as Parameters<typeof MiniSearch.loadJS>[0], INDEX_OPTIONS);
      const urls = (q: string) => mini.search(q, QUERY_OPTIONS).map((r) => file.docs[r.id as number][1]);
      expect(urls('curcumin')[0]).toBe('/herb-extract/bulk-curcumin'); // title boost first
      expect(urls('curcumin')).toContain('/knowledge/what-is-curcumin');
      expect(urls('turmeric')).toEqual(['/herb-extract/bulk-curcumin']); // body text
      expect(urls('booth')).toEqual(['/news/exhibition-2024']);
      expect(urls('berber')).toEqual(['/monomer/berberine-powder']); // prefix
      expect(urls('curcumn')).toContain('/herb-extract/bulk-curcumin'); // a typo
      // Content stays text: the stored excerpt holds the characters, the page inserts them as text.
      expect(file.docs[1][3]).toContain('<script>');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('search over the shipped catalogue', () => {
  it('ranks the product first when a buyer types its ingredient, and a snippet never repeats the summary', async () => {
    const checked = await checkDataDir('data', { lean: true });
    const out = buildSearchIndex(checked.catalogue!, checked.routes);
    // The shipped catalogue is one shard: ranked by its whole statistics.
    expect(out.shards.length).toBe(shardCount(out.documents));
    expect(out.shards).toHaveLength(1);
    const shards = out.files
      .filter((f) => out.shards.includes(`/${f.path}`))
      .map((f) => {
        const file = JSON.parse(f.contents) as SearchIndexFile;
        return { docs: file.docs, mini: MiniSearch.loadJS(file.index as Parameters<typeof MiniSearch.loadJS>[0], INDEX_OPTIONS) };
      });
    expect(shards.reduce((n, s) => n + s.docs.length, 0)).toBe(out.documents);
    const ranked = (q: string, options: (docs: SearchIndexFile['docs']) => object) =>
      shards
        .flatMap(({ docs, mini }) => mini.search(q, options(docs)).map((r) => ({ doc: docs[r.id as number], score: r.score })))
        .sort((a, b) => b.score - a.score);
    const first = (q: string) => ranked(q, queryOptionsFor)[0].doc;
    // Each has several articles that say the word more often than the product page does.
    for (const q of ['berberine', 'NMN', 'reishi', 'curcumin', 'melatonin', 'pea protein', 'vitamin c']) {
      expect(first(q)[0], `${q}: ${first(q)[2]}`).toBe('product');
    }
    // The kind boost is what does it: without it, articles come first for some of them.
    const plain = (q: string) => ranked(q, () => QUERY_OPTIONS)[0].doc[0];
    expect(['berberine', 'NMN', 'reishi'].map(plain)).toContain('article');

    const doubled = shards
      .flatMap((s) => s.docs)
      .filter(([, , , excerpt]) => {
        const opening = excerpt.slice(0, 60);
        return excerpt.indexOf(opening, 1) > 0;
      });
    expect(doubled.map((d) => d[1])).toEqual([]);
  });

  it('forgives a typo only when the words as typed find nothing', async () => {
    const checked = await checkDataDir('data', { lean: true });
    const out = buildSearchIndex(checked.catalogue!, checked.routes);
    const served = new Map(out.files.map((f) => [`/${f.path}`, f.contents]));
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: string) => ({
      ok: served.has(url),
      status: 404,
      json: async () => JSON.parse(served.get(url)!),
    })) as unknown as typeof fetch;
    try {
      const { loadEngine } = await import('../../src/client/search-engine.js');
      const engine = await loadEngine();
      const titles = (q: string) => engine.search(q).hits.map((h) => h.title.map((s) => s.text).join(''));
      // "sleep" is one letter from "sheep": lanolin (from sheep's wool) came first before.
      expect(titles('sleep')).not.toContain('Pure Lanolin');
      expect(titles('sleep')[0]).toBe('L-Tryptophan Powder');
      // Nothing has "tumeric": then the typo is forgiven.
      expect(titles('tumeric')[0]).toBe('Turmeric Powder');
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
