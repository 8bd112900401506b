/**
 * What a check leaves for the next check of the same data directory, as one
 * cache entry (src/load/cache.ts: checksummed, written to a temp file and
 * renamed): the key and the report of its result, and for every data file
 * its path, size, sha1, its stat when that can vouch for the bytes
 * (src/load/file-stat.ts) and its validated result. The next run reads
 * unread the files whose stat is unchanged, reuses the report when the key is
 * the same, and otherwise validates again only the files whose bytes changed.
 *
 * Parts, each deserialized only when needed: the file table (small; every
 * run reads it), the diagnostics, the routes and sizes, and the per-file
 * results (as large as the catalogue).
 */
import { deserialize, serialize } from 'node:v8';
import type { BodyRef, Catalogue } from '../core/catalogue.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { assembleCatalogue, type AssemblyPlan, type ValidatedFile } from '../load/assemble.js';
import type { FileStat, KnownFile } from '../load/file-stat.js';
import { isSettled, sameStat } from '../load/file-stat.js';
import type { PreviousFiles } from '../load/index.js';
import type { EntryReader, StoredPart } from '../load/cache.js';
import type { DataImageFile, DataSnapshot } from '../load/read.js';
import type { CatalogueSizes } from './report.js';
import type { ResolvedRoute } from './index.js';
import { extended } from '../core/objects.js';

/** The files' table: columns, so that a hundred thousand files are a few arrays rather than as many objects. */
interface FileTable {
  /** The data key of the stored result (see snapshotKey in src/load/cache.ts). */
  key: string;
  /** The context the results were validated in (see validationContext in src/load/index.ts). */
  context: string;
  rels: string[];
  /** Each file's sha1, 40 hex digits each, in order. */
  digests: string;
  sizes: number[];
  /** Five per file (device, inode, size, modification and change times in ns); used only where `settled` is 1. */
  stats: BigInt64Array;
  settled: Uint8Array;
  images: Array<Omit<DataImageFile, 'file' | 'unread' | 'stat'> & { stat?: FileStat }>;
}

/** The per-file results, in the table's order; `kept[i]` is 0 for a result that is not reusable (unread). */
interface Results {
  kept: Uint8Array;
  values: unknown[];
  bodies: Array<BodyRef | undefined>;
  /** Each value's hash, where the load made one (ValidatedFile.valueDigest). */
  valueDigests: Array<string | undefined>;
  /** Only the files that have diagnostics: [index, diagnostics]. */
  diagnostics: Array<[number, Diagnostic[]]>;
}

export interface Report {
  diagnostics: Diagnostic[];
  routes: ResolvedRoute[];
  sizes: CatalogueSizes | null;
}

/** What a run leaves: the snapshot it read, the results of its load and the report of its check. */
export interface RunOutcome {
  key: string;
  snapshot: DataSnapshot;
  context: string;
  files: readonly ValidatedFile[];
  report: Report;
}

/** An entry's parts, made one at a time as they are written (see writeEntryParts in src/load/cache.ts). */
export interface Parts {
  count: number;
  /** Part i's bytes; a part copied from the stored entry comes with the hash the entry checked. */
  make(i: number): Uint8Array | StoredPart;
}

/** The part that holds the routes and sizes. */
const ROUTES_PART = 2;

/**
 * Files per part of the results, for a catalogue of `files`: encoded and written a part at a time, they never need a
 * buffer the size of the catalogue, and an edit encodes and writes its file's part again. A catalogue of up to
 * 8,192 files (the shipped one has 1,500) has parts of 256, a few hundred kilobytes each; a larger one parts of
 * 1,024, so that the entry's part files, each kept open while the entry is read, stay about a hundred at 100,000
 * files (docs/PERFORMANCE.md, "The check's results in smaller parts").
 */
const filesPerPart = (files: number): number => (files <= 8192 ? 256 : 1024);

/**
 * The entry a run leaves. With `stored` (the state the run started from), a
 * part of results whose files are the stored part's, each with its bytes
 * unchanged and its stored result reused, is copied from the stored entry
 * rather than encoded again: after one edit in 100,000 files that was seconds.
 */
