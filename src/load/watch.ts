/**
 * A folder watched for changes, reported in batches: an editor's save is
 * often several events (write, rename, chmod), and a checkout is hundreds.
 * Node's recursive fs.watch covers Linux since Node 20 (inotify on each
 * folder, new folders included), macOS and Windows.
 */
import { type FSWatcher, watch as fsWatch } from 'node:fs';
import path from 'node:path';
import { isHiddenName } from './hidden.js';

export interface TreeWatcher {
  close(): void;
}

/** What watchTree needs of `fs.watch`; tests pass one that fails. */
export type WatchFunction = (
  dir: string,
  options: { recursive: true; persistent: boolean },
  listener: (event: string, name: string | Buffer | null) => void,
) => FSWatcher;

export interface WatchTreeOptions {
  /** Keep the process running by itself (`site build --watch` has nothing else that does; `site dev` has its server). */
  persistent?: boolean;
  /**
   * Called when part of the tree cannot be watched (ENOSPC: the system's limit of inotify watches, which Node's
   * recursive watch on Linux spends one per file; EMFILE): saves there would go unseen. A file or folder that
   * went away while being watched (ENOENT, ENOTDIR) is not such a failure: its removal is a change like another.
   */
  onError?: (err: NodeJS.ErrnoException) => void;
  watch?: WatchFunction;
}

/** A watcher's error that only says a file or folder went away while it was being watched. */
const isGone = (err: NodeJS.ErrnoException) => err.code === 'ENOENT' || err.code === 'ENOTDIR';

/**
 * Calls `onBatch` with the absolute files changed under `dir` once no event
 * came for `debounceMs`; `accept` filters the files first.
 */
export function watchTree(
  dir: string,
  debounceMs: number,
  accept: (file: string) => boolean,
  onBatch: (files: string[]) => void,
  { persistent = false, onError, watch = fsWatch as WatchFunction }: WatchTreeOptions = {},
): TreeWatcher {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const files = [...pending].sort();
    pending = new Set();
    if (files.length > 0) onBatch(files);
  };
  const failed = (err: NodeJS.ErrnoException) => {
    if (!isGone(err)) onError?.(err);
  };
  let watcher: FSWatcher;
  try {
    watcher = watch(dir, { recursive: true, persistent }, (_event, name) => {
      // A null name (an overflowed queue) is a change somewhere: the folder itself stands for it.
      const file = name === null ? dir : path.join(dir, name.toString());
      if (!accept(file)) return;
      pending.add(file);
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, debounceMs);
    });
  } catch (err) {
    // Node's recursive watch walks the tree as it starts, and a limit reached there is thrown rather than emitted.
    // A folder gone is thrown to the caller, which follows its folder (see watchBuilds).
    if (isGone(err as NodeJS.ErrnoException) || onError === undefined) throw err;
    onError(err as NodeJS.ErrnoException);
    return { close: () => undefined };
  }
  watcher.on('error', failed);
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}

/** What a user reads when part of `dir` cannot be watched (WatchTreeOptions.onError), and what to do about it. */
export function watchFailure(dir: string, err: NodeJS.ErrnoException): string {
  const why =
    err.code === 'ENOSPC'
      ? "the system's limit of file watches is reached (Node watches each file on Linux: raise fs.inotify.max_user_watches, e.g. `sudo sysctl fs.inotify.max_user_watches=524288`)"
      : err.code === 'EMFILE'
        ? 'too many files are open (raise the limit, e.g. `ulimit -n 65536`)'
        : err.message;
  return `cannot watch every file under ${dir}: ${why}. Saves there would go unseen.`;
}

/** Names an editor writes beside the file it saves (swap, backup, lock files), and dot-files. */
export function isEditorNoise(file: string): boolean {
  const base = path.basename(file);
  return isHiddenName(base) || base.endsWith('~') || /\.(swp|swx|tmp)$/.test(base) || /^#.*#$/.test(base);
}
