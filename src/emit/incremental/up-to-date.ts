/**
 * The output's manifest: what a successful build left (every file and folder
 * of the output, and its reports, by stat) and what it answered, under the
 * key of everything the output follows from (the code, the bundle and the
 * options: the origin-free globalKey; the data: the check's content key).
 *
 * A build whose key is the manifest's, into a folder whose every file and
 * folder still has its recorded stat, would write exactly what is there: it
 * writes nothing and answers what the last build answered. A folder's stat
 * moves when an entry is added, removed or renamed in it, and a file's change
 * time with every write (output/stamps.ts), so a page edited, deleted or
 * dropped into the output by hand fails the comparison and the build runs as
 * usual. A large output's stats are compared in a thread of their own while
 * the main thread checks the data: on 100,000 routes they are about 320,000
 * lstat calls, the check's own time (docs/PERFORMANCE.md, "Nothing
 * changed"); a small one's, once the check's key is the manifest's
 * (VERIFY_BESIDE_BYTES).
 *
 * Kept beside the build record, one file per folder (by its device and
 * inode, which the build's renames keep): the manifest of the folder that is
 * now the spare stays, and says what the spare held when it was last the
 * output (recordedFolder; output/atomic.ts lists from it every folder whose
 * stat has not moved since). A failed build leaves the output as it was and
 * the manifest true of it.
 */
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { pruneCacheFiles, writeCacheFile } from '../cache-files.js';
import { foldersOf } from '../output/paths.js';
import { statOfStamp, statStamp } from '../output/stamps.js';
import type { BuildResult } from '../types.js';
import type { RecordedFolder } from '../output/atomic.js';
import { folderIdentity } from '../../load/file-stat.js';
import { globalKey } from './record.js';

const FORMAT = 'site-output-manifest/2';
/** Manifests kept: an output and its spare each, of as many output folders as build records (record.ts). */
const KEEP = 32;
const SELF = new URL(import.meta.url);
/**
 * How long before its stat is taken a folder must have last changed for its
 * recorded entries to be trusted (recordedFolder): a file system's times move
 * in ticks (a few milliseconds here, up to two seconds on some), and a change
 * in the tick of the recorded one would leave the stat as it was.
 */
const SETTLE_MS = 2000;

/** What a build answered, less what belongs to one run (its time, its check's file counts, its output folder) and what follows from the rest (the counts of errors and warnings). */
export type Answer = Omit<BuildResult, 'errors' | 'warnings' | 'seconds' | 'timings' | 'checkFiles' | 'outDir'>;

interface OutputManifest {
  format: typeof FORMAT;
  /** `dev:ino` of the output folder. */
  folder: string;
  /** globalKey without the origin (the data, and so the origin, are the check key's). */
  global: string;
  /** The check's content key (CheckResult.key). */
  check: string;
  /** The options and places that show in the output or the answer (see optionsKey). */
  options: string;
  answer: Answer;
  /**
   * The output's files, then its folders, relative to it with forward slashes
   * ('' is the folder itself), then the reports (absolute).
   */
  paths: string[];
  /** How many of `paths` are the output's files; the folders follow them. */
  files: number;
  /** Folders changed within SETTLE_MS of the manifest being made: recordedFolder does not vouch for their entries. */
  unsettled: string[];
  /** statStamp of each path, in order. */
  stats: string[];
}

/** What `globalKey` hashes, but the origin. */
export interface CodeParts {
  renderModule: string;
  assets: unknown;
  htmlTwins: boolean;
}

/** The options and places a build's output and answer follow from besides the data and the code. */
export function optionsKey(parts: { strict: boolean; searchIndex: boolean; dataDir: string; reportsDir: string }): string {
  // Diagnostics name files relative to the working folder.
  return JSON.stringify([parts.strict, parts.searchIndex, path.resolve(parts.dataDir), path.resolve(parts.reportsDir), process.cwd()]);
}

/** Where the manifest of the folder `dev:ino` is kept. */
const manifestFile = (cacheDir: string, folder: string): string => path.join(cacheDir, 'manifests', `${folder.replace(':', '-')}.bin`);

/** The manifest file of the folder at `dir`, whether there is one or not; undefined when `dir` is not a folder. */
export function manifestFileOf(cacheDir: string, dir: string): string | undefined {
  const folder = folderIdentity(path.resolve(dir));
  return folder === undefined ? undefined : manifestFile(cacheDir, folder);
}

/** A manifest path on the output folder `root` (absolute): '' is the folder, an absolute path (a report) stands as it is. */
const fullPath = (root: string, p: string): string => (p === '' ? root : p.startsWith('/') ? p : `${root}/${p}`);

