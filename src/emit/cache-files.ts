/**
 * Files of the build cache: written beside their name and renamed, so a
 * concurrent build never reads half of one; the oldest pruned past a count.
 * Neither ever fails the build: a cache that cannot be written only costs the
 * next build the work it would have saved.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes `contents` to `file` atomically; says whether it was written. */
export function writeCacheFile(file: string, contents: string | Uint8Array): boolean {
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, contents);
    renameSync(tmp, file);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** Keeps the `keep` most recently modified files of `dir` whose names `match`, deletes the others. */
export function pruneCacheFiles(dir: string, keep: number, match: (name: string) => boolean): void {
  try {
    const files = readdirSync(dir)
      .filter(match)
      .map((n) => ({ file: path.join(dir, n), mtime: statSync(path.join(dir, n)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const { file } of files.slice(keep)) unlinkSync(file);
  } catch {
    // another build pruned meanwhile, or nothing to prune
  }
}

/**
 * The bytes kept in `file` (a name made from a hash of what decides them), or
 * on a miss the bytes `make` gives, kept there with at most `keep` files of
 * the folder with the same extension.
 */
export async function cachedBytes(file: string, keep: number, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  try {
    return readFileSync(file);
  } catch {
    // not made before
  }
  const bytes = await make();
  const ext = path.extname(file);
  if (writeCacheFile(file, bytes)) pruneCacheFiles(path.dirname(file), keep, (n) => n.endsWith(ext));
  return bytes;
}
