/**
 * The search index, cached by content: MiniSearch's indexing is most of the
 * build's main-thread work (docs/PERFORMANCE.md), yet it is a pure
 * function of the indexed documents and the indexing code. The key hashes
 * both, so a changed product, route or tokenizer is a miss; the output is the
 * same bytes either way.
 */
import { createHash, hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pruneCacheFiles, writeCacheFile } from '../cache-files.js';
import { fileURLToPath } from 'node:url';
import type { Catalogue } from '../../core/catalogue.js';
import {
  searchDocuments,
  searchIndexOutput,
  shardDocuments,
  type SearchDocument,
  type SearchIndexOutput,
  type SearchRoute,
  type ShardFile,
} from './search-index.js';
import { makeShard, readStoredShard, type ShardTask } from './search-update.js';
import { indexInWorker } from './search-worker.js';
import type { SiteWriter } from '../output/site-writer.js';

const FORMAT = 'site-search-cache/3';

let codeKey: string | null | undefined;

/** Hash of the code that shapes the index (this stage, the shared tokenizer and search text, MiniSearch); null when unreadable. */
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
    const files = [`search-index${ext}`, `search-update${ext}`, ...['search-options', 'search-text'].map((f) => path.join('..', '..', 'core', `${f}${ext}`))];
    for (const file of files.map((f) => path.join(path.dirname(here), f))) {
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
 * its documents are those of one, and the others made by `index` (MiniSearch,
 * the expensive part; the build may hand it to a thread of its own) from the
 * shard's last version at its place where the cache has it
 * (search-update.ts), and stored. `cacheDir` undefined: index, store nothing.
 */
export async function cachedSearchIndex(
  catalogue: Catalogue,
  routes: readonly SearchRoute[],
  cacheDir: string | undefined,
  checkKey?: string,
  index: (tasks: ShardTask[]) => Promise<ShardFile[]> = (tasks) => Promise.all(tasks.map((task) => makeShard(task))),
  /** Takes the cache's writes, to run once the build's result is out (see BuildOptions.later); default: at once. */
  later: (write: () => void) => void = (write) => write(),
): Promise<SearchIndexOutput> {
  const slot = cacheSlot(catalogue, routes, cacheDir, checkKey);
  if (slot.hit !== undefined) return slot.hit;
  const docs = searchDocuments(catalogue, routes);
  const shards = shardDocuments(docs);
  const code = indexingCode();
  const keys = shards.map((shard) => (code === null ? null : shardKey(code, shard)));
  // Each document's digest only for the shards to make: an update finds the documents that changed by them.
  const digests: string[][] = [];
  const stored = keys.map((key) => (cacheDir === undefined || key === null ? undefined : readShard(cacheDir, key)));
  const files = stored.map((s) => (s === undefined ? undefined : { path: s.path, contents: s.contents }));
  const missing = files.flatMap((f, i) => (f === undefined ? [i] : []));
  if (missing.length > 0) {
    const latest = cacheDir === undefined || code === null ? [] : readLatest(cacheDir, shards.length, code);
    for (const i of missing) digests[i] = shards[i].map(documentDigest);
    const tasks = missing.map((i): ShardTask => {
      const key = keys[i] ?? undefined;
      const previous = cacheDir === undefined || latest[i] === undefined ? undefined : { key: latest[i], entry: shardFile(cacheDir, latest[i]) };
      return { docs: shards[i], digests: digests[i], key, previous };
    });
    const made = await index(tasks);
    missing.forEach((i, j) => (files[i] = made[j]));
    if (cacheDir !== undefined)
      later(() => {
        missing.forEach((i, j) => keys[i] !== null && storeShard(cacheDir, keys[i], made[j], digests[i]));
        pruneShards(cacheDir, shards.length);
      });
  }
  if (cacheDir !== undefined && code !== null)
    later(() => {
      writeLatest(cacheDir, code, keys as string[]);
      slot.store(keys as string[], docs.length);
    });
  return searchIndexOutput(files as ShardFile[], docs.length);
}

/**
 * A document's digest: whatever of it the index holds, its text by what the text was made from where that is
 * known (SearchDocument.source; the code that makes it is in indexingCode's key). Hashing a catalogue's whole
 * text on every build would cost more than the rest of an incremental build's search index.
 */
function documentDigest(d: SearchDocument): string {
  return hash('sha1', documentIdentity(d), 'hex');
}

/** What a document's digest hashes: JSON, so it holds no line break. */
function documentIdentity(d: SearchDocument): string {
  const made = d.source === undefined ? [d.text, d.excerpt] : [d.source];
  return JSON.stringify([d.kind, d.url, d.title, ...made]);
}

/**
 * A shard's documents (what their digests hash, a line each) and the indexing code, hashed: the name of its entry.
 * One hash a shard, not one a document: at 100,000 routes the documents' own digests were a third of a second of
 * every build whose data changed, and only the shards made again need them.
 */
function shardKey(code: string, docs: readonly SearchDocument[]): string {
  const h = createHash('sha256').update(`${code}\0shard\0`);
  for (const d of docs) h.update(documentIdentity(d)).update('\n');
  return h.digest('hex').slice(0, 40);
}

const shardsDir = (cacheDir: string) => path.join(cacheDir, 'search-shards');
const shardFile = (cacheDir: string, key: string) => path.join(shardsDir(cacheDir), `${key}.json`);
/** A shard entry's key (shardKey), and its file's name. */
const SHARD_KEY = /^[0-9a-f]{40}$/;
const isShardEntry = (name: string) => name.endsWith('.json') && SHARD_KEY.test(name.slice(0, -'.json'.length));

/**
 * The keys of the last index of `count` shards, by shard: where an update of
 * each starts from. Made by the same indexing code only: a shard another
 * tokenizer indexed would keep its documents' old terms.
 */
const latestFile = (cacheDir: string, count: number) => path.join(shardsDir(cacheDir), `latest-${count}.json`);

function readLatest(cacheDir: string, count: number, code: string): Array<string | undefined> {
  try {
    const latest = JSON.parse(readFileSync(latestFile(cacheDir, count), 'utf8')) as { code?: unknown; keys?: unknown };
    const keys = latest.code === code && Array.isArray(latest.keys) && latest.keys.length === count ? (latest.keys as unknown[]) : [];
    return keys.map((k) => (typeof k === 'string' && SHARD_KEY.test(k) ? k : undefined));
  } catch {
    return [];
  }
}

function writeLatest(cacheDir: string, code: string, keys: readonly string[]): void {
  const file = latestFile(cacheDir, keys.length);
  const text = JSON.stringify({ code, keys });
  try {
    if (readFileSync(file, 'utf8') === text) return;
  } catch {
    // none yet
  }
  writeCacheFile(file, text);
}

/** A stored shard (readStoredShard), by its key. */
const readShard = (cacheDir: string, key: string) => readStoredShard(shardFile(cacheDir, key));

function storeShard(cacheDir: string, key: string, shard: ShardFile, digests: readonly string[]): void {
  writeCacheFile(shardFile(cacheDir, key), `${shard.path}\n${JSON.stringify(digests)}\n${shard.contents}`);
}

/** Keeps the shards of this index and of a few before it (the least recently used go). */
function pruneShards(cacheDir: string, shards: number): void {
  pruneCacheFiles(shardsDir(cacheDir), shards * 2 + 32, isShardEntry);
}

/**
 * The cache's answer for these inputs: the output made from the shards their
 * entry names, or how to name them for the next build. The entry holds the
 * shards' keys, not their contents: the shards are stored already, and a
 * 100,000-route index written again whole was half a second of every build
 * whose data changed, for an entry the next edit never reads.
 */
function cacheSlot(
  catalogue: Catalogue,
  routes: readonly SearchRoute[],
  cacheDir: string | undefined,
  checkKey: string | undefined,
): { hit?: SearchIndexOutput; store(shards: readonly string[], documents: number): void } {
  const code = indexingCode();
  if (cacheDir === undefined || code === null) return { store: () => undefined };
  // The check's key already hashes every data byte and the code that made the catalogue and its routes
  // from them: hashing the catalogue again would cost time and add nothing.
  const key = checkKey === undefined ? inputKey(code, catalogue, routes) : createHash('sha256').update(`${code}\0check\0${checkKey}`).digest('hex');
  // One file per key: builds of several catalogues (tests, benchmarks, a site's branches) do not evict each other.
  const file = path.join(cacheDir, `search-${key.slice(0, 24)}.json`);
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown; shards?: unknown; documents?: unknown };
    if (stored.key === key && Array.isArray(stored.shards) && typeof stored.documents === 'number') {
      const shards = (stored.shards as unknown[]).map((k) => (typeof k === 'string' && SHARD_KEY.test(k) ? readShard(cacheDir, k) : undefined));
      // A shard pruned since (or damaged) makes it a miss.
      if (shards.every((s) => s !== undefined)) {
        const files = shards.map((s) => ({ path: s!.path, contents: s!.contents }));
        return { hit: searchIndexOutput(files, stored.documents), store: () => undefined };
      }
    }
  } catch {
    // missing or damaged: a miss
  }
  return {
    store(shards, documents) {
      if (writeCacheFile(file, JSON.stringify({ key, shards, documents })))
        pruneCacheFiles(cacheDir, MAX_ENTRIES, (n) => /^search-[0-9a-f]{24}\.json$/.test(n));
    },
  };
}

/** Entries kept: the most recently written go last. */
const MAX_ENTRIES = 8;

/**
 * Writes the index (buildSearchIndex's files) into the output folder, through the cache. With `inThread`, a miss is
 * indexed in a thread of its own (search-worker.ts): for a build whose main
 * thread renders alone, that is a core that would otherwise wait. `keepThread`:
 * the thread stays up for the next build of this process.
 */
export async function writeSearchIndexCached(
  writer: SiteWriter,
  catalogue: Catalogue,
  routes: readonly SearchRoute[],
  cacheDir: string | undefined,
  checkKey?: string,
  inThread = false,
  keepThread = false,
): Promise<SearchIndexOutput> {
  const out = await cachedSearchIndex(catalogue, routes, cacheDir, checkKey, inThread ? (tasks) => indexInWorker(tasks, keepThread) : undefined);
  await writer.write(out.files);
  return out;
}
