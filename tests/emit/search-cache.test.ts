/** The build's speed-ups of the search index: same bytes as building it afresh, whatever the cache holds. */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { pathToFileURL } from 'node:url';
import { cachedSearchIndex } from '../../src/emit/files/search-cache.js';
import {
  buildSearchIndex,
  indexDocuments,
  searchDocuments,
  searchIndexOutput,
  shardCount,
  shardDocuments,
  urlHash,
  type SearchIndexOutput,
} from '../../src/emit/files/search-index.js';
import { makeShard, readStoredShard, type ShardTask } from '../../src/emit/files/search-update.js';
import { layoutInput, shardLayout, type LayoutInput } from '../../src/emit/files/search-plan.js';
import { cappedSquash } from '../../src/core/search-text.js';
import type { BodyRef, Catalogue } from '../../src/core/catalogue.js';
import { resolveRoutes } from '../../src/check/index.js';
import { loadCatalogue } from '../../src/load/index.js';
import { scenario } from '../check/fixture.js';

/** The definition cappedSquash must equal: squash everything, then cap at a space. */
function reference(raw: string, max: number): string {
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return text.slice(0, cut > max / 2 ? cut : max);
}

describe('cappedSquash', () => {
  test('equals squashing the whole text and capping it, at every cut, for texts of every length', () => {
    // A small deterministic generator: words, runs of mixed whitespace, long unbroken tokens.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pieces = ['word', 'extract', ' ', '  ', '\n\n', '\t', ' \n ', 'x'.repeat(60), 'é', '😀'];
    for (let i = 0; i < 300; i++) {
      let raw = rand(3) === 0 ? '   ' : '';
      const parts = rand(400) * (rand(4) === 0 ? 20 : 1);
      for (let k = 0; k < parts; k++) raw += pieces[rand(pieces.length)];
      for (const max of [1, 50, 300, 4000]) expect(cappedSquash(raw, max)).toBe(reference(raw, max));
    }
  });
});

const para = (text: string) => ({ type: 'paragraph' as const, text });
const catalogueWith = (text: string) =>
  ({
    products: [
      {
        id: 'p1',
        slug: 'p1',
        name: 'Bulk Curcumin',
        category: 'c',
        listedIn: [],
        latinName: 'Curcuma longa',
        specification: '95%',
        appearance: 'Yellow powder',
        certifications: [],
        package: [],
        delivery: '',
        moq: '',
        freeSample: true,
        summary: 'Curcumin',
        description: [para(text)],
        applications: [],
        claims: [],
        images: [],
        relatedProducts: [],
        relatedArticles: [],
        updated: '2024-01-01',
      },
    ],
    articles: [],
    news: [],
  }) as unknown as Catalogue;
const routes = [{ path: '/herb-extract/bulk-curcumin', screen: 'product', nodeid: 'p1' }];

/** The index with every file as text: a shard taken from the cache comes as its stored bytes. */
const asText = (out: SearchIndexOutput): SearchIndexOutput => ({
  ...out,
  files: out.files.map((f) => ({ path: f.path, contents: typeof f.contents === 'string' ? f.contents : Buffer.from(f.contents).toString('utf8') })),
});
const cached = async (...args: Parameters<typeof cachedSearchIndex>) => asText(await cachedSearchIndex(...args));

