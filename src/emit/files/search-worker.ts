/**
 * MiniSearch's indexing in a thread of its own. On a cache miss it is the
 * largest piece of work the build's main thread has besides rendering, a
 * second core would otherwise wait, and it needs nothing but the documents
 * (docs/PERFORMANCE.md, "Cold peak").
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { ShardFile } from './search-index.js';
import { makeShard, type ShardTask } from './search-update.js';

const SELF = new URL(import.meta.url);

const makeAll = (tasks: readonly ShardTask[]) => Promise.all(tasks.map(makeShard));

/**
 * Each shard's file (makeShard), in a worker thread. Run from TypeScript
 * sources (the tests), where no compiled module is there to start, it
 * indexes in-process.
 */
export function indexInWorker(tasks: readonly ShardTask[]): Promise<ShardFile[]> {
  if (!SELF.pathname.endsWith('.js') || !existsSync(fileURLToPath(SELF))) return makeAll(tasks);
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
    worker.postMessage(tasks);
  });
}

// Only in the thread started above: other worker threads (the render pool's) may import this module too.
if (!isMainThread && parentPort !== null && (workerData as { searchIndexer?: boolean } | null)?.searchIndexer === true) {
  const port = parentPort;
  // A failure is an unhandled rejection, which ends the thread with an 'error' event: indexInWorker rejects.
  port.once('message', (tasks: ShardTask[]) => void makeAll(tasks).then((files) => port.postMessage(files)));
}
