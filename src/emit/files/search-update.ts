/**
 * A search shard made from its previous version: MiniSearch loads the stored
 * index, discards the documents that changed or went, vacuums their postings
 * and adds the new ones, and canonicalIndex (search-index.ts) turns the result
 * into the bytes indexing every document afresh gives. One edited article
 * then costs loading and writing its shard, not indexing the shard's
 * thousand documents again (docs/PERFORMANCE.md, "Search shard updated in
 * place").
 */
import MiniSearch from 'minisearch';
import { INDEX_OPTIONS, SEARCH_INDEX_VERSION, type SearchIndexFile } from '../../core/search-options.js';
import { canonicalIndex, indexShard, shardFile, type SearchDocument, type SerializedIndex, type ShardFile } from './search-index.js';

/** A shard as the cache stored it: its file's contents and one digest per document, in the file's order. */
export interface StoredShard {
  contents: string;
  digests: readonly string[];
}

/** One shard to make: its documents, their digests, and the last version of the shard at its place, when the cache has it. */
export interface ShardTask {
  docs: SearchDocument[];
  digests: string[];
  previous?: StoredShard;
}

/** Past this share of the shard's documents to index (changed or new), indexing it afresh costs less than loading it and writing it back. */
const MAX_CHANGED_SHARE = 0.25;

/** Ids given to added documents, unlike the positions the loaded ones have: `+<position>`, and back. */
const addedId = (position: number) => `+${position}`;
const addedPosition = (id: string) => Number(id.slice(1));

/** The shard's file: updated from its previous version where that is cheaper, else indexed afresh; the same bytes either way. */
export async function makeShard(task: ShardTask): Promise<ShardFile> {
  return (task.previous === undefined ? null : await updateShard(task.previous, task.docs, task.digests)) ?? indexShard(task.docs);
}

/**
 * The shard of `docs` from `previous`, or null when that is not the cheaper
 * way (too much changed) or not possible (another format, a URL twice).
 */
export async function updateShard(previous: StoredShard, docs: readonly SearchDocument[], digests: readonly string[]): Promise<ShardFile | null> {
  let file: SearchIndexFile;
  try {
    file = JSON.parse(previous.contents) as SearchIndexFile;
  } catch {
    return null;
  }
  const index = file.index as SerializedIndex;
  if (file.version !== SEARCH_INDEX_VERSION || index?.serializationVersion !== 2 || file.docs.length !== previous.digests.length) return null;
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
    const mini = MiniSearch.loadJS<{ id: number | string; title: string; text: string }>(index as never, { ...INDEX_OPTIONS, autoVacuum: false });
    for (let at = 0; at < file.docs.length; at++) if (!kept.has(at)) mini.discard(at);
    await mini.vacuum({ batchSize: Number.POSITIVE_INFINITY });
    for (const i of added) mini.add({ id: addedId(i), title: docs[i].title, text: docs[i].text });
    const json = mini.toJSON() as unknown as SerializedIndex;
    if (json.documentCount !== docs.length) return null;
    const position = (id: number | string): number => {
      const at = typeof id === 'number' ? kept.get(id) : addedPosition(id);
      if (at === undefined || !Number.isInteger(at)) throw new Error(`a document id the update did not give: ${id}`);
      return at;
    };
    return shardFile(docs, canonicalIndex(json, position));
  } catch {
    // A stored shard MiniSearch cannot load or update as it stands (damaged in the cache): indexed afresh.
    return null;
  }
}
