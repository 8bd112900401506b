/**
 * The files the main thread writes into the output folder besides the pages:
 * the search index, the sitemap and its parts, robots.txt, the logo and the
 * browser bundle's assets. They are written concurrently, several stages at
 * once (the search index and the assets while the pages render), through one
 * p-limit queue per build, so a large index or a sitemap split into parts
 * never opens more than SITE_WRITE_CONCURRENCY files at a time.
 *
 * Pages are not written here: each render thread writes its own pages one at
 * a time with synchronous calls (see page-file.ts for why), so the number
 * of threads bounds those writes.
 */
import { copyFile, mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { clearWay } from './clear-way.js';

/** A file to write, by its path relative to the output folder (forward slashes). */
export interface SiteFile {
  path: string;
  contents: string | Uint8Array;
}

/** Files open at once: enough to overlap the disk's latency, few enough for any file-descriptor limit. */
export const SITE_WRITE_CONCURRENCY = 8;

export interface SiteWriter {
  readonly outDir: string;
  /** Writes the files; resolves to their paths, in the order given. */
  write(files: readonly SiteFile[]): Promise<string[]>;
  /** Copies files from outside the output folder: `from` absolute, `path` relative to the output folder. */
  copy(files: ReadonlyArray<{ from: string; path: string }>): Promise<string[]>;
}

export function siteWriter(outDir: string, concurrency = SITE_WRITE_CONCURRENCY): SiteWriter {
  const limit = pLimit(concurrency);
  // Each folder is made once, however many files and stages write into it.
  const folders = new Map<string, Promise<unknown>>();
  const folder = (relative: string): Promise<unknown> => {
    const dir = path.posix.dirname(relative);
    let made = folders.get(dir);
    if (made === undefined) folders.set(dir, (made = dir === '.' ? Promise.resolve() : makeFolder(outDir, dir)));
    return made;
  };
  const each = async <T extends { path: string }>(files: readonly T[], io: (file: T) => Promise<void>): Promise<string[]> => {
    await Promise.all(
      files.map((f) =>
        limit(async () => {
          await folder(f.path);
          await io(f);
        }),
      ),
    );
    return files.map((f) => f.path);
  };
  return {
    outDir,
    write: (files) => each(files, async (f) => writeFile(await unlinked(outDir, f.path), f.contents)),
    copy: (files) => each(files, async (f) => copyFile(f.from, await unlinked(outDir, f.path))),
  };
}

/** mkdir -p of `dir` (relative) in the output folder, through whatever an earlier build left in the way (see clear-way.ts). */
async function makeFolder(outDir: string, dir: string): Promise<void> {
  const full = path.join(outDir, ...dir.split('/'));
  try {
    await mkdir(full, { recursive: true });
  } catch {
    // Tried again even when nothing was cleared: another folder's mkdir may have cleared the same file on the way.
    clearWay(outDir, dir, 'folder');
    await mkdir(full, { recursive: true });
  }
}

/**
 * The file at `relative` in the output folder, with whatever was there
 * removed: the output folder may be the previous build's (atomic.ts), and a
 * file there may be hard-linked to a copy kept elsewhere, which writing in
 * place would change too; a folder there is removed whole (see clear-way.ts).
 */
async function unlinked(outDir: string, relative: string): Promise<string> {
  const file = path.join(outDir, ...relative.split('/'));
  try {
    await unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && !clearWay(outDir, relative, 'file')) throw err;
  }
  return file;
}