/**
 * Records the output a build just swapped in. `written` is every file in it
 * (relative); `stamps` the pages' stamps, whose stat part is the file's stat
 * as the build left it (no lstat needed for those); `reports` the report
 * files (absolute). Never fails the build: without it the next build runs.
 */
export function writeManifest(
  cacheDir: string,
  outDir: string,
  keys: { code: CodeParts; check: string; options: string },
  answer: Answer,
  written: ReadonlySet<string>,
  stamps: ReadonlyMap<string, string>,
  reports: readonly string[],
  /** The folders of `written` (foldersOf), when the caller has them. */
  folders: ReadonlySet<string> = foldersOf(written),
): void {
  try {
    const root = path.resolve(outDir);
    const folder = folderIdentity(root);
    if (folder === undefined) return;
    // A folder changed this close to its stat being taken could change again within the same tick of the file system's clock, its stat unmoved.
    const settledBefore = BigInt(Date.now() - SETTLE_MS) * 1_000_000n;
    const paths: string[] = [];
    const stats: string[] = [];
    const add = (p: string, stamp?: string): void => {
      paths.push(p);
      stats.push(stamp === undefined ? statStamp(lstatSync(fullPath(root, p), { bigint: true })) : statOfStamp(stamp));
    };
    for (const file of written) add(file, stamps.get(file));
    const files = paths.length;
    const unsettled: string[] = [];
    for (const dir of ['', ...folders]) {
      const stat = lstatSync(fullPath(root, dir), { bigint: true });
      paths.push(dir);
      stats.push(statStamp(stat));
      if (stat.ctimeNs >= settledBefore) unsettled.push(dir);
    }
    for (const file of reports) add(path.resolve(file));
    const manifest: OutputManifest = {
      format: FORMAT,
      folder,
      global: globalKey({ ...keys.code, origin: '' }),
      check: keys.check,
      options: keys.options,
      answer,
      paths,
      files,
      stats,
      unsettled,
    };
    const file = manifestFile(cacheDir, folder);
    if (writeCacheFile(file, serialize(manifest))) pruneCacheFiles(path.dirname(file), KEEP, (n) => n.endsWith('.bin'));
  } catch {
    // A file gone already (another process at the output): no manifest, and the next build runs.
  }
}

/** What the last build into the folder answered, with the keys it answered under, when its output is still exactly as it left it. */
export interface Unchanged {
  check: string;
  options: string;
  answer: Answer;
}

/** The manifest in `file` (see manifestFileOf), when it is one of this format; else null. */
function readManifestFile(file: string | undefined): OutputManifest | null {
  if (file === undefined || !existsSync(file)) return null;
  try {
    const manifest = deserialize(readFileSync(file)) as OutputManifest;
    return manifest?.format === FORMAT ? manifest : null;
  } catch {
    return null;
  }
}

/** The manifest of `outDir` when it was made by this code for this folder; else null. */
function readManifest(cacheDir: string, outDir: string, code: CodeParts): OutputManifest | null {
  const root = path.resolve(outDir);
  const manifest = readManifestFile(manifestFileOf(cacheDir, root));
  if (manifest === null || manifest.folder !== folderIdentity(root) || manifest.global !== globalKey({ ...code, origin: '' })) return null;
  return manifest;
}

/**
 * What a folder held when a build last left it as its output (whatever code
 * made it): its files and its folders, each folder with its stat then (none
 * for a folder that had changed just before, see SETTLE_MS). `file` is the
 * folder's manifest (manifestFileOf); null when there is none.
 */
export function recordedFolder(file: string): RecordedFolder | null {
  const manifest = readManifestFile(file);
  if (manifest === null) return null;
  const { paths, stats, files } = manifest;
  let end = files;
  while (end < paths.length && !paths[end].startsWith('/')) end++;
  const unsettled = new Set(manifest.unsettled);
  const dirs = paths.slice(files, end);
  // An unsettled folder's recorded stat is left out: it is listed whatever its stat.
  return { files: paths.slice(0, files), dirs, stats: dirs.map((dir, i) => (unsettled.has(dir) ? '' : stats[files + i])) };
}

/** The manifest of `outDir` when it was made by this code from the data of `key` and every path it names still has its stat; else null. */
function verifyOutput(cacheDir: string, outDir: string, code: CodeParts, key: string): Unchanged | null {
  const manifest = readManifest(cacheDir, outDir, code);
  return manifest === null || manifest.check !== key ? null : compareStats(outDir, manifest);
}

