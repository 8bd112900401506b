/**
 * The search index, cached by content: MiniSearch's indexing is most of the
 * build's main-thread work (docs/PERFORMANCE.md), yet it is a pure
 * function of the indexed documents and the indexing code. The key hashes
 * both, so a changed product, route or tokenizer is a miss; the output is the
 * same bytes either way.
 */
import { createHash } from 'node:crypto';
import { readFileSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pruneCacheFiles, writeCacheFile } from '../cache-files.js';
import { fileURLToPath } from 'node:url';
import type { Catalogue } from '../../core/catalogue.js';
import {
  indexShard,
  searchDocuments,
  searchIndexOutput,
  shardDocuments,
  type SearchDocument,
  type SearchIndexOutput,
  type SearchRoute,
} from './search-index.js';
import { indexInWorker } from './search-worker.js';
import type { SiteWriter } from '../output/site-writer.js';

const FORMAT = 'site-search-cache/1';

let codeKey: string | null | undefined;

/** Hash of the code that shapes the index (this stage, the shared tokenizer, MiniSearch); null when unreadable. */
function indexingCode(): string | null {
  if (codeKey !== undefined) return codeKey;
  try {
    const here = fileURLToPath(import.meta.url);
    const ext = path.extname(here); // .js from build/, .ts under vitest
    const h = createHash('sha256').update(`${FORMAT}\0${process.version}\0`);
    // Its package.json is not among its exports: found from the entry point, up to the package's folder.
    const entry = createRequire(import.meta.url).resolve('minisearch');
    const pkgFile = path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}minisearch${path.sep}`)), 'minisearch', 'package.json');
    const { version } = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string };
    h.update(`minisearch@${version}\0`);
    for (const file of [path.join(path.dirname(here), `search-index${ext}`), path.join(path.dirname(here), '..', '..', 'core', `search-options${ext}`)]) {
      const bytes = readFileSync(file);
      h.update(`${path.basename(file)}\0${bytes.length}\0`).update(bytes);
    }
    codeKey = h.digest('hex');
  } catch {
    codeKey = null;
  }
  return codeKey;
}

/**
 * Hash of everything searchDocuments reads: the routes' path, screen and node
 * id, and the products, articles and news whole (a lean one's body by its file's sha1). Cheaper than making the
 * documents (squashing every text), which only a miss needs.
 */
function inputKey(code: string, catalogue: Catalogue, routes: readonly SearchRoute[]): string {
  const h = createHash('sha256').update(code);
  // Entity by entity: one string of a 100,000-product catalogue would pass V8's string limit.
  for (const r of routes) h.update(JSON.stringify([r.path, r.screen, r.nodeid]));
  for (const part of [catalogue.products, catalogue.articles, catalogue.news]) {
    h.update(`\0${part.length}\0`);
    // A lean catalogue's entities have no bodies: their files' sha1 stands for them.
    for (const entity of part) h.update(JSON.stringify(entity)).update(`\0${catalogue.bodies?.get(entity)?.digest ?? ''}\n`);
  }
  return h.digest('hex');
}

/**
 * The index files for these routes: from `cacheDir` when the documents and
 * code are those of a stored entry; else each shard from its own entry when
 * its documents are those of one, and the others indexed by `index`
 * (MiniSearch, the expensive part; the build may hand it to a thread of its
 * own) and stored. `cacheDir` undefined: index, store nothing.
 */
export async function cachedSearchIndex(
  catalogue: Catalogue,
  routes: readonly SearchRoute[],
  cacheDir: string | undefined,
  checkKey?: string,
  index: (shards: SearchDocument[][]) => Promise<ShardFile[]> = async (shards) => shards.map(indexShard),
): Promise<SearchIndexOutput> {
  const slot = cacheSlot(catalogue, routes, cacheDir, checkKey);
  if (slot.hit !== undefined) return slot.hit;
  const docs = searchDocuments(catalogue, routes);
  const shards = shardDocuments(docs);
  const code = indexingCode();
  const keys = shards.map((shard) => (code === null ? null : shardKey(code, shard)));
  const files = keys.map((key) => (cacheDir === undefined || key === null ? undefined : readShard(cacheDir, key)));
  const missing = files.flatMap((f, i) => (f === undefined ? [i] : []));
  if (missing.length > 0) {
    const made = await index(missing.map((i) => shards[i]));
    missing.forEach((i, j) => {
      files[i] = made[j];
      const key = keys[i];
      if (cacheDir !== undefined && key !== null) storeShard(cacheDir, key, made[j]);
    });
    if (cacheDir !== undefined) pruneShards(cacheDir, shards.length);
  }
  return slot.store(searchIndexOutput(files as ShardFile[], docs.length));
}

type ShardFile = { path: string; contents: string };

/** A shard's documents and the indexing code, hashed: the name of its entry. */
function shardKey(code: string, docs: readonly SearchDocument[]): string {
  const h = createHash('sha256').update(`${code}\0shard\0`);
  for (const d of docs) h.update(JSON.stringify([d.kind, d.url, d.title, d.text, d.excerpt])).update('\n');
  return h.digest('hex').slice(0, 40);
}

const shardFile = (cacheDir: string, key: string) => path.join(cacheDir, 'search-shards', `${key}.json`);

/** A stored shard (its path, a newline, its contents), marked as used; undefined when there is none. */
function readShard(cacheDir: string, key: string): ShardFile | undefined {
  try {
    const file = shardFile(cacheDir, key);
    const text = readFileSync(file, 'utf8');
    const newline = text.indexOf('\n');
    if (newline < 0) return undefined;
    const now = new Date();
    utimesSync(file, now, now);
    return { path: text.slice(0, newline), contents: text.slice(newline + 1) };
  } catch {
    return undefined;
  }
}

function storeShard(cacheDir: string, key: string, shard: ShardFile): void {
  writeCacheFile(shardFile(cacheDir, key), `${shard.path}\n${shard.contents}`);
}

/** Keeps the shards of this index and of a few before it (the least recently used go). */
function pruneShards(cacheDir: string, shards: number): void {
  pruneCacheFiles(path.join(cacheDir, 'search-shards'), shards * 2 + 32, (n) => n.endsWith('.json'));
}

/** The cache's answer for these inputs: the stored output, or how to store a new one (returned as given). */
function cacheSlot(
  catalogue: Catalogue,
  routes: readonly SearchRoute[],
  cacheDir: string | undefined,
  checkKey: string | undefined,
): { hit?: SearchIndexOutput; store(output: SearchIndexOutput): SearchIndexOutput } {
  const code = indexingCode();
  if (cacheDir === undefined || code === null) return { store: (output) => output };
  // The check's key already hashes every data byte and the code that made the catalogue and its routes
  // from them: hashing the catalogue again would cost time and add nothing.
  const key = checkKey === undefined ? inputKey(code, catalogue, routes) : createHash('sha256').update(`${code}\0check\0${checkKey}`).digest('hex');
  // One file per key: builds of several catalogues (tests, benchmarks, a site's branches) do not evict each other.
  const file = path.join(cacheDir, `search-${key.slice(0, 24)}.json`);
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { key: string; output: SearchIndexOutput };
    if (stored.key === key) return { hit: stored.output, store: (output) => output };
  } catch {
    // missing or damaged: a miss
  }
  return {
    store(output) {
      // Stress-size catalogues (bench/synthetic.ts) are not cached, as the check cache does not cache them.
      if (output.files.reduce((n, f) => n + f.contents.length, 0) > MAX_CACHED_CHARS) return output;
      if (writeCacheFile(file, JSON.stringify({ key, output }))) pruneCacheFiles(cacheDir, MAX_ENTRIES, (n) => /^search-[0-9a-f]{24}\.json$/.test(n));
      return output;
    },
  };
}

/** Entries kept: the most recently written go last. */
const MAX_ENTRIES = 8;
/** Largest index cached: far above a real catalogue's, below a stress-size one's. */
const MAX_CACHED_CHARS = 64 * 1024 * 1024;

/**
 * Writes the index (buildSearchIndex's files) into the output folder, through the cache. With `inThread`, a miss is
 * indexed in a thread of its own (search-worker.ts): for a build whose main
 * thread renders alone, that is a core that would otherwise wait.
 */
export async function writeSearchIndexCached(
  writer: SiteWriter,
  catalogue: Catalogue,
  routes: readonly SearchRoute[],
  cacheDir: string | undefined,
  checkKey?: string,
  inThread = false,
): Promise<SearchIndexOutput> {
  const out = await cachedSearchIndex(catalogue, routes, cacheDir, checkKey, inThread ? indexInWorker : undefined);
  await writer.write(out.files);
  return out;
}
