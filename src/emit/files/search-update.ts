/**
 * A search shard made from its previous version: the postings of the
 * documents that changed or went are deleted from the stored index, those of
 * the changed and new documents are merged in, and canonicalIndex
 * (search-index.ts) turns the result into the bytes indexing every document
 * afresh gives. One edited article then costs reading and writing its shard,
 * not indexing the shard's thousand documents again (docs/PERFORMANCE.md,
 * "Search shard updated in place").
 */
import { readFileSync, utimesSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { INDEX_OPTIONS, SEARCH_INDEX_VERSION, type SearchIndexFile } from '../../core/search-options.js';
import {
  canonicalIndex,
  indexShardFile,
  movePostings,
  shardFileOf,
  shardIndexFile,
  type SearchDocument,
  type SerializedIndex,
  type ShardFile,
} from './search-index.js';

/** A shard as the cache stored it: its file's contents and one digest per document, in the file's order. */
export interface StoredShard {
  contents: string;
  digests: readonly string[];
}

/** A shard a thread holds parsed (ParsedShards): its file's data and one digest per document. */
export interface HeldShard {
  file: SearchIndexFile;
  digests: readonly string[];
}

/**
 * A cache entry of a shard as stored: its file's path in the output, its documents' digests (JSON), and its
 * contents, a line each but the last, the last two as bytes; marked as used. Undefined when there is none, or it
 * is damaged.
 */
export function readShardEntry(entry: string): { path: string; digests: Buffer; contents: Buffer } | undefined {
  try {
    const bytes = readFileSync(entry);
    const first = bytes.indexOf(10);
    const second = first < 0 ? -1 : bytes.indexOf(10, first + 1);
    if (second < 0) return undefined;
    const now = new Date();
    utimesSync(entry, now, now);
    return { path: bytes.toString('utf8', 0, first), digests: bytes.subarray(first + 1, second), contents: bytes.subarray(second + 1) };
  } catch {
    return undefined;
  }
}

/** A cache entry of a shard (readShardEntry), its digests parsed and its contents as text: where an update starts. */
export function readStoredShard(entry: string): (StoredShard & ShardFile) | undefined {
  const stored = readShardEntry(entry);
  if (stored === undefined) return undefined;
  try {
    return { path: stored.path, digests: JSON.parse(stored.digests.toString('utf8')) as string[], contents: stored.contents.toString('utf8') };
  } catch {
    return undefined;
  }
}

/**
 * Shards a thread made, parsed, by their cache key: the next update of one (`site build --watch` keeps the search
 * thread) starts from it rather than reading and parsing its file again. Taken out when used, since the update
 * changes it in place; kept up to a total of `maxChars` of their files' text.
 */
export class ParsedShards {
  private readonly shards = new Map<string, HeldShard & { chars: number }>();
  private chars = 0;
  constructor(private readonly maxChars: number) {}

  take(key: string): HeldShard | undefined {
    const kept = this.shards.get(key);
    if (kept === undefined) return undefined;
    this.shards.delete(key);
    this.chars -= kept.chars;
    return kept;
  }

  keep(key: string, held: HeldShard, chars: number): void {
    this.take(key);
    // The oldest go first; one larger than the whole allowance is not kept.
    for (const [old, { chars: size }] of this.shards) {
      if (this.chars + chars <= this.maxChars) break;
      this.shards.delete(old);
      this.chars -= size;
    }
    if (this.chars + chars > this.maxChars) return;
    this.shards.set(key, { ...held, chars });
    this.chars += chars;
  }
}

/**
 * One shard to make: its documents and their digests; the cache key it will be stored under; and the last version
 * of the shard at its place, by its cache key and entry file, which the maker reads (the search thread, not the
 * build's main thread) unless it holds that version parsed.
 */
export interface ShardTask {
  docs: SearchDocument[];
  digests: string[];
  key?: string;
  previous?: { key: string; entry: string };
}

/** Past this share of the shard's documents to index (changed or new), indexing it afresh costs less than loading it and writing it back. */
const MAX_CHANGED_SHARE = 0.25;

/**
 * The shard's file: updated from its previous version where that is cheaper, else indexed afresh; the same bytes
 * either way. With `parsed`, the previous version is taken from there when it holds it, and the new one kept there.
 */
export async function makeShard(task: ShardTask, parsed?: ParsedShards): Promise<ShardFile> {
  const previous = task.previous === undefined ? undefined : (parsed?.take(task.previous.key) ?? readStoredShard(task.previous.entry));
  const file = (previous === undefined ? null : updatedFile(previous, task.docs, task.digests)) ?? indexShardFile(task.docs);
  const made = shardFileOf(file);
  if (task.key !== undefined) parsed?.keep(task.key, { file, digests: task.digests }, made.contents.length);
  return made;
}

/**
 * The shard of `docs` from `previous`, or null when that is not the cheaper
 * way (too much changed) or not possible (another format, a URL twice, a
 * stored index not in canonicalIndex's form).
 *
 * The update works on the serialised index itself: a document's postings are
 * what indexing it alone gives (MiniSearch tokenizes and counts each document
 * on its own), so the changed and new documents are indexed by themselves and
 * their postings merged in, and the postings of the documents that changed or
 * went are deleted term by term. Loading the shard into MiniSearch, vacuuming
 * it and serialising it again cost five times as much (docs/PERFORMANCE.md,
 * "Search shard updated in place").
 */
export async function updateShard(previous: StoredShard | HeldShard, docs: readonly SearchDocument[], digests: readonly string[]): Promise<ShardFile | null> {
  const file = updatedFile(previous, docs, digests);
  return file === null ? null : shardFileOf(file);
}

/** updateShard's file, before it is written out. */
function updatedFile(previous: StoredShard | HeldShard, docs: readonly SearchDocument[], digests: readonly string[]): SearchIndexFile | null {
  let file: SearchIndexFile;
  try {
    file = 'file' in previous ? previous.file : (JSON.parse(previous.contents) as SearchIndexFile);
  } catch {
    return null;
  }
  const index = file.index as SerializedIndex;
  if (file.version !== SEARCH_INDEX_VERSION || !isCanonical(index, file.docs?.length) || file.docs.length !== previous.digests.length) return null;
  const before = new Map(file.docs.map((d, i) => [d[1], i]));
  if (before.size !== file.docs.length) return null;
  /** Old position → new position, for each document whose digest is unchanged. */
  const kept = new Map<number, number>();
  const added: number[] = [];
  docs.forEach((doc, i) => {
    const at = before.get(doc.url);
    if (at !== undefined && !kept.has(at) && previous.digests[at] === digests[i]) kept.set(at, i);
    else added.push(i);
  });
  if (added.length > Math.max(1, docs.length * MAX_CHANGED_SHARE)) return null;

  try {
    /** Old short id → new one; null for a document that changed or went. */
    const moves = new Map<string, string | null>();
    const documentIds: Record<string, number> = {};
    const fieldLength: Record<string, number[]> = {};
    const storedFields: Record<string, unknown> = {};
    for (let at = 0; at < file.docs.length; at++) {
      const to = kept.get(at);
      if (to === undefined) moves.set(String(at), null);
      else {
        documentIds[to] = to;
        fieldLength[to] = index.fieldLength[at];
        if (index.storedFields[at] !== undefined) storedFields[to] = index.storedFields[at];
        if (to !== at) moves.set(String(at), String(to));
      }
    }
    const fresh = addedPostings(docs, added);
    for (const [short, at] of Object.entries(fresh.documentIds)) {
      documentIds[at] = at as number;
      fieldLength[at as number] = fresh.fieldLength[short];
      if (fresh.storedFields[short] !== undefined) storedFields[at as number] = fresh.storedFields[short];
    }
    const terms: SerializedIndex['index'] = [];
    const newTerms = new Map(fresh.index);
    for (const [term, fields] of index.index) {
      const merged = moves.size > 0 ? patchFields(fields, moves) : fields;
      const more = newTerms.get(term);
      if (more !== undefined) {
        newTerms.delete(term);
        for (const field of Object.keys(more)) merged[field] = Object.assign(merged[field] ?? {}, more[field]);
      }
      if (Object.keys(merged).length > 0) terms.push([term, merged]);
    }
    for (const entry of newTerms) terms.push(entry);
    const json: SerializedIndex = { ...index, documentCount: docs.length, nextId: docs.length, documentIds, fieldLength, storedFields, index: terms };
    return shardIndexFile(
      docs,
      canonicalIndex(json, (id) => id as number),
    );
  } catch {
    // A stored shard whose postings are not in the form this stage writes (damaged in the cache): indexed afresh.
    return null;
  }
}

/** Whether `index` is in canonicalIndex's form for `count` documents: short id i is document i, for each i. */
function isCanonical(index: SerializedIndex | undefined, count: number | undefined): boolean {
  if (index?.serializationVersion !== 2 || !Array.isArray(index.index) || index.documentCount !== count || typeof index.fieldLength !== 'object') return false;
  const ids = Object.entries(index.documentIds ?? {});
  return ids.length === count && ids.every(([short, id]) => id === Number(short) && Array.isArray(index.fieldLength[short]));
}

/** The documents at positions `added` indexed by themselves, each under its position as its id. */
function addedPostings(docs: readonly SearchDocument[], added: readonly number[]): SerializedIndex {
  const mini = new MiniSearch<{ id: number; title: string; text: string }>(INDEX_OPTIONS);
  for (const i of added) mini.add({ id: i, title: docs[i].title, text: docs[i].text });
  const json = mini.toJSON() as unknown as SerializedIndex;
  // Postings name MiniSearch's short ids; the merged index names positions.
  const moves = new Map<string, string | null>(Object.entries(json.documentIds).map(([short, at]) => [short, String(at)]));
  for (const entry of json.index) entry[1] = patchFields(entry[1], moves);
  return json;
}

/** A term's postings with movePostings applied to each field; fields left without postings go. Changed in place. */
function patchFields(fields: Record<string, Record<string, number>>, moves: ReadonlyMap<string, string | null>): Record<string, Record<string, number>> {
  for (const field of Object.keys(fields)) {
    // Most terms name none of a few moved documents: looking them up costs far less than moving nothing.
    if (moves.size <= FEW_MOVES && !namesAny(fields[field], moves)) continue;
    const postings = movePostings(fields[field], moves);
    if (isEmpty(postings)) delete fields[field];
    else fields[field] = postings;
  }
  return fields;
}

/** Moves up to which patchFields looks each moved document up in a term's postings before moving them. */
const FEW_MOVES = 8;

function namesAny(postings: Record<string, number>, moves: ReadonlyMap<string, string | null>): boolean {
  for (const short of moves.keys()) if (postings[short] !== undefined) return true;
  return false;
}

function isEmpty(object: object): boolean {
  for (const _ in object) return false;
  return true;
}
