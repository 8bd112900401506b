/**
 * Atomic output: the build writes into a temporary folder beside the output
 * and swaps it in with two renames only when everything succeeded. The old
 * output is renamed aside and deleted afterwards, in a detached process:
 * deleting first would leave no site during the build, and on these disks a
 * large delete makes file creation slow for minutes.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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

/** Creates a fresh, empty temporary folder for this process. */
export async function createTempDir(outDir: string): Promise<string> {
  const tmp = tempDirFor(outDir);
  if (existsSync(tmp)) await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  return tmp;
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
