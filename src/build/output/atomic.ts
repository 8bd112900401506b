/**
 * Atomic output: the build writes into a temporary folder beside the output
 * and swaps it in with two renames only when everything succeeded.
 *
 * The output it replaces becomes the spare (`.dist-spare`), and the next
 * build writes into the spare rather than into a new folder: every page's
 * folder already exists, files are rewritten in place, and nothing is
 * deleted in bulk. On these disks creating a folder per page cost as much as
 * rendering it, and a large delete (of the old output) makes file creation
 * slow for minutes, right while the next build writes. Other leftovers are
 * deleted in a detached process.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

const tempPattern = (base: string) => new RegExp(`^\\.${escapeRegExp(base)}-(\\d+)-tmp$`);
const asidePattern = (base: string) => new RegExp(`^${escapeRegExp(base)}\\.old-\\d+-\\d+$`);

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `dist` → `.dist-<pid>-tmp` in the same parent folder (same file system, so rename is atomic). */
export function tempDirFor(outDir: string, pid = process.pid): string {
  const abs = path.resolve(outDir);
  return path.join(path.dirname(abs), `.${path.basename(abs)}-${pid}-tmp`);
}

/** `dist` → `.dist-spare`: the output a build replaced, kept for the next build to write into. */
export function spareDirFor(outDir: string): string {
  const abs = path.resolve(outDir);
  return path.join(path.dirname(abs), `.${path.basename(abs)}-spare`);
}

/** Creates a fresh, empty temporary folder for this process. */
export async function createTempDir(outDir: string): Promise<string> {
  const tmp = tempDirFor(outDir);
  if (existsSync(tmp)) await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  return tmp;
}

/** What a recycled temporary folder already holds, relative to it, with forward slashes. */
export interface Inventory {
  files: Set<string>;
  dirs: Set<string>;
}

/**
 * The temporary folder for this process: the spare renamed, when there is
 * one (see the module comment), else a new, empty folder. A recycled folder
 * must have its inventory taken (takeInventory) before anything is written
 * into it.
 */
export async function prepareTempDir(outDir: string): Promise<{ tmp: string; recycled: boolean }> {
  const tmp = tempDirFor(outDir);
  if (!existsSync(tmp)) {
    try {
      // Atomic: of two builds started at once, one gets the spare and the other starts afresh.
      await rename(spareDirFor(outDir), tmp);
      return { tmp, recycled: true };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return { tmp: await createTempDir(outDir), recycled: false };
}

/**
 * Which of `parts` threads takes an entry of the output folder (relative,
 * forward slashes) when the walk is shared (takeInventory's part): entries
 * one or two levels down (`knowledge`, `knowledge/what-is-curcumin`) by a
 * hash of those two levels, so that a folder of 70,000 pages is shared as
 * evenly as the whole; the top level, and everything with it, by part 0.
 */
export function ownerOf(rel: string, parts: number): number {
  if (parts <= 1) return 0;
  const first = rel.indexOf('/');
  if (first < 0) return 0;
  const second = rel.indexOf('/', first + 1);
  const key = second < 0 ? rel : rel.slice(0, second);
  // FNV-1a: the same owner in every thread, whatever order readdir lists in.
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % parts;
}

/**
 * What a recycled folder holds. Anything but plain folders and plain files
 * is removed on the way, so that writing into it can never go through a
 * symbolic link (to a file or a folder). Hard-linked files stay (a page and
 * its twin are one file): no writer ever writes into a file that is there,
 * each unlinks it first (output-file.ts, site-files.ts), so a copy linked
 * elsewhere keeps its bytes. Synchronous: the walk runs in render threads,
 * which have nothing else to do yet, and promises made it several times
 * slower.
 *
 * With `parts` above 1, `part` walks only what ownerOf gives it (every part
 * lists the top level and its folders, which are few); the union of all
 * parts' inventories is the whole folder's. Files `leaveOut` names are not
 * listed (the pages' twins, which their pages' writers replace: at 100,000
 * routes listing them cost 60 MB of the build's peak).
 */
export function takeInventory(root: string, part = 0, parts = 1, leaveOut?: (file: string) => boolean): Inventory {
  const into: Inventory = { files: new Set(), dirs: new Set() };
  const walk = (rel: string, depth: number): void => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      // Below the top level, a part walks only its own share (and the top level's folders, to find it).
      const mine = ownerOf(child, parts) === part;
      if (!mine && !(depth === 0 && entry.isDirectory())) continue;
      if (entry.isDirectory()) {
        if (mine) into.dirs.add(child);
        walk(child, depth + 1);
      } else if (entry.isFile()) {
        if (leaveOut?.(child) !== true) into.files.add(child);
      } else rmSync(path.join(root, child), { recursive: true, force: true });
    }
  };
  walk('', 0);
  return into;
}

