/**
 * `site build --watch`: the build, then the build again whenever a file under
 * the data folder changes, in the same process, until closed.
 *
 * Each build is an ordinary `buildSite` call: the same check, build record,
 * temporary folder and atomic swap, so it writes the same bytes as a fresh
 * `site build` process would. It is only sooner: the modules are imported,
 * the code is compiled and the search thread is up; the last check's results
 * are in memory, not decoded again; a large build's heap is collected less
 * often (BuildMemory); after its first build, and after one that
 * rendered many pages, the spare gets the pages it lacks once no save has come
 * for a second (incremental/spare.ts), not the next build's take-over; a build that saves started
 * does not first compare the output with the last build's; and the build
 * cache is written once the build has been reported (onBuild's promise has
 * settled: a report a pipe takes in parts is out in full), before the next
 * starts.
 *
 * Builds never overlap. Changes that arrive while one runs are gathered and
 * start one more build when it ends; the watcher is up before the first build,
 * so that nothing saved during it is missed.
 */
import path from 'node:path';
import { defaultCacheDir } from '../load/cache.js';
import { folderIdentity } from '../load/file-stat.js';
import { isHiddenPath } from '../load/hidden.js';
import { isEditorNoise, type TreeWatcher, watchFailure, watchTree } from '../load/watch.js';
import { refreshSpare, spareWorthRefreshing } from './incremental/spare.js';
import { type BuildMemory, buildSite } from './index.js';
import { inOutputFolders } from './output/atomic.js';
import type { BuildOptions, BuildResult } from './types.js';

export { watchFailure };

/** Quiet time after the last event of a save before building: an editor's save is several events. */
export const WATCH_DEBOUNCE_MS = 30;

/**
 * Quiet after a build before the spare is filled (incremental/spare.ts): a save that follows at once, as an
 * editor's next often does, does not wait for the output's record to be read (about a second at 100,000 routes).
 */
const SPARE_QUIET_MS = 1000;

/** How often the data folder's identity is looked at (see folderIdentity). */
const FOLDER_CHECK_MS = 500;

/** One build of the watch: the files whose change started it (none for the first), and its result or else what it threw. */
export type WatchedBuild = { changed: readonly string[] } & ({ result: BuildResult } | { result?: undefined; error: unknown });

export interface BuildWatch {
  /** Stops watching, then waits for the build under way, if any: its swap completes or never starts. */
  close(): Promise<void>;
}

/** Whether `file` is in `folder` or is `folder`. */
const within = (folder: string, file: string) => file === folder || file.startsWith(folder + path.sep);

export interface WatchBuildsOptions {
  debounceMs?: number;
  /** Part of the data folder cannot be watched (see WatchTreeOptions.onError): saves there would go unseen. */
  onWatchError?: (err: NodeJS.ErrnoException) => void;
}

