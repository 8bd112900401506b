/**
 * The stats of a recycled folder's pages, taken with its stock (stock.ts) by
 * the thread that lists it: a large incremental build's take-over then
 * compares each page's stamp with the stat taken there rather than with an
 * lstat of its own on the main thread, which at 100,000 routes was two
 * lstats a page and most of the take-over (docs/PERFORMANCE.md, "The spare's
 * pages stat-ed with its stock").
 *
 * A stat taken seconds before the take-over vouches for the file as one taken
 * at the take-over does: between the two, no writer of this build touches a
 * page of the folder (the stats are taken last by the one thread that takes
 * the whole stock, once it has made the folders, and a page's take-over
 * writes only its own file and twin, see reuse.ts), and a
 * file changed by another process at any moment of a build is no more seen
 * by the one than by the other. The stamp's change time still moves with
 * every write, link or rename, so a page edited by hand since the build that
 * left it is written anew either way.
 */
import type { BigIntStats } from 'node:fs';
import { plainFile, type SeenPage } from './page-file.js';
import { insideRoot, twinFileOf } from './paths.js';

/** The pages whose stats to take, in the plan's order: as one string and one array, which a thread receives as two copies rather than 100,000 strings. */
export interface PagesToStat {
  /** Each page's file, relative with forward slashes, joined by NUL (which no path holds). */
  files: string;
  /** 1 where the page has a twin (twinFileOf), else 0. */
  twins: Uint8Array;
}

/** The pages of `planned` (in order) as statPages takes them. */
export function pagesToStat(planned: ReadonlyArray<{ file: string; twin?: boolean }>): PagesToStat {
  return { files: planned.map((p) => p.file).join('\0'), twins: Uint8Array.from(planned, (p) => (p.twin === true ? 1 : 0)) };
}

/** Per page, its file's stat (five numbers: device, inode, size, modification and change times in ns) and its twin's device and inode. */
const FIELDS = 7;
const FILE = 1;
const TWIN = 2;

/** The stats taken of the pages, `FIELDS` values each in the plan's order, and which were plain files. */
export interface PageStatsTaken {
  values: BigInt64Array;
  /** FILE where the page's file is a plain file, TWIN where its twin is. */
  found: Uint8Array;
}

/** Takes the stats of `pages` in `root`. */
export function statPages(root: string, pages: PagesToStat): PageStatsTaken {
  const files = pages.files === '' ? [] : pages.files.split('\0');
  const values = new BigInt64Array(FIELDS * files.length);
  const found = new Uint8Array(files.length);
  files.forEach((file, i) => {
    let stat: BigIntStats | undefined;
    let twin: BigIntStats | undefined;
    try {
      stat = plainFile(insideRoot(root, file));
      const twinFile = stat !== undefined && pages.twins[i] === 1 ? twinFileOf(file) : null;
      if (twinFile !== null) twin = plainFile(insideRoot(root, twinFile));
    } catch {
      // A path no lstat can take (a folder on the way is a file): the take-over finds the same and renders the page.
    }
    if (stat === undefined) return;
    const at = FIELDS * i;
    found[i] = FILE;
    values[at] = stat.dev;
    values[at + 1] = stat.ino;
    values[at + 2] = stat.size;
    values[at + 3] = stat.mtimeNs;
    values[at + 4] = stat.ctimeNs;
    if (twin === undefined) return;
    found[i] |= TWIN;
    values[at + 5] = twin.dev;
    values[at + 6] = twin.ino;
  });
  return { values, found };
}

/** Page `index`'s stats (its index in the plan); undefined when none were taken for it. */
export function seenPage({ values, found }: PageStatsTaken, index: number): SeenPage | undefined {
  if (index >= found.length) return undefined;
  const at = FIELDS * index;
  const page: SeenPage = {};
  if ((found[index] & FILE) !== 0) page.file = { dev: values[at], ino: values[at + 1], size: values[at + 2], mtimeNs: values[at + 3], ctimeNs: values[at + 4] };
  if ((found[index] & TWIN) !== 0) page.twin = { dev: values[at + 5], ino: values[at + 6] };
  return page;
}