describe('cachedSearchIndex', () => {
  test('a hit gives the bytes a fresh build gives; changed content is a miss, never a stale index', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'site-search-cache-'));
    const first = catalogueWith('Turmeric root extract for supplements.');
    const miss = await cached(first, routes, cacheDir);
    const slots = readdirSync(cacheDir).filter((n) => /^search-[0-9a-f]{24}\.json$/.test(n));
    expect(slots).toHaveLength(1);
    // The entry names the stored shards; it does not hold the index a second time.
    const slot = readFileSync(path.join(cacheDir, slots[0]), 'utf8');
    expect(slot.length).toBeLessThan(miss.files.reduce((n, f) => n + f.contents.length, 0) / 4);
    const raw = await cachedSearchIndex(first, routes, cacheDir);
    // A hit's shards are the stored bytes, never decoded into a string; the entry file is made anew.
    expect(raw.files.map((f) => typeof f.contents)).toEqual(['object', 'string']);
    const hit = asText(raw);
    expect(hit).toEqual(buildSearchIndex(first, routes));
    expect(miss).toEqual(hit);
    // A shard the entry names, pruned since: a miss, indexed again to the same bytes.
    rmSync(path.join(cacheDir, 'search-shards'), { recursive: true });
    expect(await cached(first, routes, cacheDir)).toEqual(hit);
    expect(await cached(first, routes, cacheDir)).toEqual(hit);

    const changed = catalogueWith('Turmeric root extract for beverages.');
    const again = await cached(changed, routes, cacheDir);
    expect(again).toEqual(buildSearchIndex(changed, routes));
    expect(again.shards).not.toEqual(hit.shards);
    // A route moved to another path is a change too.
    const moved = [{ ...routes[0], path: '/herb-extract/curcumin' }];
    expect(await cached(first, moved, cacheDir)).toEqual(buildSearchIndex(first, moved));
  });

  test('a lean catalogue (bodies dropped at load) whose body changed is a miss too', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'site-search-cache-'));
    const data = scenario(null);
    const lean = async () => (await loadCatalogue(data, { lean: true })).catalogue!;
    const first = await lean();
    const routesOf = resolveRoutes(first);
    const hit = await cached(first, routesOf, cacheDir);
    const file = path.join(data, 'news/expo-2024.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.body = [{ type: 'paragraph', text: 'Quercetin samples shipped to every visitor.' }];
    writeFileSync(file, JSON.stringify(doc));
    const changed = await lean();
    expect(changed.news[0]).toEqual(first.news[0]); // the lean entities alone cannot tell
    const again = await cached(changed, routesOf, cacheDir);
    expect(again.shards).not.toEqual(hit.shards);
    expect(again).toEqual(buildSearchIndex(changed, routesOf));
  });

  test('under the check key: the key alone decides, so a changed check key is a miss', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'site-search-cache-'));
    const entries = () => readdirSync(cacheDir).filter((n) => /^search-[0-9a-f]{24}\.json$/.test(n)).length;
    const first = catalogueWith('Turmeric root extract for supplements.');
    expect(await cached(first, routes, cacheDir, 'check-key-1')).toEqual(buildSearchIndex(first, routes));
    expect(entries()).toBe(1);
    expect(await cached(first, routes, cacheDir, 'check-key-1')).toEqual(buildSearchIndex(first, routes));
    expect(entries()).toBe(1);
    // New data means a new check key (it hashes every data byte): a miss, built from the new catalogue.
    const changed = catalogueWith('Turmeric root extract for beverages.');
    expect(await cached(changed, routes, cacheDir, 'check-key-2')).toEqual(buildSearchIndex(changed, routes));
    expect(entries()).toBe(2);
    // Not the same entry as the catalogue-hash key of the same content.
    await cached(changed, routes, cacheDir);
    expect(entries()).toBe(3);
  });

  test('without a cache folder it builds and stores nothing', async () => {
    const c = catalogueWith('Turmeric.');
    expect(await cached(c, routes, undefined)).toEqual(buildSearchIndex(c, routes));
  });
});

