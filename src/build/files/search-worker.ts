/**
 * MiniSearch's indexing in a thread of its own. On a cache miss it is the
 * largest piece of work the build's main thread has besides rendering, a
 * second core would otherwise wait, and it needs nothing but the documents
 * (docs/PERFORMANCE.md, "Cold peak").
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { indexShard, type SearchDocument } from './search-index.js';

const SELF = new URL(import.meta.url);

type ShardFile = ReturnType<typeof indexShard>;

/**
 * Each shard's file (indexShard), in a worker thread. Run from TypeScript
 * sources (the tests), where no compiled module is there to start, it
 * indexes in-process.
 */
export function indexInWorker(shards: readonly SearchDocument[][]): Promise<ShardFile[]> {
  if (!SELF.pathname.endsWith('.js') || !existsSync(fileURLToPath(SELF))) return Promise.resolve(shards.map(indexShard));
  return new Promise((resolve, reject) => {
    const worker = new Worker(SELF, { workerData: { searchIndexer: true } });
    let settled = false;
    worker.once('message', (output: ShardFile[]) => {
      settled = true;
      resolve(output);
      void worker.terminate();
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the search index thread stopped (exit code ${code}) before it answered`));
    });
    worker.postMessage(shards);
  });
}

// Only in the thread started above: other worker threads (the render pool's) may import this module too.
if (!isMainThread && parentPort !== null && (workerData as { searchIndexer?: boolean } | null)?.searchIndexer === true) {
  const port = parentPort;
  port.once('message', (shards: SearchDocument[][]) => port.postMessage(shards.map(indexShard)));
}