function compareStats(outDir: string, manifest: OutputManifest): Unchanged | null {
  const root = path.resolve(outDir);
  for (let i = 0; i < manifest.paths.length; i++) {
    const p = manifest.paths[i];
    const stat = lstatSync(fullPath(root, p), { bigint: true, throwIfNoEntry: false });
    if (stat === undefined || statStamp(stat) !== manifest.stats[i]) return null;
  }
  return { check: manifest.check, options: manifest.options, answer: manifest.answer };
}

/** A comparison of the output's stats with its manifest (verifyOutput), started with the build. */
export interface Verifying {
  /** The comparison's answer for the data's key: null unless the manifest was made from that data and every path still has its stat. */
  answer(key: string): Promise<Unchanged | null>;
  /**
   * The data's content key, as soon as the check knows it: when the manifest
   * was made from other data its stats need no comparing (the build runs
   * whatever they say), and a thread comparing them stops, leaving the cores to the check.
   */
  dataKey(key: string | undefined): void;
  stop(): void;
}

/**
 * Manifest bytes from which the stats are compared in a thread beside the check (about 10,000 paths). Below, they
 * are compared on the build's thread once the check's key is the manifest's: the shipped catalogue's 3,000 paths in
 * 12–35 ms, where the thread took some 60 ms to start and an edit's build compared them for nothing
 * (docs/PERFORMANCE.md, "The record's unchanged parts kept; a small output compared when asked").
 */
export const VERIFY_BESIDE_BYTES = 1024 * 1024;

/** The output's comparison with its manifest: in a thread of its own when the manifest is `besideBytes` or more, else when its answer is asked for. */
export function startVerifying(cacheDir: string, outDir: string, code: CodeParts, besideBytes = VERIFY_BESIDE_BYTES): Verifying {
  const file = manifestFileOf(cacheDir, outDir);
  const size = file === undefined ? undefined : statSync(file, { throwIfNoEntry: false })?.size;
  return size !== undefined && size >= besideBytes ? verifyInThread(cacheDir, outDir, code) : verifyWhenAsked(cacheDir, outDir, code);
}

/** verifyOutput once its answer is asked for. */
function verifyWhenAsked(cacheDir: string, outDir: string, code: CodeParts): Verifying {
  return {
    answer: async (key) => verifyOutput(cacheDir, outDir, code, key),
    dataKey: () => undefined,
    stop: () => undefined,
  };
}

/** What the thread posts: the manifest's data key once it is read (null: no usable manifest), then its answer. */
type VerifierMessage = { kind: 'check'; check: string | null } | { kind: 'answer'; answer: Unchanged | null };

/**
 * verifyOutput in a worker thread, beside the check. Run from TypeScript
 * sources (the tests), where no compiled module is there to start, it
 * compares in-process when its answer is asked for.
 */
export function verifyInThread(cacheDir: string, outDir: string, code: CodeParts): Verifying {
  if (!SELF.pathname.endsWith('.js') || !existsSync(fileURLToPath(SELF))) return verifyWhenAsked(cacheDir, outDir, code);
  const worker = new Worker(SELF, { workerData: { outputVerifier: { cacheDir, outDir, code } } });
  let manifestKey: string | null | undefined;
  let data: { key: string | undefined } | undefined;
  let settle: (answer: Unchanged | null) => void = () => undefined;
  const result = new Promise<Unchanged | null>((resolve) => {
    settle = resolve;
  });
  const stopOnMismatch = (): void => {
    if (manifestKey === undefined || data === undefined || manifestKey === data.key) return;
    settle(null);
    void worker.terminate();
  };
  worker.on('message', (message: VerifierMessage) => {
    if (message.kind === 'answer') return settle(message.answer);
    manifestKey = message.check;
    stopOnMismatch();
  });
  // A thread that failed or was stopped only means the build runs.
  worker.once('error', () => settle(null));
  worker.once('exit', () => settle(null));
  return {
    answer: (key) => result.then((unchanged) => (unchanged?.check === key ? unchanged : null)),
    dataKey: (key) => {
      data = { key };
      stopOnMismatch();
    },
    stop: () => void worker.terminate(),
  };
}

// Only in the thread started above: other worker threads (the render pool's) may import this module too.
if (!isMainThread && parentPort !== null) {
  const job = (workerData as { outputVerifier?: { cacheDir: string; outDir: string; code: CodeParts } } | null)?.outputVerifier;
  if (job !== undefined) {
    const manifest = readManifest(job.cacheDir, job.outDir, job.code);
    const post = (message: VerifierMessage) => parentPort!.postMessage(message);
    post({ kind: 'check', check: manifest?.check ?? null });
    post({ kind: 'answer', answer: manifest === null ? null : compareStats(job.outDir, manifest) });
  }
}
