/**
 * Output stamps: what a build records about each page file it leaves, so that
 * a later build writing into the same folder again (the spare, see atomic.ts)
 * can tell an unchanged page from the file's metadata and the new page's hash,
 * without reading the file back.
 *
 * Why: the machines here page out file cache that nobody touched for a
 * minute (the kernel's DAMON `pageout` scheme), so by the time a large
 * catalogue is rebuilt its previous output is on disk only, and reading every
 * page back to compare it is most of a render thread's time; a stat and a
 * hash take a fraction of that (docs/PERFORMANCE.md, "Output stamps").
 *
 * A stamp is the file's device, inode, size, modification and change times
 * (nanoseconds) and the sha1 of its bytes. The change time cannot be set from
 * user space and moves with every write, link or rename, so a file edited
 * after its stamp was taken (even with its modification time put back) no
 * longer matches it and is written anew. Git's index trusts the same fields.
 *
 * The stamps of a folder are kept in the cache folder, not in the output (a
 * host would publish them), under the folder's device and inode, which its
 * renames (output → spare → temporary folder → output) keep.
 */
import { hash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeSync, type BigIntStats } from 'node:fs';
import path from 'node:path';

const HEADER = 'site-output-stamps 1';
/** Stamp files kept in the cache: the output and its spare of a few projects or output folders. */
const KEEP = 16;

/**
 * sha1 of a page's bytes, as a stamp names it: 96 of its bits, which is
 * plenty to tell two versions of one page apart, and short, as the build
 * holds a stamp per page (load/read.ts's digestOf, the full hex sha1, names
 * data files).
 */
export function pageDigest(bytes: Uint8Array): string {
  return hash('sha1', bytes, 'base64url').slice(0, 16);
}

/** The fields of a (bigint) stat that a stamp names. */
export type StatOfFile = Pick<BigIntStats, 'dev' | 'ino' | 'size' | 'mtimeNs' | 'ctimeNs'>;

/** A file's (or folder's) device, inode, size, modification and change times, in base 36 to keep it short: the stat part of a stamp. */
export function statStamp(stat: StatOfFile): string {
  return `${stat.dev.toString(36)}.${stat.ino.toString(36)}.${stat.size.toString(36)}.${stat.mtimeNs.toString(36)}.${stat.ctimeNs.toString(36)}`;
}

/** The stamp of a file whose stat is `stat` and whose bytes hash to `digest`. */
export function stampOf(stat: StatOfFile, digest: string): string {
  return `${statStamp(stat)}.${digest}`;
}

/** The page digest a stamp names (its last field). */
export function digestOfStamp(stamp: string): string {
  return stamp.slice(stamp.lastIndexOf('.') + 1);
}

/** The stat part of a stamp (statStamp): all but its last field. */
export function statOfStamp(stamp: string): string {
  return stamp.slice(0, stamp.lastIndexOf('.'));
}

/** Where the stamps of `folder` are kept; undefined when the folder is not there. */
function stampsFile(cacheDir: string, folder: string): string | undefined {
  const stat = statSync(folder, { bigint: true, throwIfNoEntry: false });
  return stat?.isDirectory() ? path.join(cacheDir, 'outputs', `${stat.dev}-${stat.ino}.tsv`) : undefined;
}

/**
 * The stamps the last build that left `folder` recorded for its pages, by
 * file (relative to the folder), and forgets them: the build about to write
 * into the folder changes its files, and if it stops half way no stamp may
 * describe them. Empty when there are none (or they cannot be read).
 */
export function takeStamps(cacheDir: string, folder: string): Map<string, string> {
  const stamps = new Map<string, string>();
  const file = stampsFile(cacheDir, folder);
  if (file === undefined) return stamps;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
    unlinkSync(file);
  } catch {
    return stamps;
  }
  const lines = text.split('\n');
  if (lines[0] !== HEADER) return stamps;
  for (let i = 1; i < lines.length; i++) {
    const tab = lines[i].indexOf('\t');
    if (tab > 0) stamps.set(lines[i].slice(0, tab), lines[i].slice(tab + 1));
  }
  return stamps;
}

/**
 * Records the stamps of the pages a build writes into `folder` as they come
 * (the build holds none of them), then, once the folder is the build's
 * output, keeps the record under its name (`keep`), replacing any earlier
 * one, and drops the oldest records past KEEP. A build that fails `drop`s
 * it. Never fails the build: without its stamps the next build reads the
 * pages back instead.
 */
export function stampRecorder(cacheDir: string, folder: string): { add(file: string, stamp: string): void; keep(): void; drop(): void } {
  let target: string | undefined;
  let tmp: string | undefined;
  let fd: number | undefined;
  try {
    target = stampsFile(cacheDir, folder);
    if (target !== undefined) {
      mkdirSync(path.dirname(target), { recursive: true });
      tmp = `${target}.${process.pid}.tmp`;
      fd = openSync(tmp, 'w');
      writeSync(fd, HEADER + '\n');
    }
  } catch {
    fd = undefined;
  }
  /** Lines not written yet: one write per 64 KB, not per page. */
  let pending = '';
  const flush = (): boolean => {
    if (fd === undefined) return false;
    try {
      if (pending !== '') writeSync(fd, pending);
      pending = '';
      return true;
    } catch {
      close();
      rmSync(tmp!, { force: true });
      return false;
    }
  };
  const close = (): boolean => {
    if (fd === undefined) return false;
    try {
      closeSync(fd);
      return true;
    } catch {
      return false;
    } finally {
      fd = undefined;
    }
  };
  return {
    add(file, stamp) {
      if (fd === undefined) return;
      pending += `${file}\t${stamp}\n`;
      if (pending.length >= 65_536) flush();
    },
    keep() {
      if (!flush() || !close()) return;
      try {
        renameSync(tmp!, target!);
        prune(path.dirname(target!));
      } catch {
        rmSync(tmp!, { force: true });
      }
    },
    drop() {
      close();
      if (tmp !== undefined) rmSync(tmp, { force: true });
    },
  };
}

function prune(dir: string): void {
  const records = readdirSync(dir)
    .filter((n) => n.endsWith('.tsv'))
    .map((n) => ({ file: path.join(dir, n), mtime: statSync(path.join(dir, n)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { file } of records.slice(KEEP)) unlinkSync(file);
}
