/**
 * The spare's stock taken as soon as a build knows its data changed. A large
 * one-shot incremental build takes stock of its spare (output/stock.ts) in a
 * thread of its own; that needs the page folders and pages of the plan,
 * known only once the check is done, and the second core sat idle for the
 * check's last two seconds at 100,000 routes (docs/PERFORMANCE.md, "The
 * spare's stock taken while the data is checked"). The plan is nearly always
 * the last build's, so the last build's task is kept here: when the check
 * finds the data changed, the stock is taken with that task at once, and the
 * build uses it if its own task turns out to be the same (by digest), else
 * waits for it and takes stock again.
 *
 * One file per output folder (by its resolved path), named by the task's
 * digest: the build that starts the stock knows what it will compare.
 */
import { hash } from 'node:crypto';
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { writeCacheFile } from '../cache-files.js';
import type { PagesToStat } from '../output/page-stats.js';
import { outputCacheFile } from './record.js';

const FORMAT = 'site-stock-task/1';

/** What a whole stock is taken for (see StockTask): the pages' folders, whether they have twins, and the pages whose stats to take. */
export interface PlannedStock {
  dirs: readonly string[];
  twins: boolean;
  pages: PagesToStat;
}

interface StoredTask {
  format: typeof FORMAT;
  /** The folders, NUL-joined. */
  dirs: string;
  twins: boolean;
  pages: PagesToStat;
}

/** A kept task: its file, and its digest (stockTaskDigest). */
export interface KeptTask {
  file: string;
  digest: string;
}

/** A task's digest: two tasks with the same digest make the same stock of the same folder. */
export function stockTaskDigest(task: PlannedStock): string {
  return hash('sha1', `${FORMAT}\0${task.twins}\0${task.dirs.join('\0')}\n${task.pages.files}\n${Buffer.from(task.pages.twins).toString('base64')}`, 'hex');
}

/** Where the tasks of the output folder `outDir` are kept, and the start of their files' names. */
function place(cacheDir: string, outDir: string): { dir: string; prefix: string } {
  const file = outputCacheFile(cacheDir, 'stock-tasks', outDir);
  return { dir: path.dirname(file), prefix: `${path.basename(file, '.bin')}-` };
}

/** The task the last build into `outDir` kept; undefined when none was. */
export function keptStockTask(cacheDir: string, outDir: string): KeptTask | undefined {
  const { dir, prefix } = place(cacheDir, outDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix) && n.endsWith('.bin'));
  } catch {
    return undefined;
  }
  if (names.length !== 1) return undefined;
  return { file: path.join(dir, names[0]), digest: names[0].slice(prefix.length, -'.bin'.length) };
}

/** The task kept in `file` (keptStockTask), whole; undefined when it is not one of this format. */
export function readStockTask(file: string): PlannedStock | undefined {
  try {
    const stored = deserialize(readFileSync(file)) as StoredTask;
    if (stored?.format !== FORMAT || typeof stored.dirs !== 'string') return undefined;
    return { dirs: stored.dirs === '' ? [] : stored.dirs.split('\0'), twins: stored.twins, pages: stored.pages };
  } catch {
    return undefined;
  }
}

/**
 * Keeps `task` (digest `digest`) as the task of `outDir`, in place of any other; with no task, keeps none. Never
 * fails the build: without it the next build takes stock once its plan is made.
 */
export function keepStockTask(cacheDir: string, outDir: string, task?: { plan: PlannedStock; digest: string }): void {
  const { dir, prefix } = place(cacheDir, outDir);
  const name = task === undefined ? undefined : `${prefix}${task.digest}.bin`;
  try {
    if (task !== undefined && name !== undefined) {
      const stored: StoredTask = { format: FORMAT, dirs: task.plan.dirs.join('\0'), twins: task.plan.twins, pages: task.plan.pages };
      if (!writeCacheFile(path.join(dir, name), serialize(stored))) return;
    }
    for (const n of readdirSync(dir)) if (n.startsWith(prefix) && n.endsWith('.bin') && n !== name) unlinkSync(path.join(dir, n));
  } catch {
    // none kept, or a folder that cannot be listed: the next build takes stock once its plan is made
  }
}
