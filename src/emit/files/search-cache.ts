/**
 * The search index, cached by content: MiniSearch's indexing is most of the
 * build's main-thread work (docs/PERFORMANCE.md), yet it is a pure
 * function of the indexed documents and the indexing code. The key hashes
 * both, so a changed product, route or tokenizer is a miss; the output is the
 * same bytes either way.
 */
import { createHash, hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pruneCacheFiles, writeCacheFile } from '../cache-files.js';
import { fileURLToPath } from 'node:url';
import type { Catalogue } from '../../core/catalogue.js';
import { codeFingerprint } from '../../load/cache.js';
import {
  documentAt,
  leanSource,
  searchIndexOutput,
  searchPlaces,
  shardDocuments,
  textCapOf,
  type DocumentPlace,
  type SearchDocument,
  type SearchFile,
  type SearchIndexOutput,
  type SearchRoute,
  type ShardFile,
} from './search-index.js';
import { layoutInput, placeIdentity, placesOfShard, shardKey, type LayoutInput, type ShardLayout } from './search-plan.js';
import { makeShard, readShardEntry, type ShardTask } from './search-update.js';
import { indexInWorker } from './search-worker.js';
import type { SiteWriter } from '../output/site-writer.js';

const FORMAT = 'site-search-cache/4';

let codeKey: string | null | undefined;

/**
 * Hash of the code that shapes the index (this stage, the shared tokenizer and search text, MiniSearch, and the
 * load stage's code, which makes the entities); null when unreadable.
 */
