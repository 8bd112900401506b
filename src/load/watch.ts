/**
 * A folder watched for changes, reported in batches: an editor's save is
 * often several events (write, rename, chmod), and a checkout is hundreds.
 * Node's recursive fs.watch covers Linux since Node 20 (inotify on each
 * folder, new folders included), macOS and Windows.
 */
import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import { isHiddenName } from './hidden.js';

export interface TreeWatcher {
  close(): void;
}

/**
 * Calls `onBatch` with the absolute files changed under `dir` once no event
 * came for `debounceMs`; `accept` filters the files first. A `persistent`
 * watcher keeps the process running by itself (`site build --watch` has
 * nothing else that does; `site dev` has its server).
 */
export function watchTree(
  dir: string,
  debounceMs: number,
  accept: (file: string) => boolean,
  onBatch: (files: string[]) => void,
  persistent = false,
): TreeWatcher {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const files = [...pending].sort();
    pending = new Set();
    if (files.length > 0) onBatch(files);
  };
  const watcher: FSWatcher = watch(dir, { recursive: true, persistent }, (_event, name) => {
    // A null name (an overflowed queue) is a change somewhere: the folder itself stands for it.
    const file = name === null ? dir : path.join(dir, name.toString());
    if (!accept(file)) return;
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  });
  watcher.on('error', () => undefined);
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}

/** Names an editor writes beside the file it saves (swap, backup, lock files), and dot-files. */
export function isEditorNoise(file: string): boolean {
  const base = path.basename(file);
  return isHiddenName(base) || base.endsWith('~') || /\.(swp|swx|tmp)$/.test(base) || /^#.*#$/.test(base);
}
