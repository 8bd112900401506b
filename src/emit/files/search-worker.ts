/**
 * MiniSearch's indexing in a thread of its own. On a cache miss it is the
 * largest piece of work the build's main thread has besides rendering, a
 * second core would otherwise wait, and it needs nothing but the documents
 * (docs/PERFORMANCE.md, "Cold peak"). A large build asks it for the index's
 * layout first (search-plan.ts), then for the shards to make.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { ShardFile } from './search-index.js';
import { shardLayout, type LayoutInput, type ShardLayout } from './search-plan.js';
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
  asked: Array<{ resolve: (answer: unknown) => void; reject: (err: unknown) => void; keep: boolean }>;
}

let thread: SearchThread | undefined;

/**
 * What the thread is asked: the shards to make, and whether another build will ask again (then it keeps them
 * parsed); or the layout of an index.
 */
type Request = { kind: 'index'; tasks: readonly ShardTask[]; keep: boolean } | { kind: 'layout'; input: LayoutInput };

function startThread(): SearchThread {
  const worker = new Worker(SELF, { workerData: { searchIndexer: true } });
  const started: SearchThread = { worker, asked: [] };
  // Idle, it does not keep the process alive.
  worker.unref();
  const fail = (err: unknown) => {
    if (thread === started) thread = undefined;
    for (const { reject } of started.asked.splice(0)) reject(err);
  };
  worker.on('message', (answer: unknown) => {
    const answered = started.asked.shift();
    answered?.resolve(answer);
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
 * Routes from which a one-shot build has the search thread make the index's layout (layoutInWorker). Below, the
 * thread is what the build waits for last, and the layout would lengthen its wait by about what it saves the main
 * thread.
 */
export const LAYOUT_BESIDE_PAGES = 10_000;

/** Whether the compiled module is there to start as a thread: run from TypeScript sources (the tests), it is not. */
const runsAsThread = (): boolean => SELF.pathname.endsWith('.js') && existsSync(fileURLToPath(SELF));

/** Asks the thread (started if need be); `keep`: it stays up once it has answered, for the next question. */
function ask<T>(request: Request, keep: boolean): Promise<T> {
  const running = (thread ??= startThread());
  return new Promise<T>((resolve, reject) => {
    running.asked.push({ resolve: resolve as (answer: unknown) => void, reject, keep });
    // Asked, it keeps the process alive until it answers.
    running.worker.ref();
    running.worker.postMessage(request);
  });
}

/**
 * Each shard's file (makeShard), in a worker thread. Run from TypeScript
 * sources (the tests), where no compiled module is there to start, it
 * indexes in-process. With `keep`, the thread stays up for the next call
 * (another build follows in this process), unreferenced while idle.
 */
export function indexInWorker(tasks: readonly ShardTask[], keep = false): Promise<ShardFile[]> {
  if (!runsAsThread()) return makeAll(tasks);
  return ask<ShardFile[]>({ kind: 'index', tasks, keep }, keep);
}

/**
 * The index's layout (shardLayout), in the thread, which stays up for the shards to make (indexInWorker) or
 * until `doneWithSearchThread`. In-process where no thread can start (see indexInWorker).
 */
export function layoutInWorker(input: LayoutInput): Promise<ShardLayout> {
  if (!runsAsThread()) return Promise.resolve().then(() => shardLayout(input));
  return ask<ShardLayout>({ kind: 'layout', input }, true);
}

/** The thread is asked nothing more (a one-shot build, which asked for a layout): it goes once idle. */
export function doneWithSearchThread(): void {
  const idle = thread;
  if (idle === undefined || idle.asked.length > 0) return;
  thread = undefined;
  void idle.worker.terminate();
}

// Only in the thread started above: other worker threads (the render pool's) may import this module too.
if (!isMainThread && parentPort !== null && (workerData as { searchIndexer?: boolean } | null)?.searchIndexer === true) {
  const port = parentPort;
  // A failure is an unhandled rejection, which ends the thread with an 'error' event: indexInWorker rejects.
  // One message at a time, answered in order: a build awaits its answer before the next build asks.
  let queue = Promise.resolve();
  const parsed = new ParsedShards(PARSED_CHARS);
  port.on('message', (request: Request) => {
    queue = queue.then(async () =>
      port.postMessage(request.kind === 'layout' ? shardLayout(request.input) : await makeAll(request.tasks, request.keep ? parsed : undefined)),
    );
  });
}