describe('search index shards', () => {
  test('a changed document makes its shard again, from its last version, and takes the others from the cache, to the bytes of a fresh index', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'site-search-cache-'));
    const many = Array.from({ length: 5000 }, (_, i) => ({ id: `p${i}`, slug: `product-${i}`, name: `Product ${i}`, description: [] }));
    const base = catalogueWith('Turmeric root extract for supplements.');
    const catalogueOf = (text: (i: number) => string) =>
      ({ ...base, products: many.map((p, i) => ({ ...base.products[0], ...p, summary: text(i) })) }) as unknown as Catalogue;
    const routesOf = many.map((p) => ({ path: `/herb-extract/${p.slug}`, screen: 'product', nodeid: p.id }));
    const first = catalogueOf((i) => `Extract number ${i}.`);
    expect(shardCount(5000)).toBe(4);
    const indexed: number[] = [];
    const fromPrevious: boolean[][] = [];
    let lastTasks: ShardTask[] = [];
    const counting = async (tasks: ShardTask[]) => {
      indexed.push(tasks.length);
      lastTasks = tasks;
      fromPrevious.push(tasks.map((t) => t.previous !== undefined));
      return Promise.all(tasks.map((task) => makeShard(task)));
    };
    const made = await cached(first, routesOf, cacheDir, undefined, counting);
    expect(made).toEqual(buildSearchIndex(first, routesOf));
    expect(indexed).toEqual([4]);
    const edited = catalogueOf((i) => (i === 3700 ? 'Extract number 3700, now organic.' : `Extract number ${i}.`));
    const again = await cached(edited, routesOf, cacheDir, undefined, counting);
    expect(again).toEqual(buildSearchIndex(edited, routesOf));
    // One shard made again (from its last version), the other three taken from their entries.
    expect(indexed).toEqual([4, 1]);
    expect(fromPrevious).toEqual([[false, false, false, false], [true]]);
    expect(again.shards.filter((url) => made.shards.includes(url))).toHaveLength(3);
    // A third edit of the same document starts from the second's version, not the first's.
    const third = catalogueOf((i) => (i === 3700 ? 'Extract number 3700, organic and kosher.' : `Extract number ${i}.`));
    expect(await cached(third, routesOf, cacheDir, undefined, counting)).toEqual(buildSearchIndex(third, routesOf));
    expect(fromPrevious.at(-1)).toEqual([true]);
    const second = again.files.find((f) => !made.shards.includes(`/${f.path}`) && f.path.startsWith('search/index-'));
    expect(readStoredShard(lastTasks[0].previous!.entry)?.contents).toBe(second?.contents);
    // A shard indexed by other code (another tokenizer, another MiniSearch) is never a starting point.
    const latest = path.join(cacheDir, 'search-shards', 'latest-4.json');
    writeFileSync(latest, JSON.stringify({ ...JSON.parse(readFileSync(latest, 'utf8')), code: 'other indexing code' }));
    const fourth = catalogueOf((i) => (i === 3700 ? 'Extract number 3700, organic, kosher and halal.' : `Extract number ${i}.`));
    expect(await cached(fourth, routesOf, cacheDir, undefined, counting)).toEqual(buildSearchIndex(fourth, routesOf));
    expect(fromPrevious.at(-1)).toEqual([false]);
    // A stored shard found damaged when it is read (after the shards to make were handed over) is made again.
    const keys = JSON.parse(readFileSync(latest, 'utf8')).keys as string[];
    const edited3700 = urlHash('/herb-extract/product-3700') % 4;
    writeFileSync(path.join(cacheDir, 'search-shards', `${keys[(edited3700 + 1) % 4]}.json`), 'damaged');
    const fifth = catalogueOf((i) => (i === 3700 ? 'Extract number 3700, organic, kosher, halal and vegan.' : `Extract number ${i}.`));
    const before = indexed.length;
    expect(await cached(fifth, routesOf, cacheDir, undefined, counting)).toEqual(buildSearchIndex(fifth, routesOf));
    // The edited document's shard, then the damaged one.
    expect(indexed.slice(before)).toEqual([1, 1]);
  });
});

describe('indexInWorker', () => {
  test('the compiled build indexes in a thread of its own, to the same bytes as in-process', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const compiled = path.join(root, 'build/src/emit/files/search-worker.js');
    const { indexInWorker } = (await import(pathToFileURL(compiled).href)) as typeof import('../../src/emit/files/search-worker.js');
    const docs = searchDocuments(catalogueWith('Turmeric root extract for supplements, 95% curcuminoids.'), routes);
    const tasks = shardDocuments(docs).map((shard) => ({ docs: shard, digests: shard.map((d) => d.url) }));
    const inWorker = await indexInWorker(tasks);
    expect(searchIndexOutput(inWorker, docs.length)).toEqual(indexDocuments(docs));
    expect(inWorker).toHaveLength(1);
    // And through the cache, as the build calls it: a miss indexed in the thread, then a hit.
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'site-search-cache-'));
    const c = catalogueWith('Another text.');
    expect(await cached(c, routes, cacheDir, undefined, indexInWorker)).toEqual(buildSearchIndex(c, routes));
    expect(await cached(c, routes, cacheDir, undefined, () => Promise.reject(new Error('a hit must not index')))).toEqual(buildSearchIndex(c, routes));
  });
});

