/**
 * Load and check in one call: what `site check` runs, and what `site build`
 * runs before rendering anything. Incremental, through the state the last
 * run left in the cache (src/check/state.ts): a file whose stat is unchanged
 * is not read again, one whose bytes are unchanged is not validated again,
 * and a run on unchanged data and code reuses the whole report without
 * importing zod or the check rules. The cross-file rules run over the whole
 * catalogue unless what they read of it is what the stored run's read
 * (keptFindings), and the result is exactly that of a check from scratch.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { Position } from '../load/locate.js';
import { codeFingerprint, defaultCacheDir, entryPath, MAX_DATA_BYTES, MAX_LEAN_DATA_BYTES, openEntry, snapshotKey, writeEntryParts } from '../load/cache.js';
import type { Catalogue } from '../core/catalogue.js';
import type { ValidatedFile } from '../load/assemble.js';
import type { PreviousFiles } from '../load/index.js';
import { bytesOf, dataDirNames, KEPT_BYTES, readDataDir, type DataSnapshot } from '../load/read.js';
import type { ResolvedRoute } from './index.js';
import { sizesOf, type CatalogueSizes } from './report.js';
import { type HeldOutcome, packState, unpackState, type StoredState } from './state.js';
import { extended } from '../core/objects.js';

export type { CatalogueSizes };

export interface CheckResult {
  /** Null when the data could not be loaded (the diagnostics say why). */
  catalogue: Catalogue | null;
  /** Load diagnostics, and check diagnostics when the catalogue loaded; sorted. */
  diagnostics: Diagnostic[];
  routes: ResolvedRoute[];
  /** How many entities each part of the catalogue has (null with it): a report can count without touching the catalogue. */
  sizes: CatalogueSizes | null;
  /**
   * The content key of this result: a hash of every data byte and of the load
   * and check code, so anything derived from the catalogue alone can be
   * cached under it (the build's search index is). Null when not cached.
   */
  key?: string;
  /** Data files this run parsed and validated. */
  validated: number;
  /** Data files whose validated result this run took from the cache (validated + reused = every data file). */
  reused: number;
  /** Data files and images whose bytes this run read and hashed; the stats of the others vouched for them. */
  read: number;
  /** Set when the cross-file rules did not run: their findings are the stored run's, their input unchanged (see keptFindings). */
  findingsKept?: true;
  /** The sha1 of the route registry's bytes (routes.json) as read, when they were: the routes are made from them alone. */
  registry?: string;
}

export interface CheckDataDirOptions {
  /**
   * Folder of the result cache; false to load and check from scratch and
   * store nothing. Default: `node_modules/.cache/site` of the nearest package.
   */
  cacheDir?: string | false;
  /** Load the catalogue lean (see ValidateOptions.lean in src/load/index.ts); cached apart from a whole one. */
  lean?: boolean;
  /**
   * Called with the result's content key (CheckResult.key) as soon as it is known, before anything is validated,
   * and whether it is another than the last check's of this folder (the data changed since, or nothing was kept).
   */
  onKey?: (key: string | undefined, changed: boolean) => void;
  /**
   * Takes the writing of the cache entry, to run once the caller's result is out (`site build --watch` reports a
   * build first); default: written before checkDataDir returns. Until it has run, the result's catalogue keeps
   * the links its bodies' rules read, and the next check of the same folder must not start.
   */
  later?: (write: () => void) => void;
  /**
   * Kept by a caller that checks the same folder again and again in one process (`site build --watch`): the
   * last check's results, used in place of decoding the cache entry's (which is still read and written, for
   * the next process) when the entry holds the same. Each check leaves its own.
   */
  memory?: CheckMemory;
}

/** What a check leaves in memory for the next check of the same folder (CheckDataDirOptions.memory). */
export interface CheckMemory {
  held?: HeldOutcome;
}

/** A check's result before it is counted. */
type Checked = Omit<CheckResult, 'validated' | 'reused' | 'read'>;

