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
 *
 * The swap is `dist` → `dist.old-<time>-<pid>`, then the temporary folder →
 * `dist`: a host serving `dist/` finds nothing there for the time between two
 * renames, and for longer only when the process dies right between them.
 * That state, and every other a process can leave, is recovered from by
 * recoverOutput, which every command reading or replacing the output (`site
 * build`, `site serve`) runs first. It needs no record beyond the folder
 * names, because a name is only ever given to a folder in the state it says:
 * `dist.old-*` is always a complete output (a folder being deleted is first
 * renamed to `.dist-deleting-*`), and names carry the pid of their owner, so
 * that what a running build has in hand is never touched.
 *
 * A layout whose switch is one rename (`dist` a symbolic link, replaced by a
 * new link renamed over it) was not chosen: `tar` and `rsync -a dist host:`
 * copy such a `dist` as a link, not as the site, `rm -rf dist` would leave
 * the output behind, and the first switch from an existing `dist/` folder
 * could not be one rename anyway (rename(2) will not put a link over a
 * folder). Linux's renameat2(RENAME_EXCHANGE) would swap two folders in one
 * call, but Node cannot make it.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, renameSync, rmSync, type BigIntStats } from 'node:fs';
import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { foldersOf } from './paths.js';
import { statStamp } from './stamps.js';

const tempPattern = (base: string) => new RegExp(`^\\.${escapeRegExp(base)}-(\\d+)-tmp$`);
const asidePattern = (base: string) => new RegExp(`^${escapeRegExp(base)}\\.old-(\\d+)-(\\d+)$`);
const deletingPattern = (base: string) => new RegExp(`^\\.${escapeRegExp(base)}-deleting-\\d+-\\d+-\\d+$`);

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

/**
 * Whether `file` is in the output folder `outDir` or in a folder a build keeps beside it: a temporary folder, the
 * spare, a replaced output set aside or being deleted. (`site build --watch` ignores what its own builds write.)
 */
export function inOutputFolders(outDir: string, file: string): boolean {
  const abs = path.resolve(outDir);
  const rel = path.relative(path.dirname(abs), path.resolve(file));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  const top = rel.split(path.sep)[0];
  const base = path.basename(abs);
  return top === base || top === path.basename(spareDirFor(abs)) || [tempPattern, asidePattern, deletingPattern].some((p) => p(base).test(top));
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
  return takeSpare(outDir) ?? { tmp: await createTempDir(outDir), recycled: false };
}

/**
 * The spare renamed to this process's temporary folder; null when there is no spare (or this process has a
 * temporary folder already). Atomic: of two builds started at once, one gets the spare and the other starts afresh.
 */
