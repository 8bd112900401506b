/**
 * Taking stock of the temporary folder (output/stock.ts) in a thread of its
 * own, started as soon as the plan is known: a large incremental build's main
 * thread then selects the pages to render (hashing every name the last
 * record holds) while the second core lists the spare, where it waited
 * before. At 100,000 routes the inventory is about 100,000 folder stats
 * (docs/PERFORMANCE.md, "The record's names hashed once; the spare's stock
 * taken beside the selection").
 *
 * Run from TypeScript sources (the tests), where no compiled module is there
 * to start, it takes stock in-process when its answer is asked for.
 */
import { existsSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { readStockTask } from '../incremental/stock-task.js';
import { recordedFolder } from '../incremental/up-to-date.js';
import { takeStock, type Stock, type StockTask } from '../output/stock.js';

const SELF = new URL(import.meta.url);

/**
 * Pages from which an incremental build takes stock beside the selection. Below, the second core is busy enough
 * with the search thread that a third thread slows the selection by about what it saves: in pairs, a build of
 * 1,467 pages took 2 % longer, of 5,000 as long, of 20,000 8 % less time (docs/PERFORMANCE.md).
 */
export const STOCK_BESIDE_PAGES = 10_000;

/** takeStock of `root`'s share with what its manifest (task.manifest) recorded: the prepare task's, in whichever thread. */
export function takeRecordedStock(root: string, task: StockTask): Stock {
  return takeStock(root, task, (task.manifest === undefined ? null : recordedFolder(task.manifest)) ?? undefined);
}

/** takeStock of all of `root` (task.parts is 1), in a thread; rejects with the thread's error. */
export function takeStockInThread(root: string, task: StockTask): Promise<Stock> {
  return inThread(root, { task }, () => takeRecordedStock(root, task));
}

/**
 * takeStock of all of `root` for the task kept in `file` (incremental/stock-task.ts), read by the thread, with
 * the recycled folder's `manifest`; rejects when there is no such task.
 */
export function takeKeptStockInThread(root: string, file: string, manifest?: string): Promise<Stock> {
  return inThread(root, { file, manifest }, () => takeKeptStock(root, file, manifest));
}

function takeKeptStock(root: string, file: string, manifest?: string): Stock {
  const kept = readStockTask(file);
  if (kept === undefined) throw new Error(`the stock task ${file} could not be read`);
  return takeRecordedStock(root, { recycled: true, part: 0, parts: 1, dirs: [...kept.dirs], twins: kept.twins, pages: kept.pages, manifest });
}

type Job = { task: StockTask } | { file: string; manifest?: string };

/** The nice value of a thread that works beside the check: below every thread of the build's own (0). */
const BESIDE_NICE = 10;

/**
 * Lowers this thread's priority, where the system lets a thread have its own (Linux: its nice value, set by its
 * kernel id): the main thread's check and V8's collector helpers, which use the second core for each scavenge,
 * come first, and the stock takes the time they leave. At 100,000 routes the check took 0.26 s less
 * (docs/PERFORMANCE.md, "The spare's stock taken while the data is checked"). Elsewhere, nothing.
 */
function giveWay(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, BESIDE_NICE);
  } catch {
    // no /proc (not Linux), or not allowed: the thread runs as it is
  }
}

function inThread(root: string, job: Job, here: () => Stock): Promise<Stock> {
  if (!SELF.pathname.endsWith('.js') || !existsSync(fileURLToPath(SELF))) return Promise.resolve().then(here);
  return new Promise<Stock>((resolve, reject) => {
    const worker = new Worker(SELF, { workerData: { stockTaker: { root, ...job } } });
    worker.once('message', (stock: Stock) => {
      resolve(stock);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread taking stock of ${root} stopped (exit code ${code}) before it answered`)));
  });
}

// Only in the thread started above: other worker threads may import this module too.
if (!isMainThread && parentPort !== null) {
  const job = (workerData as { stockTaker?: { root: string } & Job } | null)?.stockTaker;
  // The kept task's stock runs beside the check (see buildSite): it gives way to it.
  if (job !== undefined && !('task' in job)) giveWay();
  if (job !== undefined) parentPort.postMessage('task' in job ? takeRecordedStock(job.root, job.task) : takeKeptStock(job.root, job.file, job.manifest));
}
