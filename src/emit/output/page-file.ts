/**
 * How a render thread writes an output file: synchronously, from the pieces
 * the page was assembled from, through two buffers the thread reuses from
 * file to file, so a page costs no page-sized allocation: memory traffic,
 * not the cores, is what render threads compete for.
 *
 * Synchronous, because the thread has nothing else to do meanwhile, and file
 * handles and thread-pool round trips cost more per file than rendering a
 * small page (docs/PERFORMANCE.md, "Page writes").
 */
import { closeSync, copyFileSync, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readSync, unlinkSync, writeFileSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { pageDigest, stampOf, type StatOfFile } from './stamps.js';

let encoded = Buffer.allocUnsafe(1 << 20);
let previous = Buffer.allocUnsafe(1 << 20);

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/**
 * The UTF-8 bytes of the pieces' concatenation, in this thread's reused
 * buffer: valid until the next call.
 */
export function encodePieces(pieces: readonly string[]): Buffer {
  let units = 0;
  for (const piece of pieces) units += piece.length;
  // UTF-8 takes at most three bytes per UTF-16 code unit (a surrogate pair: four for two).
  if (units * 3 > encoded.length) encoded = Buffer.allocUnsafe(Math.max(units * 3, encoded.length * 2));
  let length = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    // A pair split between two pieces would be encoded as two replacement characters: encode the whole instead.
    if (i < pieces.length - 1 && piece.length > 0 && isHighSurrogate(piece.charCodeAt(piece.length - 1))) {
      return encoded.subarray(0, encoded.write(pieces.join(''), 0));
    }
    length += encoded.write(piece, length);
  }
  return encoded.subarray(0, length);
}

/** What was found at a page's file and twin when its stats were taken with the folder's stock (see page-stats.ts). */
export interface SeenPage {
  /** The file's stat; undefined when no plain file was there. */
  file?: StatOfFile;
  /** The twin's device and inode; undefined when no plain file was there (or the page has no twin). */
  twin?: { dev: bigint; ino: bigint };
}

/**
 * The stat of the file last found holding the bytes (by sameAsOnDisk or by its
 * stamp): placeTwin compares a twin with it without another stat, and the
 * page's stamp is made from it.
 */
let onDisk: StatOfFile | undefined;

/**
 * Whether the file at `target` holds exactly `bytes`; null when there is no
 * such file (or something else than a file is there).
 */