export async function checkDataDir(dataDir: string, options: CheckDataDirOptions = {}): Promise<CheckResult> {
  const cacheDir = options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir;
  const lean = options.lean === true;
  const code = codeFingerprint();
  const path = cacheDir && code !== undefined ? entryPath(cacheDir, dataDirNames(dataDir), lean ? 'lean' : '') : undefined;
  // The entry's header names the code (and whether lean) it was made by: another code's entry is a miss.
  const stateId = lean ? `${code}-lean` : code;
  const state = path && stateId ? readState(path, stateId, options.memory?.held) : undefined;
  const snapshot = readDataDir(dataDir, KEPT_BYTES, state?.known);
  // A lean result's entry holds no bodies, so it is worth keeping for far larger catalogues.
  const key = path ? snapshotKey(snapshot, lean ? `${code}\0lean` : code, lean ? MAX_LEAN_DATA_BYTES : MAX_DATA_BYTES) : undefined;
  options.onKey?.(key, key === undefined || state?.key !== key);
  const read = countRead(snapshot);
  const all = snapshot.files.length;
  const registry = snapshot.files.find((f) => f.into === 'routes')?.digest;
  if (!path || !stateId || !key) {
    const { checked } = await loadAndCheck(snapshot, lean);
    emptyLinks(checked.catalogue);
    return { ...checked, validated: all, reused: 0, read, registry };
  }

  const later = options.later ?? ((write: () => void) => write());
  const stored = state?.key === key ? state.report({ root: snapshot.root, files: snapshot.files, images: snapshot.images }, lean) : undefined;
  if (stored) {
    const settled = state!.withSettledStats(snapshot);
    if (settled) later(() => writeEntryParts(path, stateId, settled.count, settled.make, APART));
    // Assigned, not spread: spreading would read the catalogue, which is decoded only when first read.
    return Object.assign(stored, { key, validated: 0, reused: all, read, registry });
  }
  const { checked, load } = await loadAndCheck(snapshot, lean, state, true);
  const reused = load.reused ?? 0;
  // A compile that rewrote the stages while they were loading could leave old and new code mixed: store nothing then.
  const { files, context } = load;
  const storable = codeFingerprint(true) === code && files !== undefined && context !== undefined;
  const { diagnostics, routes, sizes } = checked;
  const memory = options.memory;
  if (memory) memory.held = storable ? { key, context, rels: snapshot.files.map((f) => f.rel), files, report: { diagnostics, routes, sizes } } : undefined;
  later(() => {
    if (storable) {
      // Kept findings mean the same routes.json and the same entities (keptFindings): the same routes and sizes.
      const parts = packState({ key, snapshot, context, files, report: { diagnostics, routes, sizes } }, state, load.findingsKept);
      writeEntryParts(path, stateId, parts.count, parts.make, APART);
    }
    state?.release();
    emptyLinks(checked.catalogue, memory !== undefined);
  });
  return { ...checked, key, validated: all - reused, reused, read, registry, ...(load.findingsKept && { findingsKept: true as const }) };
}

/** The state's parts are stored apart: after one edit, all but a few are the parts of the state before (packState). */
const APART = { apart: true } as const;

function readState(path: string, stateId: string, held?: HeldOutcome): StoredState | undefined {
  const entry = openEntry(path, stateId);
  return entry && unpackState(entry, held);
}

function countRead(snapshot: DataSnapshot): number {
  return snapshot.files.filter((f) => f.digest !== undefined && !f.unread).length + snapshot.images.filter((i) => !i.unread).length;
}

/**
 * The links of dropped bodies were kept for the rules just run (and stored for the next run's); nothing after the
 * check reads them. Held in memory for the next check (`held`), each body keeps them and the catalogue gets a
 * copy without.
 */
function emptyLinks(catalogue: Catalogue | null, held = false): void {
  const bodies = catalogue?.bodies;
  if (!catalogue || !bodies) return;
  for (const e of [...catalogue.products, ...catalogue.articles, ...catalogue.news]) {
    const body = bodies.get(e);
    if (body === undefined || body.links.length === 0) continue;
    if (held) bodies.set(e, extended(body, { links: [] }));
    else body.links = [];
  }
}

/** The stages themselves, imported only on a miss: zod and the rules are most of a cold run's start-up. */
async function loadAndCheck(
  snapshot: DataSnapshot,
  lean: boolean,
  state?: StoredState,
  /** Hash each value (ValidatedFile.valueDigest): the results are kept, and the build's record reads the hashes. */
  digests = false,
): Promise<{ checked: Checked; load: { files?: ValidatedFile[]; context?: string; reused?: number; findingsKept?: boolean } }> {
  const [{ validateData }, { checkCatalogue, compareDiagnostics, resolveRoutes }, locate] = await Promise.all([
    import('../load/index.js'),
    import('./index.js'),
    import('../load/locate.js'),
  ]);
  const previous = state?.previous();
  const stored = state?.diagnostics();
  // The files (as diagnostics name them) whose bytes are the stored run's.
  const unchanged = state && new Set(snapshot.files.filter((f) => f.digest !== undefined && state.digestOf(f.rel) === f.digest).map((f) => f.file));
  const positions = unchanged && knownPositions(unchanged, stored);
  const load = validateData(snapshot, { lean, previous, digests });
  const { catalogue, diagnostics: loadDiagnostics } = load;
  if (!catalogue) return { checked: { catalogue: null, diagnostics: loadDiagnostics, routes: [], sizes: null }, load };
  const kept = state && unchanged && previous && stored ? keptFindings(state, unchanged, previous, stored, snapshot, load) : undefined;
  // Positions again for the kept ones too: those in files validated again may have moved with their bytes.
  const found = withPositions(kept ?? checkCatalogue(catalogue, { locate: () => undefined }), snapshot, locate, positions);
  // The load stage's warnings (stray files) belong in the same report.
  const diagnostics = [...loadDiagnostics, ...found].sort(compareDiagnostics);
  const checked = { catalogue, diagnostics, routes: resolveRoutes(catalogue), sizes: sizesOf(catalogue) };
  return { checked, load: { ...load, findingsKept: kept !== undefined } };
}