/**
 * Makes a recycled folder hold exactly what this build wrote: files it did
 * not write go, and folders that hold none of its files go whole.
 */
export function removeUnwritten(tmp: string, inventory: Inventory, written: ReadonlySet<string>): number {
  const kept = new Set<string>();
  for (const file of written) {
    for (let dir = path.posix.dirname(file); dir !== '.' && !kept.has(dir); dir = path.posix.dirname(dir)) kept.add(dir);
  }
  let removed = 0;
  for (const file of inventory.files) {
    const dir = path.posix.dirname(file);
    if (written.has(file) || (dir !== '.' && !kept.has(dir))) continue;
    unlinkSync(path.join(tmp, file));
    removed++;
  }
  // Shallowest first: removing a folder removes what is under it, which is then skipped.
  for (const dir of [...inventory.dirs].sort()) {
    if (kept.has(dir) || !existsSync(path.join(tmp, dir))) continue;
    rmSync(path.join(tmp, dir), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** Keeps a replaced output as the spare for the next build; a second one (a spare is there already) is deleted. */
export async function keepAsSpare(aside: string, outDir: string): Promise<void> {
  const spare = spareDirFor(outDir);
  if (!existsSync(spare)) {
    try {
      await rename(aside, spare);
      return;
    } catch {
      // Another build made a spare meanwhile.
    }
  }
  removeInBackground([aside]);
}

/**
 * Puts `tmp` in place of `outDir`. Returns the folder the old output was
 * moved to (null when there was none); the caller deletes it later.
 */
export async function swapIn(tmp: string, outDir: string, now = Date.now()): Promise<string | null> {
  const out = path.resolve(outDir);
  let aside: string | null = null;
  if (existsSync(out)) {
    aside = `${out}.old-${now}-${process.pid}`;
    await rename(out, aside);
  }
  try {
    await rename(tmp, out);
  } catch (err) {
    // Put the previous site back: a failed swap must not leave the host without one.
    if (aside !== null) await rename(aside, out);
    throw err;
  }
  return aside;
}

/** Deletes folders in a detached process that outlives the CLI, so the build returns at once. */
export function removeInBackground(dirs: readonly string[]): void {
  if (dirs.length === 0) return;
  const script = 'const fs=require("node:fs");for(const d of process.argv.slice(1))fs.rmSync(d,{recursive:true,force:true});';
  const child = spawn(process.execPath, ['-e', script, ...dirs], { detached: true, stdio: 'ignore' });
  child.unref();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Leftovers of earlier builds beside `outDir`: temporary folders of processes
 * that no longer run (a crash or kill) and old outputs not yet deleted.
 */
export async function staleSiblings(outDir: string): Promise<string[]> {
  const out = path.resolve(outDir);
  const parent = path.dirname(out);
  const base = path.basename(out);
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return [];
  }
  const temp = tempPattern(base);
  const aside = asidePattern(base);
  return names
    .filter((n) => {
      const m = temp.exec(n);
      if (m !== null) return Number(m[1]) !== process.pid && !alive(Number(m[1]));
      return aside.test(n);
    })
    .sort()
    .map((n) => path.join(parent, n));
}