export function packState({ key, snapshot, context, files, report }: RunOutcome, stored?: StoredState, sameRoutes = false): Parts {
  const { diagnostics, routes, sizes } = report;
  const heads = [() => fileTable(key, context, snapshot), () => diagnostics, () => ({ routes, sizes })];
  const per = filesPerPart(files.length);
  return {
    count: heads.length + Math.ceil(files.length / per),
    make(i) {
      // As large as the route registry: 49 MB and a quarter of a second to encode at 100,000 routes.
      if (i === ROUTES_PART && sameRoutes) {
        const bytes = stored?.routesPart();
        if (bytes !== undefined) return bytes;
      }
      if (i < heads.length) return serialize(heads[i]());
      const from = (i - heads.length) * per;
      const slice = files.slice(from, from + per);
      const same = stored?.resultPart(
        i - heads.length,
        slice.map((r, k) => ({ rel: snapshot.files[from + k].rel, digest: snapshot.files[from + k].digest, reused: r.unread !== true })),
        context,
        per,
      );
      if (same !== undefined) return same;
      return serialize({
        kept: Uint8Array.from(slice, (r) => (r.unread ? 0 : 1)),
        values: slice.map((r) => r.value),
        bodies: slice.map((r) => r.body),
        valueDigests: slice.map((r) => r.valueDigest),
        diagnostics: slice.flatMap((r, k): Array<[number, Diagnostic[]]> => (r.diagnostics.length > 0 ? [[from + k, r.diagnostics]] : [])),
      } satisfies Results);
    },
  };
}

/** A file's stat is recorded when it can vouch for the bytes: settled, or vouched for already (taken unread). */
const vouches = (f: { stat?: FileStat; unread?: true }, readAt: bigint): boolean => f.stat !== undefined && (f.unread === true || isSettled(f.stat, readAt));

function fileTable(key: string, context: string, snapshot: DataSnapshot): FileTable {
  const n = snapshot.files.length;
  const stats = new BigInt64Array(5 * n);
  const settled = new Uint8Array(n);
  snapshot.files.forEach((f, i) => {
    if (!f.stat || !vouches(f, snapshot.readAt)) return;
    settled[i] = 1;
    // Element by element: set() from an array would make one array a file.
    const at = 5 * i;
    stats[at] = f.stat.dev;
    stats[at + 1] = f.stat.ino;
    stats[at + 2] = f.stat.size;
    stats[at + 3] = f.stat.mtimeNs;
    stats[at + 4] = f.stat.ctimeNs;
  });
  return {
    key,
    context,
    rels: snapshot.files.map((f) => f.rel),
    digests: snapshot.files.map((f) => f.digest!).join(''),
    sizes: snapshot.files.map((f) => f.size!),
    stats,
    settled,
    images: snapshot.images.map(({ rel, size, digest, width, height, scripted, stat, unread }) => ({
      rel,
      size,
      digest,
      ...(width !== undefined && { width, height }),
      ...(scripted && { scripted }),
      ...(stat && vouches({ stat, unread }, snapshot.readAt) && { stat }),
    })),
  };
}

/**
 * A check's outcome kept in memory between checks of the same folder by a
 * long-lived process (CheckMemory in run.ts). Its results are the ones the
 * entry holds whenever the entry was made from the same data (its key, a hash
 * of every data byte and of the code) in the same context: they then stand in
 * for decoding the entry's results, as large as the catalogue.
 */
export interface HeldOutcome {
  key: string;
  context: string;
  rels: readonly string[];
  files: readonly ValidatedFile[];
  report: Report;
}

