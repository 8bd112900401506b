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
import { makeShard, ParsedShards, type ShardTask } from './search-update.js';

const SELF = new URL(import.meta.url);

const makeAll = (tasks: readonly ShardTask[], parsed?: ParsedShards) => Promise.all(tasks.map((task) => makeShard(task, parsed)));

/**
 * The shards a kept thread holds parsed for the next build's update (ParsedShards), at most: a parsed index
 * takes several times its text's size in the heap, so a stress-size catalogue's shards are parsed again instead.
 */
const PARSED_CHARS = 16 * 1024 * 1024;

/** The search thread: started by a build that indexes, and kept for the next one when it asks (`site build --watch`). */
interface SearchThread {
  worker: Worker;
  /** Answers awaited, in the order asked: the thread answers each message in turn. */
  asked: Array<{ resolve: (files: ShardFile[]) => void; reject: (err: unknown) => void; keep: boolean }>;
}

let thread: SearchThread | undefined;

/** What the thread is asked: the shards to make, and whether another build will ask again (then it keeps them parsed). */
interface IndexRequest {
  tasks: readonly ShardTask[];
  keep: boolean;
}

function startThread(): SearchThread {
  const worker = new Worker(SELF, { workerData: { searchIndexer: true } });
  const started: SearchThread = { worker, asked: [] };
  // Idle, it does not keep the process alive.
  worker.unref();
  const fail = (err: unknown) => {
    if (thread === started) thread = undefined;
    for (const { reject } of started.asked.splice(0)) reject(err);
  };
  worker.on('message', (output: ShardFile[]) => {
    const answered = started.asked.shift();
    answered?.resolve(output);
    if (started.asked.length > 0) return;
    if (answered?.keep === true) return void worker.unref();
    // Not kept, its heap goes at once: a one-shot build's peak memory is not the two threads' sum until it exits.
    if (thread === started) thread = undefined;
    void worker.terminate();
  });
  worker.once('error', fail);
  worker.once('exit', (code) => fail(new Error(`the search index thread stopped (exit code ${code}) before it answered`)));
  return started;
}

/**
 * Each shard's file (makeShard), in a worker thread. Run from TypeScript
 * sources (the tests), where no compiled module is there to start, it
 * indexes in-process. With `keep`, the thread stays up for the next call
 * (another build follows in this process), unreferenced while idle.
 */
export function indexInWorker(tasks: readonly ShardTask[], keep = false): Promise<ShardFile[]> {
  if (!SELF.pathname.endsWith('.js') || !existsSync(fileURLToPath(SELF))) return makeAll(tasks);
  const running = (thread ??= startThread());
  return new Promise((resolve, reject) => {
    running.asked.push({ resolve, reject, keep });
    // Asked, it keeps the process alive until it answers.
    running.worker.ref();
    running.worker.postMessage({ tasks, keep } satisfies IndexRequest);
  });
}

// Only in the thread started above: other worker threads (the render pool's) may import this module too.
if (!isMainThread && parentPort !== null && (workerData as { searchIndexer?: boolean } | null)?.searchIndexer === true) {
  const port = parentPort;
  // A failure is an unhandled rejection, which ends the thread with an 'error' event: indexInWorker rejects.
  // One message at a time, answered in order: a build awaits its answer before the next build asks.
  let queue = Promise.resolve();
  const parsed = new ParsedShards(PARSED_CHARS);
  port.on('message', ({ tasks, keep }: IndexRequest) => {
    queue = queue.then(() => makeAll(tasks, keep ? parsed : undefined).then((files) => port.postMessage(files)));
  });
}