/**
 * The stored run's cross-file findings, when this run gives the rules the
 * input that run gave them: the same files (paths, in order) and images, the
 * same validation context, and for each file validated again the same value
 * (by its hash, made after a lean load dropped the body) and the same links
 * in its body, in the same order. The rules are pure functions of that input
 * (src/check/index.ts) and read nothing else of the files, so their findings
 * are the stored ones; only where they point may have moved. A link that
 * moved in its body (a paragraph added before it) takes its findings to its
 * new pointer: a lean value's body is empty, so nothing else a rule finds in
 * such a file points into it. Undefined when that cannot be shown: a value
 * without a hash (routes.json's array), a stored run whose catalogue did not
 * load (its rules never ran), a file new in this run or unread in the stored one.
 */
function keptFindings(
  state: StoredState,
  unchanged: ReadonlySet<string>,
  previous: PreviousFiles,
  stored: readonly Diagnostic[],
  snapshot: DataSnapshot,
  load: { files?: readonly ValidatedFile[]; context?: string },
): Diagnostic[] | undefined {
  const { files, context } = load;
  if (!files || context !== previous.context || !state.sameListing(snapshot)) return undefined;
  if (stored.some((d) => !d.code.startsWith('check/') && d.severity === 'error')) return undefined;
  /** By file (as diagnostics name it): each link's pointer in the stored run → its pointer now. */
  const moved = new Map<string, Map<string, string>>();
  for (let i = 0; i < files.length; i++) {
    const f = snapshot.files[i];
    if (unchanged.has(f.file)) continue; // the stored bytes: the same input
    const before = previous.get(f.rel);
    if (before === undefined) return undefined;
    const [was, now] = [before.result, files[i]];
    if (now.valueDigest === undefined || now.valueDigest !== was.valueDigest) return undefined;
    const [wasLinks, nowLinks] = [was.body?.links ?? [], now.body?.links ?? []];
    if (wasLinks.length !== nowLinks.length || wasLinks.some(([, href], k) => nowLinks[k][1] !== href)) return undefined;
    const pointers = new Map<string, string>();
    wasLinks.forEach(([pointer], k) => pointer !== nowLinks[k][0] && pointers.set(pointer, nowLinks[k][0]));
    if (pointers.size > 0) moved.set(f.file, pointers);
  }
  const findings = stored.filter((d) => d.code.startsWith('check/'));
  return moved.size === 0 ? findings : findings.map((d) => extended(d, { pointer: moved.get(d.file)?.get(d.pointer) ?? d.pointer }));
}

/**
 * The positions the stored report's check findings had, in the files whose
 * bytes are unchanged: a position follows from the bytes and the pointer
 * alone, and locating in a large file (routes.json) means parsing all of it.
 */
function knownPositions(unchanged: ReadonlySet<string>, stored: readonly Diagnostic[] = []): Map<string, Map<string, Position>> {
  const known = new Map<string, Map<string, Position>>();
  for (const d of stored) {
    if (!d.code.startsWith('check/') || !unchanged.has(d.file) || d.line === undefined || d.column === undefined) continue;
    let inFile = known.get(d.file);
    if (!inFile) known.set(d.file, (inFile = new Map()));
    inFile.set(d.pointer, { line: d.line, column: d.column });
  }
  return known;
}

/**
 * Line and column from the bytes that were checked, not from the files as
 * they are on disk by now (an editor may have saved one meanwhile): a cached
 * result must follow from its key's bytes alone. Files outside the snapshot
 * are located on disk as usual.
 */
function withPositions(
  diagnostics: readonly Diagnostic[],
  snapshot: DataSnapshot,
  locate: typeof import('../load/locate.js'),
  known?: Map<string, Map<string, Position>>,
): Diagnostic[] {
  const inSnapshot = new Map(snapshot.files.map((f) => [f.file, f]));
  return locate.withPositions(diagnostics, (file, pointers) => {
    const stored = known?.get(file);
    if (stored && pointers.every((p) => stored.has(p))) return pointers.map((p) => stored.get(p)!);
    try {
      const f = inSnapshot.get(file);
      // Read again if the snapshot did not hold them, and only if they are still the bytes checked.
      const bytes = f === undefined ? undefined : bytesOf(snapshot, f);
      return bytes ? locate.createLocator(locate.stripBom(bytes.toString('utf8'))).locateMany(pointers) : locate.locateMany(file, pointers);
    } catch {
      return pointers.map(() => ({ line: 1, column: 1 })); // as locateMany does for a file that is not JSON
    }
  });
}