/** A stored state, read lazily: only its file table is decoded up front. */
export interface StoredState {
  key: string;
  /** Files (and images) whose settled stat vouches for their size and sha1, by path relative to the data directory. */
  known: Pick<ReadonlyMap<string, KnownFile>, 'get'>;
  /** The sha1 each file had, by path relative to the data directory. */
  digestOf(rel: string): string | undefined;
  /** Whether `snapshot` lists the stored files (the same paths, in the same order) and images (the same bytes and measurements). */
  sameListing(snapshot: Pick<DataSnapshot, 'files' | 'images'>): boolean;
  /** The stored report's diagnostics; undefined if they cannot be decoded. */
  diagnostics(): Diagnostic[] | undefined;
  /** The stored report, its catalogue assembled (on first read) from the stored results by `plan`: the snapshot whose key is `key`. */
  report(plan: AssemblyPlan, lean: boolean): (Report & { catalogue: Catalogue | null }) | undefined;
  /** The stored per-file results, to be reused for files whose bytes did not change. */
  previous(): PreviousFiles | undefined;
  /**
   * The stored bytes of results part `part` of `per` files, when its files are
   * `files` (the same paths at the same places, each with the stored sha1 and
   * its stored result reused), the stored parts hold `per` files each, and the
   * results were validated in `context`; else undefined.
   */
  resultPart(part: number, files: ReadonlyArray<{ rel: string; digest?: string; reused: boolean }>, context: string, per: number): StoredPart | undefined;
  /** The stored bytes of the report's routes and sizes, while the entry is open. */
  routesPart(): StoredPart | undefined;
  /** Closes the entry: nothing not yet decoded can be decoded after this. */
  release(): void;
  /**
   * For a run whose key is the stored one: the entry again with the stats
   * of the files this run read and that can now vouch for them (so the next
   * run need not read them), or undefined when there are none.
   */
  withSettledStats(snapshot: DataSnapshot): Parts | undefined;
}

/**
 * Undoes `packState`, reading each part of the entry when it is needed; undefined for another layout (then
 * nothing of it is used). With `kept` made from the same data and context, its results and report are used
 * rather than decoded.
 */
