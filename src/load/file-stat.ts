/**
 * When a data file need not be read again: its stat (device, inode, size,
 * modification and change times, in nanoseconds) is the one recorded when
 * its bytes were last read and hashed, and that record was not "racily
 * clean". Git's index trusts stats the same way (and so do the build's page
 * stamps, src/emit/output/stamps.ts). The change time is part of it because
 * no program can set it: `touch -d`, `cp -p`, rsync and checkouts can put an
 * old modification time back on new bytes, never an old change time.
 *
 * Racily clean: a file written within the timestamp granularity of the
 * moment it was read could be written again with the same times (a coarse
 * clock's tick, a second on some file systems, two on FAT). So a stat is
 * recorded as trustworthy only when both its times are older than the read
 * by RACY_NS; a file newer than that is read and hashed again next time,
 * and trusted once it has aged.
 */
import { fstatSync, statSync, type BigIntStats } from 'node:fs';

export interface FileStat {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** What was known of a file's bytes when its stat was recorded. */
export interface KnownFile {
  stat: FileStat;
  size: number;
  digest: string;
  /** For an image: the pixel size and whether it is a scripted SVG, as read with the digest. */
  width?: number;
  height?: number;
  scripted?: true;
}

/** Larger than any file system's timestamp granularity (FAT's two seconds) and a coarse clock's lag. */
export const RACY_NS = 2_000_000_000n;

/** The wall clock in nanoseconds, as file times count: taken before the first file is looked at. */
export function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

function statFields(st: BigIntStats): FileStat {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
}

/** The stat of an open regular file (taken before its bytes are read), undefined for anything else. */
export function fileStatOf(fd: number): FileStat | undefined {
  const st = fstatSync(fd, { bigint: true });
  return st.isFile() ? statFields(st) : undefined;
}

/** The stat of a path, following links as opening it does; undefined when it cannot be had. */
export function pathStat(path: string): FileStat | undefined {
  try {
    const st = statSync(path, { bigint: true });
    return st.isFile() ? statFields(st) : undefined;
  } catch {
    return undefined;
  }
}

export function sameStat(a: FileStat, b: FileStat): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** Whether a stat taken at `readAt` (or later) can vouch for the bytes read with it in a later run (see above). */
export function isSettled(stat: FileStat, readAt: bigint): boolean {
  return stat.mtimeNs + RACY_NS < readAt && stat.ctimeNs + RACY_NS < readAt;
}

/**
 * A folder itself, not only its name: device, inode and birth time. A folder deleted and made again at once
 * often gets the same inode number back (ext4 does), but not the same birth time (0 where the file system
 * keeps none). Undefined when there is no folder at `folder`.
 */
export function folderIdentity(folder: string): string | undefined {
  const stat = statSync(folder, { bigint: true, throwIfNoEntry: false });
  return stat?.isDirectory() ? `${stat.dev}:${stat.ino}:${stat.birthtimeNs}` : undefined;
}