function takeSpare(outDir: string): { tmp: string; recycled: true } | null {
  const tmp = tempDirFor(outDir);
  if (existsSync(tmp)) return null;
  try {
    renameSync(spareDirFor(outDir), tmp);
    return { tmp, recycled: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * prepareTempDir's recycling alone, at once: the spare taken (takeSpare), or null when that cannot be done now;
 * prepareTempDir then decides.
 */
export function recycleSpare(outDir: string): { tmp: string; recycled: true } | null {
  try {
    return takeSpare(outDir);
  } catch {
    return null;
  }
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

/** What a folder held when a build last left it as its output (incremental/up-to-date.ts, recordedFolder). */
export interface RecordedFolder {
  /** Its files, relative with forward slashes. */
  files: string[];
  /** Its folders ('' is the folder itself), relative with forward slashes. */
  dirs: string[];
  /** The stat (statStamp) each of `dirs` had then, in the same order; '' for one whose entries are not vouched for. */
  stats: string[];
}

/** The stat of the folder at `dir`; undefined when there is none (nothing there, something else, or a file on the way). */
function folderStat(dir: string): BigIntStats | undefined {
  try {
    const stat = lstatSync(dir, { bigint: true });
    return stat.isDirectory() ? stat : undefined;
  } catch (err) {
    if (['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw err;
  }
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
 * With `recorded` (what the folder held when a build last left it), a
 * folder whose stat is still the recorded one is not listed: its entries are
 * the recorded ones. A folder's stat (with its change time, which cannot be
 * set back) moves when an entry is added, removed or renamed in it, so only
 * the folders changed since are read; an lstat costs a fraction of a listing (docs/PERFORMANCE.md,
 * "The spare's inventory"). Files changed in place are not the inventory's
 * concern: the writers compare each file's own stamp.
 *
 * With `parts` above 1, `part` walks only what ownerOf gives it (every part
 * lists the top level and its folders, which are few); the union of all
 * parts' inventories is the whole folder's. Files `leaveOut` names are not
 * listed (the pages' twins, which their pages' writers replace; listing them
 * would only add to the build's peak memory, see docs/PERFORMANCE.md).
 */
export function takeInventory(root: string, part = 0, parts = 1, leaveOut?: (file: string) => boolean, recorded?: RecordedFolder): Inventory {
  const into: Inventory = { files: new Set(), dirs: new Set() };
  /** Lists `rel` and every folder below it, but those `known` accounts for. */
  const walk = (rel: string, depth: number, known?: ReadonlyMap<string, number>): void => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      // Below the top level, a part walks only its own share (and the top level's folders, to find it).
      const mine = ownerOf(child, parts) === part;
      if (!mine && !(depth === 0 && entry.isDirectory())) continue;
      if (entry.isDirectory()) {
        if (known?.has(child) === true) continue;
        if (mine) into.dirs.add(child);
        walk(child, depth + 1, known);
      } else if (entry.isFile()) {
        if (leaveOut?.(child) !== true) into.files.add(child);
      } else rmSync(path.join(root, child), { recursive: true, force: true });
    }
  };
  if (recorded === undefined) {
    walk('', 0);
    return into;
  }
  // The recorded folders this part walks, by path, and which of them still hold exactly their recorded entries.
  const { dirs, stats, files } = recorded;
  const known = new Map<string, number>();
  for (let i = 0; i < dirs.length; i++) if (parts <= 1 || !dirs[i].includes('/') || ownerOf(dirs[i], parts) === part) known.set(dirs[i], i);
  const unmoved = new Uint8Array(dirs.length);
  for (const [dir, i] of known) {
    if (stats[i] === '') continue;
    const stat = folderStat(path.join(root, dir));
    if (stat !== undefined && statStamp(stat) === stats[i]) unmoved[i] = 1;
  }
  for (const [dir, i] of known) if (unmoved[i] === 1 && dir !== '' && ownerOf(dir, parts) === part) into.dirs.add(dir);
  for (const file of files) {
    const at = file.lastIndexOf('/');
    const i = known.get(at < 0 ? '' : file.slice(0, at));
    if (i !== undefined && unmoved[i] === 1 && ownerOf(file, parts) === part && leaveOut?.(file) !== true) into.files.add(file);
  }
  // Every other recorded folder still there is listed, and any folder found in it that the record does not know, whole.
  for (const [dir, i] of known) {
    if (unmoved[i] === 1 || folderStat(path.join(root, dir)) === undefined) continue;
    if (dir !== '' && ownerOf(dir, parts) === part) into.dirs.add(dir);
    walk(dir, dir === '' ? 0 : 1, known);
  }
  return into;
}

/**
 * Makes a recycled folder hold exactly what this build wrote: files it did
 * not write go, and folders that hold none of its files go whole.
 */
export function removeUnwritten(tmp: string, inventory: Inventory, written: ReadonlySet<string>, kept: ReadonlySet<string> = foldersOf(written)): number {
  let removed = 0;
  // A name may have changed kind since the inventory (see clear-way.ts): a file now a folder of written files
  // is kept, and so is a folder now a written file.
  for (const file of inventory.files) {
    const dir = path.posix.dirname(file);
    if (written.has(file) || kept.has(file) || (dir !== '.' && !kept.has(dir))) continue;
    // Forced: a file the manifest vouched for and gone since is as good as removed.
    rmSync(path.join(tmp, file), { force: true });
    removed++;
  }
  // Shallowest first: removing a folder removes what is under it, which is then skipped.
  for (const dir of [...inventory.dirs].filter((d) => !kept.has(d) && !written.has(d)).sort()) {
    if (!existsSync(path.join(tmp, dir))) continue;
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
  removeInBackground(await markForDeletion([aside], outDir));
}

let deletions = 0;

/**
 * Renames folders to `.dist-deleting-*` names, which nothing ever takes back
 * (see the module comment): a folder half deleted must not pass for an
 * output. Returns their new paths; one that is gone already is left out.
 */
async function markForDeletion(dirs: readonly string[], outDir: string, now = Date.now()): Promise<string[]> {
  const out = path.resolve(outDir);
  const marked: string[] = [];
  for (const dir of dirs) {
    const target = path.join(path.dirname(out), `.${path.basename(out)}-deleting-${now}-${process.pid}-${deletions++}`);
    try {
      await rename(dir, target);
      marked.push(target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return marked;
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

/** What recoverOutput did, by absolute path. */
export interface Recovery {
  /** The previous output put back as `outDir` (it was missing, its swap cut short), or null. */
  restored: string | null;
  /** The leftover kept as the spare, or null. */
  spare: string | null;
  /** Leftovers renamed for deletion (now deleted in a detached process). */
  discarded: string[];
}

/**
 * Puts right whatever a build that died (a crash, SIGKILL, a power cut) left
 * beside `outDir`; run before anything else reads or replaces the output.
 * Only leftovers of processes no longer running count: a running build's
 * folders are its own. Every state a build passes through is handled:
 *
 * - `outDir` missing, `dist.old-*` there (killed between the swap's two
 *   renames, or while a failed swap put the old output back): the newest
 *   old output is put back, as a build that did not finish leaves `dist/` as
 *   it was. Its temporary folder, complete or not, becomes the spare below.
 * - `outDir` there, `dist.old-*` too (killed after the swap, before the old
 *   output became the spare): it becomes the spare.
 * - A temporary folder of a dead build (killed while writing, or before the
 *   swap): never promoted to `outDir`, since nothing says it is complete;
 *   it becomes the spare, which is a cache that the next build checks file
 *   by file.
 * - Only one spare is kept; further leftovers, and `.dist-deleting-*`
 *   folders whose deletion was cut short, are deleted in a detached process.
 * - `outDir` missing and no old output: there was none (a first build), or
 *   it was deleted by hand; nothing to restore.
 */
export async function recoverOutput(outDir: string): Promise<Recovery> {
  const out = path.resolve(outDir);
  const parent = path.dirname(out);
  const base = path.basename(out);
  const recovery: Recovery = { restored: null, spare: null, discarded: [] };
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return recovery;
  }
  const asides: Array<{ name: string; time: number }> = [];
  const temps: string[] = [];
  const deleting: string[] = [];
  const temp = tempPattern(base);
  const aside = asidePattern(base);
  const marked = deletingPattern(base);
  for (const name of names) {
    const old = aside.exec(name);
    const tmp = temp.exec(name);
    if (old !== null && !alive(Number(old[2]))) asides.push({ name, time: Number(old[1]) });
    else if (tmp !== null && Number(tmp[1]) !== process.pid && !alive(Number(tmp[1]))) temps.push(name);
    else if (marked.test(name)) deleting.push(path.join(parent, name));
  }
  // Newest first: the output the interrupted swap had just moved aside.
  asides.sort((a, b) => b.time - a.time || (a.name < b.name ? 1 : -1));
  const leftovers = [...asides.map((a) => a.name), ...temps.sort()].map((n) => path.join(parent, n));
  if (asides.length > 0 && !(await present(out))) {
    try {
      await rename(leftovers[0], out);
      recovery.restored = leftovers.shift()!;
    } catch (err) {
      // Another build swapped its output in meanwhile: the old one is a leftover like the rest.
      if (!['ENOTEMPTY', 'EEXIST', 'ENOTDIR', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  }
  if (leftovers.length > 0 && !(await present(spareDirFor(out)))) {
    try {
      await rename(leftovers[0], spareDirFor(out));
      recovery.spare = leftovers.shift()!;
    } catch {
      // Another build made a spare meanwhile.
    }
  }
  recovery.discarded = leftovers;
  removeInBackground([...(await markForDeletion(leftovers, out)), ...deleting]);
  return recovery;
}

/** Whether anything (a folder, a file, a link, even a broken one) has this name. */
async function present(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