export function unpackState(entry: EntryReader, kept?: HeldOutcome): StoredState | undefined {
  let table: FileTable;
  try {
    if (entry.count < 3) throw new Error('another layout');
    table = deserialize(entry.part(0)) as FileTable;
    if (!isTable(table)) throw new Error('another layout');
  } catch {
    entry.close();
    return undefined;
  }
  const { rels, digests, sizes, stats, settled } = table;
  const index = new Map<string, number>();
  rels.forEach((rel, i) => index.set(rel, i));
  const images = new Map<string, KnownFile>();
  for (const { rel, stat, ...image } of table.images) if (stat) images.set(rel, extended(image, { stat }));
  // Made when asked for, not kept: a hundred thousand records would be as many objects held for the whole run.
  const known = {
    get(rel: string): KnownFile | undefined {
      const i = index.get(rel);
      if (i === undefined) return images.get(rel);
      if (settled[i] !== 1) return undefined;
      const s = stats.subarray(5 * i, 5 * i + 5);
      return { stat: { dev: s[0], ino: s[1], size: s[2], mtimeNs: s[3], ctimeNs: s[4] }, size: sizes[i], digest: digests.slice(40 * i, 40 * i + 40) };
    },
  };
  const digestOf = (rel: string) => {
    const i = index.get(rel);
    return i === undefined ? undefined : digests.slice(40 * i, 40 * i + 40);
  };
  const same = kept !== undefined && kept.key === table.key && kept.context === table.context && sameList(kept.rels, rels) ? kept : undefined;
  let held: EntryReader | undefined = entry;
  const decode = <T>(i: number, valid: (v: unknown) => boolean): T | undefined => {
    if (!held) return undefined;
    try {
      const v = deserialize(held.part(i)) as unknown;
      return valid(v) ? (v as T) : undefined;
    } catch {
      return undefined;
    }
  };
  /** The results' parts, decoded one at a time and joined (once). */
  let decoded: Results | undefined;
  const results = (): Results | undefined => (decoded ??= decodeResults());
  const decodeResults = (): Results | undefined => {
    const joined: Results = { kept: new Uint8Array(rels.length), values: [], bodies: [], valueDigests: [], diagnostics: [] };
    for (let i = 3; i < entry.count; i++) {
      const r = decode<Results>(i, isResults);
      if (!r || joined.values.length + r.values.length > rels.length) return undefined;
      joined.kept.set(r.kept, joined.values.length);
      for (const v of r.values) joined.values.push(v);
      for (const b of r.bodies) joined.bodies.push(b);
      for (const d of r.valueDigests) joined.valueDigests.push(d);
      for (const d of r.diagnostics) joined.diagnostics.push(d);
    }
    return joined.values.length === rels.length ? joined : undefined;
  };
  return {
    key: table.key,
    known,
    routesPart: () => held?.stored(ROUTES_PART),
    release: () => {
      held?.close();
      held = undefined;
    },
    withSettledStats(snapshot) {
      // site.json is read every time: its stat is new only if it is not the one recorded.
      const recorded = (f: { rel: string; stat?: FileStat }) => {
        const k = known.get(f.rel);
        return k !== undefined && f.stat !== undefined && sameStat(k.stat, f.stat);
      };
      const newly = [...snapshot.files, ...snapshot.images].some((f) => !f.unread && f.digest !== undefined && vouches(f, snapshot.readAt) && !recorded(f));
      if (!newly || !held) return undefined;
      // The other parts are the same bytes: they are not decoded and encoded again.
      const open = held;
      return { count: open.count, make: (i) => (i === 0 ? serialize(fileTable(table.key, table.context, snapshot)) : open.stored(i)) };
    },
    digestOf,
    sameListing({ files, images }) {
      if (files.length !== rels.length || images.length !== table.images.length) return false;
      for (let i = 0; i < files.length; i++) if (files[i].rel !== rels[i]) return false;
      return images.every((now, i) => {
        const was = table.images[i];
        const same = now.rel === was.rel && now.size === was.size && now.digest === was.digest && now.scripted === was.scripted;
        return same && now.width === was.width && now.height === was.height;
      });
    },
    diagnostics: () => (same ? same.report.diagnostics : decode<Diagnostic[]>(1, Array.isArray)),
    report(plan, lean) {
      if (same) return heldReport(same, plan, lean);
      // Each part is decoded when first read: a build whose output is up to date (build/incremental/up-to-date.ts)
      // needs none of them, and on 100,000 routes the routes alone take a third of a second. The entry's checksum
      // held, so a part that does not decode is not expected (another layout has another code, see checkDataDir).
      const undecodable = (): never => {
        throw new Error('the check cache entry could not be decoded');
      };
      let diagnostics: Diagnostic[] | undefined;
      let rest: Omit<Report, 'diagnostics'> | undefined;
      let catalogue: Catalogue | null | undefined;
      const readDiagnostics = () => (diagnostics ??= decode<Diagnostic[]>(1, Array.isArray) ?? undecodable());
      const readRest = () =>
        (rest ??=
          decode<Omit<Report, 'diagnostics'>>(ROUTES_PART, (v) => typeof v === 'object' && v !== null && Array.isArray((v as Report).routes)) ?? undecodable());
      const report = {} as Report & { catalogue: Catalogue | null };
      Object.defineProperties(report, {
        diagnostics: { enumerable: true, get: readDiagnostics },
        routes: { enumerable: true, get: () => readRest().routes },
        sizes: { enumerable: true, get: () => readRest().sizes },
        // Most of the entry, and `site check` reports without it.
        catalogue: {
          enumerable: true,
          get: () => {
            if (catalogue === undefined) {
              if (readRest().sizes === null) return (catalogue = null);
              readDiagnostics(); // the entry is closed below: every other part is read first
              const r = results() ?? undecodable();
              catalogue = assembleStored(plan, r, lean);
              held?.close();
              held = undefined;
            }
            return catalogue;
          },
        },
      });
      return report;
    },
    resultPart(part, files, context, per) {
      // Whether file i's stored result is reusable: known from the held outcome when it stands for the entry's results.
      const r = decoded;
      const kept = same ? (i: number) => same.files[i].unread !== true : r ? (i: number) => r.kept[i] === 1 : undefined;
      const from = part * per;
      if (!held || !kept || context !== table.context || per !== filesPerPart(rels.length) || Math.min(per, rels.length - from) !== files.length)
        return undefined;
      for (let k = 0; k < files.length; k++) {
        const i = from + k;
        const f = files[k];
        if (!f.reused || !kept(i) || rels[i] !== f.rel || digests.slice(40 * i, 40 * i + 40) !== f.digest) return undefined;
      }
      return held.stored(3 + part);
    },
    previous() {
      if (same) {
        return {
          context: table.context,
          get(rel) {
            const i = index.get(rel);
            if (i === undefined || same.files[i].unread) return undefined;
            return { digest: digests.slice(40 * i, 40 * i + 40), result: same.files[i] };
          },
        };
      }
      const r = results();
      if (!r) return undefined;
      const diagnostics = new Map(r.diagnostics);
      return {
        context: table.context,
        get(rel) {
          const i = index.get(rel);
          if (i === undefined || r.kept[i] !== 1) return undefined;
          return { digest: digests.slice(40 * i, 40 * i + 40), result: storedResult(r, i, diagnostics.get(i) ?? []) };
        },
      };
    },
  };
}

