/**
 * The data folder's watch (src/load/watch.ts): a part of the tree it cannot watch is reported, never passed over
 * in silence (saves there would go unseen); a file or folder that went away while watched is only a change.
 */
import { EventEmitter } from 'node:events';
import type { FSWatcher } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type WatchFunction, watchFailure, watchTree } from '../../src/load/watch.js';

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: failed`), { code });

/** A stand-in for fs.watch: the watcher it returns, to emit on; or an error thrown as the watch starts. */
function fakeWatch(thrown?: NodeJS.ErrnoException) {
  const made: EventEmitter[] = [];
  const watch: WatchFunction = () => {
    if (thrown) throw thrown;
    const w = Object.assign(new EventEmitter(), { close: () => undefined });
    made.push(w);
    return w as unknown as FSWatcher;
  };
  return { watch, made };
}

describe('watchTree', () => {
  it('reports a part of the tree it cannot watch, thrown as the watch starts or emitted later; not a file gone away', () => {
    const seen: string[] = [];
    const onError = (err: NodeJS.ErrnoException) => seen.push(String(err.code));
    const later = fakeWatch();
    watchTree(
      '/data',
      30,
      () => true,
      () => undefined,
      { onError, watch: later.watch },
    );
    later.made[0].emit('error', errno('ENOENT'));
    later.made[0].emit('error', errno('ENOTDIR'));
    expect(seen).toEqual([]);
    later.made[0].emit('error', errno('ENOSPC'));
    expect(seen).toEqual(['ENOSPC']);
    const atStart = fakeWatch(errno('EMFILE'));
    const watcher = watchTree(
      '/data',
      30,
      () => true,
      () => undefined,
      { onError, watch: atStart.watch },
    );
    expect(seen).toEqual(['ENOSPC', 'EMFILE']);
    expect(() => watcher.close()).not.toThrow();
  });

  it('tells what to raise for each limit', () => {
    expect(watchFailure('/site/data', errno('ENOSPC'))).toMatch(
      /^cannot watch every file under \/site\/data: .*fs\.inotify\.max_user_watches.*Saves there would go unseen\.$/,
    );
    expect(watchFailure('/site/data', errno('EMFILE'))).toContain('ulimit -n');
  });

  it('still reports the saves under a real folder in batches', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'site-watch-'));
    try {
      const batches: string[][] = [];
      const errors: unknown[] = [];
      const watcher = watchTree(
        dir,
        30,
        () => true,
        (files) => batches.push(files),
        { onError: (err) => errors.push(err) },
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      writeFileSync(path.join(dir, 'a.json'), '{}');
      const deadline = Date.now() + 5000;
      while (batches.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      watcher.close();
      expect(batches.flat()).toContain(path.join(dir, 'a.json'));
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