function indexingCode(): string | null {
  if (codeKey !== undefined) return codeKey;
  try {
    const here = fileURLToPath(import.meta.url);
    const ext = path.extname(here); // .js from build/, .ts under vitest
    // The load stage's code too: a lean document is named by its file's sha1, and that code makes its title and text.
    const catalogueCode = codeFingerprint();
    if (catalogueCode === undefined) throw new Error("the load stage's code is unreadable");
    const h = createHash('sha256').update(`${FORMAT}\0${process.version}\0${catalogueCode}\0`);
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

/** Where the search index's layout (search-plan.ts) is made: in the search thread for a large build, else where asked. */
export type LayoutMaker = (input: LayoutInput) => Promise<ShardLayout>;

/**
 * The index files for these routes: from `cacheDir` when the documents and
 * code are those of a stored entry; else each shard from its own entry when
 * its documents are those of one, and the others made by `index` (MiniSearch,
 * the expensive part; the build may hand it to a thread of its own) from the
 * shard's last version at its place where the cache has it
 * (search-update.ts), and stored. `cacheDir` undefined: index, store nothing.
 * With `layout`, the shards' layout is made by it from a lean catalogue's ids
 * and sources (search-plan.ts); else here.
 */
export async function cachedSearchIndex(
  catalogue: Catalogue,
  routes: readonly SearchRoute[],
  cacheDir: string | undefined,
  checkKey?: string,
  index: (tasks: ShardTask[]) => Promise<ShardFile[]> = (tasks) => Promise.all(tasks.map((task) => makeShard(task))),
  /** Takes the cache's writes, to run once the build's result is out (see BuildOptions.later); default: at once. */
  later: (write: () => void) => void = (write) => write(),
  layout?: LayoutMaker,
): Promise<SearchIndexOutput> {
  const slot = cacheSlot(catalogue, routes, cacheDir, checkKey);
  if (slot.hit !== undefined) return slot.hit;
  const max = textCapOf(catalogue);
  const code = indexingCode();
  // Documents only where needed: a lean entity's document is named by its file's sha1 (its identity), so the
  // text, title and excerpt of the shards kept are never made.
  const made = new Map<DocumentPlace, SearchDocument>();
  const documentOf = (place: DocumentPlace): SearchDocument => {
    let doc = made.get(place);
    if (doc === undefined) made.set(place, (doc = documentAt(catalogue, place, max)));
    return doc;
  };
  const identityOf = (place: DocumentPlace): string => {
    const body = catalogue.bodies?.get(place.entity);
    return body === undefined ? documentIdentity(documentOf(place)) : placeIdentity(place.kind, place.url, leanSource(body.digest, max));
  };
  const input = layout === undefined || code === null ? undefined : layoutInput(catalogue, routes, max, code);
  const { documents, keys, shard } =
    layout === undefined || input === undefined ? layoutHere(catalogue, routes, code, identityOf) : await layoutBy(layout, input, catalogue, routes);
  // The shards to make are handed to `index` first, and the stored ones read once it has answered: their bytes
  // (44 MB at 100,000 routes) are not wanted sooner, and the main thread has other work meanwhile.
  const entryOf = (i: number) => (cacheDir === undefined || keys[i] === null ? undefined : shardFile(cacheDir, keys[i]));
  const files: Array<SearchFile | undefined> = keys.map(() => undefined);
  const makeMissing = (shards: number[]) => (shards.length === 0 ? undefined : makeShards(shards));
  const makeShards = async (shards: number[]): Promise<void> => {
    const latest = cacheDir === undefined || code === null ? [] : readLatest(cacheDir, keys.length, code);
    const places = shards.map((i) => shard(i));
    // Each document's digest only for the shards to make: an update finds the documents that changed by them.
    const digests = places.map((list) => list.map((place) => documentDigest(identityOf(place))));
    const tasks = shards.map((i, j): ShardTask => {
      const key = keys[i] ?? undefined;
      const previous = cacheDir === undefined || latest[i] === undefined ? undefined : { key: latest[i], entry: shardFile(cacheDir, latest[i]) };
      return { docs: places[j].map(documentOf), digests: digests[j], key, previous };
    });
    const indexed = await index(tasks);
    shards.forEach((i, j) => (files[i] = indexed[j]));
    if (cacheDir !== undefined) later(() => shards.forEach((i, j) => keys[i] !== null && storeShard(cacheDir, keys[i], indexed[j], digests[j])));
  };
  const present = keys.map((_, i) => {
    const entry = entryOf(i);
    return entry !== undefined && existsSync(entry);
  });
  await makeMissing(present.flatMap((here, i) => (here ? [] : [i])));
  // An entry gone since it was seen (pruned by another build) is made as a missing one is.
  const lost = present.flatMap((here, i) => {
    const entry = entryOf(i);
    if (!here || entry === undefined) return [];
    files[i] = storedShardFile(entry);
    return files[i] === undefined ? [i] : [];
  });
  await makeMissing(lost);
  // Pruned once every shard of this index was read or stored: the least recently used go.
  if (cacheDir !== undefined && present.some((here) => !here)) later(() => pruneShards(cacheDir, keys.length));
  if (cacheDir !== undefined && code !== null)
    later(() => {
      writeLatest(cacheDir, code, keys as string[]);
      slot.store(keys as string[], documents);
    });
  return searchIndexOutput(files as SearchFile[], documents);
}

/** The index's layout as cachedSearchIndex reads it: the documents' count, each shard's key (null: not cached) and its places. */
interface Layout {
  documents: number;
  keys: Array<string | null>;
  shard(i: number): DocumentPlace[];
}

/** The layout made on this thread, from the catalogue itself; `identityOf` names a document (placeIdentity, documentIdentity). */
function layoutHere(catalogue: Catalogue, routes: readonly SearchRoute[], code: string | null, identityOf: (place: DocumentPlace) => string): Layout {
  const places = searchPlaces(catalogue, routes);
  const shards = shardDocuments(places);
  const keys = shards.map((shard) => (code === null ? null : shardKey(code, shard.map(identityOf))));
  return { documents: places.length, keys, shard: (i) => shards[i] };
}

/** The layout made by `make` (the search thread), each shard's places found in the catalogue when asked for. */
async function layoutBy(make: LayoutMaker, input: LayoutInput, catalogue: Catalogue, routes: readonly SearchRoute[]): Promise<Layout> {
  const layout = await make(input);
  return { documents: layout.documents, keys: layout.keys, shard: (i) => placesOfShard(layout, i, catalogue, routes) };
}

/**
 * A document's digest: the hash of its identity (documentIdentity, placeIdentity). Hashing a catalogue's whole
 * text on every build would cost more than the rest of an incremental build's search index.
 */
function documentDigest(identity: string): string {
  return hash('sha1', identity, 'hex');
}

/**
 * What names a document whose text is not known by what it was made from: whatever of it the index holds. JSON,
 * so it holds no line break.
 */
function documentIdentity(d: SearchDocument): string {
  return JSON.stringify([d.kind, d.url, d.title, d.text, d.excerpt]);
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

/**
 * A stored shard's output file, by its key: its contents as the bytes stored, never decoded into a string (at
 * 100,000 routes 64 shards, 44 MB, read on every build whose data changed). Marked as used.
 */
function storedShardFile(entry: string): SearchFile | undefined {
  const stored = readShardEntry(entry);
  return stored && { path: stored.path, contents: stored.contents };
}

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
      const shards = (stored.shards as unknown[]).map((k) =>
        typeof k === 'string' && SHARD_KEY.test(k) ? storedShardFile(shardFile(cacheDir, k)) : undefined,
      );
      // A shard pruned since (or damaged) makes it a miss.
      if (shards.every((s) => s !== undefined)) {
        return { hit: searchIndexOutput(shards as SearchFile[], stored.documents), store: () => undefined };
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
