/**
 * Clearing the way in an output folder made from the spare (atomic.ts). The
 * spare is a cache of an earlier build's output, whose routes may have had
 * other shapes: a file may stand where this build needs a folder (the twin
 * `x.html` of an old route `/x`, where a route `/x.html` now needs its
 * folder) or a folder where it needs a file (the folder of an old route
 * `/x.html`, where the page of a route `/x` now needs its twin). Whatever is
 * in the way goes; nothing in the spare can make a build fail.
 *
 * Writers call it only when a write or a mkdir failed, then try once more:
 * the common case costs nothing.
 */
import { lstatSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * Makes room under `root` for a file or a folder at `rel` (relative, forward
 * slashes, already known to stay inside `root`): every folder on the way
 * that is not a folder, and the place itself when it holds the other kind,
 * is removed (a symbolic link as well, never followed). Says whether
 * anything was removed.
 */
export function clearWay(root: string, rel: string, want: 'file' | 'folder'): boolean {
  const segments = rel.split('/');
  let removed = false;
  for (let i = 1; i <= segments.length; i++) {
    const at = path.join(root, ...segments.slice(0, i));
    // Top down, stopping at the first thing removed: below a folder, never below a file.
    const found = lstatSync(at, { throwIfNoEntry: false });
    if (found === undefined) break;
    const folder = i < segments.length || want === 'folder';
    if (folder && !found.isDirectory()) {
      // Gone already: another thread cleared it first.
      rmSync(at, { force: true });
      return true;
    }
    if (!folder && found.isDirectory()) {
      rmSync(at, { recursive: true, force: true });
      removed = true;
    }
  }
  return removed;
}