function sameAsOnDisk(target: string, bytes: Buffer): boolean | null {
  let fd: number;
  try {
    fd = openSync(target, 'r');
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile()) return null;
    const size = Number(stat.size);
    if (size !== bytes.length) return false;
    if (size > previous.length) previous = Buffer.allocUnsafe(Math.max(size, previous.length * 2));
    let read = 0;
    while (read < size) {
      const n = readSync(fd, previous, read, size - read, read);
      if (n === 0) return false; // shorter than it said: it changed meanwhile
      read += n;
    }
    if (previous.compare(bytes, 0, bytes.length, 0, bytes.length) !== 0) return false;
    onDisk = stat;
    return true;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `pieces` (concatenated) to `target`; returns the file's size.
 *
 * Unless `fresh` says the folder cannot hold the file, a file already there
 * (an output folder made from the spare, see atomic.ts) is read first and
 * left alone when it holds these bytes. One that differs is unlinked, so that
 * the write creates a new file: on ext4, truncating and rewriting a file makes
 * the kernel flush it at close (its auto_da_alloc guard against empty files
 * after a crash), which made rewriting the shipped site's pages in place ten
 * times slower than writing new ones. Unlinking first also means that no
 * write ever goes through a hard link into a copy kept elsewhere.
 *
 * With `twin` (an absolute path, see twinFileOf in paths.ts), the page also
 * gets that second name, a hard link to the same file (a copy where the file
 * system has no hard links).
 */
export function writeOutputFile(target: string, pieces: readonly string[], fresh = false, twin?: string): number {
  return write(target, encodePieces(pieces), fresh, twin, null).bytes;
}

/** What writing a page did: its size, its stamp when asked for, and whether the file there was kept, and how it was found to hold the bytes. */
export interface PageWrite {
  bytes: number;
  stamp?: string;
  kept?: 'stamp' | 'read';
}

/**
 * writeOutputFile that also returns the file's stamp (output-stamps.ts).
 * Given the stamp the file had when a build left it (`previous`), a file
 * still matching it, hash of these bytes included, is left alone without
 * being read; one that does not is replaced. Without it, the file is read
 * and compared as writeOutputFile does. With `stamp` false (no cache folder
 * to keep stamps in), nothing is hashed or stamped.
 */
export function writeStampedOutputFile(target: string, pieces: readonly string[], fresh = false, twin?: string, previous?: string, stamp = true): PageWrite {
  return write(target, encodePieces(pieces), fresh, twin, stamp ? { previous } : null);
}

/**
 * Whether the file at `target` is one whose stamp is one of `stamps` (whose
 * bytes hash to `digest`), as a build that left it recorded; with `twin`,
 * linked there too. Nothing is read or written but the twin's link. With
 * `seen` (the page's stats taken with the folder's stock, see page-stats.ts),
 * the file and its twin are judged by those rather than by an lstat each.
 */
export function keepStamped(target: string, digest: string, stamps: ReadonlyArray<string | undefined>, twin?: string, seen?: SeenPage): PageWrite | undefined {
  const found = seen !== undefined ? seen.file : plainFile(target);
  if (found === undefined) return undefined;
  const stamp = stampOf(found, digest);
  if (!stamps.includes(stamp)) return undefined;
  onDisk = found;
  const relinked = twin !== undefined && placeTwin(target, twin, true, seen);
  return { bytes: Number(found.size), stamp: relinked ? stampOf(lstatSync(target, { bigint: true }), digest) : stamp, kept: 'stamp' };
}

/** writeStampedOutputFile of bytes already encoded (a page taken over from another output folder). */
export function writeStampedBytes(target: string, bytes: Buffer, fresh: boolean, twin?: string, previous?: string): PageWrite {
  return write(target, bytes, fresh, twin, { previous });
}

function write(target: string, bytes: Buffer, fresh: boolean, twin: string | undefined, stamping: { previous?: string } | null): PageWrite {
  const digest = stamping === null ? '' : pageDigest(bytes);
  let kept: PageWrite['kept'];
  if (!fresh && stamping?.previous !== undefined) {
    const found = lstatSync(target, { bigint: true, throwIfNoEntry: false });
    if (found?.isFile() && stampOf(found, digest) === stamping.previous) {
      kept = 'stamp';
      onDisk = found;
    } else if (found?.isFile()) unlinkSync(target);
  } else if (!fresh) {
    const same = sameAsOnDisk(target, bytes);
    if (same === true) kept = 'read';
    else if (same === false) unlinkSync(target);
  }
  const unchanged = kept !== undefined;
  if (!unchanged) {
    try {
      writeFileSync(target, bytes);
    } catch (err) {
      // The build creates every page's folder up front (the 'prepare' task); a folder not made yet is made here.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, bytes);
    }
  }
  const relinked = twin !== undefined && placeTwin(target, twin, unchanged);
  if (stamping === null) return { bytes: bytes.length, kept };
  // A new file, or a new link to it, moved its change time: stamped as it is now.
  const stat = unchanged && !relinked ? onDisk! : lstatSync(target, { bigint: true });
  return { bytes: bytes.length, stamp: stampOf(stat, digest), kept };
}

/** Errors of a file system (or a mount) that has no hard links, or no more of them for this file, or none between these two folders. */
const NO_HARD_LINK = new Set(['EPERM', 'EXDEV', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/**
 * Makes `name` another name of the file `existing`: a hard link, or a copy
 * where the file system has none (whatever was at `name` then unlinked
 * first, never written through). Any other error is thrown (EEXIST too).
 */
export function linkOrCopy(existing: string, name: string): void {
  try {
    linkSync(existing, name);
  } catch (err) {
    if (!NO_HARD_LINK.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
    unlinkIfThere(name);
    copyFileSync(existing, name);
  }
}

/**
 * Makes `twin` name the same file as `target`. An unchanged page's twin is
 * usually its link already (the build that wrote the page linked it): one
 * lstat says so, and nothing is written. Otherwise whatever is at `twin` is
 * replaced, never written through. Says whether anything was done.
 */
function placeTwin(target: string, twin: string, unchanged: boolean, seen?: SeenPage): boolean {
  if (unchanged) {
    const other = seen !== undefined ? seen.twin : plainFile(twin);
    if (other !== undefined && other.ino === onDisk!.ino && other.dev === onDisk!.dev) return false;
  }
  try {
    linkOrCopy(target, twin);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    unlinkIfThere(twin);
    linkOrCopy(target, twin);
  }
  return true;
}

/** lstat of a plain file at `file`; undefined when there is none (nothing there, or something else). */
export function plainFile(file: string): BigIntStats | undefined {
  const stat = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  return stat?.isFile() === true ? stat : undefined;
}

/** Unlinks `file` when there is one. */
export function unlinkIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