/**
 * The report of a held outcome, its catalogue assembled (on first read) from the held results by `plan`: their
 * body references without the links, as assembleStored gives them, while the held ones keep theirs for the
 * next check's link rules.
 */
function heldReport(held: HeldOutcome, plan: AssemblyPlan, lean: boolean): Report & { catalogue: Catalogue | null } {
  let catalogue: Catalogue | null | undefined;
  const withoutLinks = () =>
    held.files.map((f) => (f.body === undefined || f.body.links.length === 0 ? f : extended(f, { body: extended(f.body, { links: [] }) })));
  const report = { ...held.report } as Report & { catalogue: Catalogue | null };
  Object.defineProperty(report, 'catalogue', {
    enumerable: true,
    get: () => (catalogue ??= held.report.sizes === null ? null : assembleCatalogue(plan, withoutLinks(), lean)),
  });
  return report;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The catalogue a stored result had: its body references without the links, which only the check reads. */
function assembleStored(plan: AssemblyPlan, r: Results, lean: boolean): Catalogue {
  for (const body of r.bodies) if (body) body.links = [];
  return assembleCatalogue(
    plan,
    r.values.map((_, i) => storedResult(r, i, [])),
    lean,
  );
}

/** File `i`'s stored result as the load made it. */
function storedResult(r: Results, i: number, diagnostics: Diagnostic[]): ValidatedFile {
  const body = r.bodies[i];
  const valueDigest = r.valueDigests[i];
  return { value: r.values[i], diagnostics, ...(body && { body }), ...(valueDigest !== undefined && { valueDigest }) };
}

function isTable(t: unknown): t is FileTable {
  if (typeof t !== 'object' || t === null) return false;
  const { key, context, rels, digests, sizes, stats, settled, images } = t as FileTable;
  const n = Array.isArray(rels) ? rels.length : -1;
  return (
    typeof key === 'string' &&
    typeof context === 'string' &&
    n >= 0 &&
    typeof digests === 'string' &&
    digests.length === 40 * n &&
    Array.isArray(sizes) &&
    sizes.length === n &&
    stats instanceof BigInt64Array &&
    stats.length === 5 * n &&
    settled instanceof Uint8Array &&
    settled.length === n &&
    Array.isArray(images)
  );
}

function isResults(r: unknown): r is Results {
  if (typeof r !== 'object' || r === null) return false;
  const { kept, values, bodies, valueDigests, diagnostics } = r as Results;
  const n = kept instanceof Uint8Array ? kept.length : -1;
  return (
    n >= 0 &&
    Array.isArray(values) &&
    values.length === n &&
    Array.isArray(bodies) &&
    bodies.length === n &&
    Array.isArray(valueDigests) &&
    valueDigests.length === n &&
    Array.isArray(diagnostics)
  );
}