describe('the index layout made from ids and sources (search-plan.ts)', () => {
  /** A lean catalogue (each entity's body dropped, named by its file's sha1) of `n` products and a few articles, routes to each. */
  const leanCatalogue = (n: number, text: (i: number) => string) => {
    const base = catalogueWith('').products[0];
    const products = Array.from({ length: n }, (_, i) => ({
      ...base,
      id: i === 7 ? 'odd "id"\u0000\\ 7' : `p${i}`,
      slug: `product-${i}`,
      name: `Product ${i}`,
      description: [],
    }));
    // An id listed twice: the last entity is the one its route shows, here as in searchPlaces.
    products.push({ ...products[5], name: 'Product 5, declared again' });
    const articles = Array.from({ length: 3 }, (_, i) => ({ id: `a${i}`, slug: `article-${i}`, headline: `Article ${i}`, body: [] }));
    const bodies = new WeakMap<object, BodyRef>();
    const all: Array<[object, string]> = [
      ...products.map((p, i): [object, string] => [p, text(i)]),
      ...articles.map((a, i): [object, string] => [a, `Article text ${i}.`]),
    ];
    for (const [entity, searchText] of all) {
      const digest = createHash('sha1').update(searchText).digest('hex');
      bodies.set(entity, { path: `/data/${digest}.json`, digest, field: 'description', searchText, links: [] });
    }
    return { ...catalogueWith(''), products, articles, bodies } as unknown as Catalogue;
  };
  const routesOf = (c: Catalogue) => [
    ...c.products.slice(0, -1).map((p, i) => ({ path: `/herb-extract/product-${i}`, screen: 'product', nodeid: p.id })),
    // A legacy duplicate path (the first declared is the document's), a node id no entity has, a screen with no document.
    { path: '/herb-extract/product-3-old', screen: 'product', nodeid: c.products[3].id },
    { path: '/herb-extract/gone', screen: 'product', nodeid: 'no-such-product' },
    { path: '/herb-extract', screen: 'category', nodeid: 'p1' },
    ...c.articles.map((a, i) => ({ path: `/knowledge/article-${i}`, screen: 'article', nodeid: a.id })),
  ];

  test('made from the strings a thread receives, it is the layout made from the catalogue: the same shards, keys and bytes', async () => {
    const first = leanCatalogue(5000, (i) => `Extract number ${i}.`);
    const routes = routesOf(first);
    const [here, there] = [mkdtempSync(path.join(tmpdir(), 'site-search-here-')), mkdtempSync(path.join(tmpdir(), 'site-search-there-'))];
    const asked: LayoutInput[] = [];
    const layout = async (input: LayoutInput) => (asked.push(input), shardLayout(input));
    const made: number[][] = [[], []];
    const counting = (k: number) => async (tasks: ShardTask[]) => (made[k].push(tasks.length), Promise.all(tasks.map((task) => makeShard(task))));
    const entries = (dir: string) => readdirSync(path.join(dir, 'search-shards')).sort();

    const fresh = buildSearchIndex(first, routes);
    expect(await cached(first, routes, here, undefined, counting(0))).toEqual(fresh);
    expect(await cached(first, routes, there, undefined, counting(1), undefined, layout)).toEqual(fresh);
    expect(asked).toHaveLength(1);
    expect(entries(there)).toEqual(entries(here));
    expect(fresh.documents).toBe(5003);

    // One product edited: its shard alone is made again, either way, to a fresh index's bytes.
    const edited = leanCatalogue(5000, (i) => (i === 3700 ? 'Extract number 3700, now organic.' : `Extract number ${i}.`));
    const again = buildSearchIndex(edited, routes);
    expect(await cached(edited, routes, here, undefined, counting(0))).toEqual(again);
    expect(await cached(edited, routes, there, undefined, counting(1), undefined, layout)).toEqual(again);
    expect(made).toEqual([
      [4, 1],
      [4, 1],
    ]);
    expect(entries(there)).toEqual(entries(here));
  });

  test('a catalogue not loaded lean (an entity without a body) is laid out where it is, from its documents', async () => {
    const c = catalogueWith('Turmeric.');
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'site-search-cache-'));
    const layout = () => Promise.reject(new Error('no layout can be made from ids for a document named by its text'));
    expect(await cached(c, routes, cacheDir, undefined, undefined, undefined, layout)).toEqual(buildSearchIndex(c, routes));
  });

  test('the compiled build makes the layout in its search thread, as in-process', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const compiled = path.join(root, 'build/src/emit/files/search-worker.js');
    const worker = (await import(pathToFileURL(compiled).href)) as typeof import('../../src/emit/files/search-worker.js');
    const c = leanCatalogue(300, (i) => `Extract number ${i}.`);
    const input = layoutInput(c, routesOf(c), 4000, 'code')!;
    const inThread = await worker.layoutInWorker(input);
    expect(inThread).toEqual(shardLayout(input));
    worker.doneWithSearchThread();
    // Asked again, a new thread answers the same.
    expect(await worker.layoutInWorker(input)).toEqual(inThread);
    worker.doneWithSearchThread();
  });
});