export function watchBuilds(
  options: BuildOptions,
  onBuild: (build: WatchedBuild) => void | Promise<void>,
  { debounceMs = WATCH_DEBOUNCE_MS, onWatchError }: WatchBuildsOptions = {},
): BuildWatch {
  const dataDir = path.resolve(options.dataDir);
  const hidden = (file: string) => isHiddenPath(path.relative(dataDir, file), path.sep);
  // An output or reports folder inside the data folder would otherwise start a build with every build.
  const reports = path.resolve(options.reportsDir);
  const written = (file: string) => inOutputFolders(options.outDir, file) || within(reports, file);
  const accept = (file: string) => !isEditorNoise(file) && !hidden(file) && !written(file);
  // The check's results, from each build to the next (see BuildMemory).
  const memory: BuildMemory = { check: {} };
  let running: Promise<void> | null = null;
  let waiting: Set<string> | null = null;
  let closed = false;

  /** Starts one build for the saves gathered while something ran, if any. */
  const runWaiting = () => {
    if (closed || running !== null || waiting === null) return;
    const next = [...waiting].sort();
    waiting = null;
    run(next);
  };

  // Where the builds keep their cache (as buildSite finds it); none under --no-cache.
  const cacheDir = options.cache === false ? undefined : defaultCacheDir();
  let refreshTimer: NodeJS.Timeout | undefined;
  /**
   * After SPARE_QUIET_MS without a save, the spare gets the pages it lacks (incremental/spare.ts): after the first
   * build (a `site build` before the watch may have rendered every page), and after any that rendered many. It runs
   * as a build does: a save waits for it, and stops it between two chunks of pages.
   */
  const refreshLater = (result: BuildResult | undefined, first: boolean) => {
    clearTimeout(refreshTimer);
    if (cacheDir === undefined || result?.ok !== true) return;
    if (!first && !spareWorthRefreshing(result.rendered, result.rendered + result.reused)) return;
    refreshTimer = setTimeout(() => {
      if (closed || running !== null) return;
      running = refreshSpare(cacheDir, options.outDir, () => closed || waiting !== null)
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => {
          running = null;
          runWaiting();
        });
    }, SPARE_QUIET_MS);
  };

  const run = (changed: readonly string[]) => {
    clearTimeout(refreshTimer);
    // The cache's writes wait until the build is reported (BuildOptions.later); the next build, after them.
    const writes: Array<() => void> = [];
    let built: BuildResult | undefined;
    running = buildSite({ ...options, saved: changed.length > 0, later: (write) => void writes.push(write) }, memory)
      .then(
        (result) => {
          built = result;
          return onBuild({ changed, result });
        },
        (error: unknown) => onBuild({ changed, error }),
      )
      .then(() => new Promise(setImmediate))
      .then(() => {
        for (const write of writes) {
          try {
            write();
          } catch {
            // The cache only saves time: without the entry, the next build does more.
          }
        }
      })
      .finally(() => {
        running = null;
        if (closed) return;
        // A build that found the folder gone: the folder is followed at once, not at the next look.
        followFolder();
        settleWatch();
        refreshLater(built, changed.length === 0);
        runWaiting();
      });
  };

  const onBatch = (files: string[]) => {
    if (running === null) return run(files);
    waiting ??= new Set();
    for (const file of files) waiting.add(file);
  };
  // A folder deleted, or replaced by another (moved away and a copy put in its place), takes its watches with it:
  // its identity is looked at every FOLDER_CHECK_MS and after every build, and a new folder there is watched and
  // built as a change.
  const watchData = () => watchTree(dataDir, debounceMs, accept, onBatch, { persistent: true, onError: onWatchError });
  let watched = folderIdentity(dataDir);
  let watcher: TreeWatcher | null = watchData();
  // A new folder is watched as soon as it is seen, perhaps while it is still being filled: Node's recursive watch
  // on Linux adds a subfolder by walking the tree, and a subfolder made during that walk can be missed. So once
  // the build the new folder started has ended, the folder is watched afresh and built once more.
  let fresh = false;
  /** Watches the folder there now (none when it is gone), and builds it: a folder gone is built too, and the build reports it missing. */
  const reattach = () => {
    const old = watcher;
    watcher = watched === undefined ? null : watchData();
    old?.close();
    onBatch([dataDir]);
  };
  const followFolder = () => {
    const now = folderIdentity(dataDir);
    if (now === watched) return;
    watched = now;
    fresh = now !== undefined;
    reattach();
  };
  const settleWatch = () => {
    if (!fresh || running !== null || folderIdentity(dataDir) !== watched) return;
    fresh = false;
    reattach();
  };
  const folderCheck = setInterval(followFolder, FOLDER_CHECK_MS);
  run([]);

  return {
    async close() {
      closed = true;
      clearInterval(folderCheck);
      clearTimeout(refreshTimer);
      watcher?.close();
      while (running !== null) await running;
    },
  };
}
