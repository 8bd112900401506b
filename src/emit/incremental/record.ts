/**
 * The build record: what each page of an output folder was made from (its
 * route, its body's file, the names of everything it read and their hashes,
 * see model/reads.ts), with what the later phases need of it (facts, links,
 * digest), so that the next build into that folder renders only the pages
 * whose inputs changed and takes the others over as they are.
 *
 * Kept in the cache folder, one file per output folder (by its resolved
 * path), and valid only for the folder it describes (its device and inode,
 * which the build's renames keep) and for the same code, bundle, options and
 * origin (`global`). Anything else (no record, another format, a damaged
 * file) means a full build, never a stale page.
 */
import { createHash, hash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { openEntry, writeEntryParts, type KnownPart } from '../../load/cache.js';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import type { PageFacts, PageRecords } from '../threads/protocol.js';
import type { PlannedRoute } from '../types.js';
import { folderIdentity } from '../../load/file-stat.js';
import { extended } from '../../core/objects.js';

const FORMAT = 'site-build-record/6';
/** Records kept: the outputs of a few projects, branches and test folders. */
const KEEP = 16;

/**
 * Positions in one of the record's tables: a plain list while a build
 * collects them, a view into one packed buffer once a record is read back.
 */
export type Positions = ArrayLike<number>;

export interface RecordedEntry {
  file: string;
  /** routeKey of the route the page was rendered for. */
  route: string;
  /** Positions in BuildRecord.names. */
  reads: Positions;
  digest: string;
  /** The page file's stamp in the output folder (output/stamps.ts): a file that still has it holds the page's bytes. */
  stamp: string;
  facts: Omit<PageFacts, 'index'>;
  /** Positions in BuildRecord.targets. */
  internal: Positions;
  /** Position in BuildRecord.groups, or -1. */
  group: number;
  unsafe: string[];
}

export interface BuildRecord {
  format: typeof FORMAT;
  global: string;
  /** `dev:ino` of the output folder the record describes. */
  folder: string;
  /**
   * The sha1 of the route registry's bytes (routes.json) the pages were planned from, when the check gave it. A build
   * of the same bytes, by the same code (`global`), plans the same routes: each page's route part is then its entry's
   * (routePartOf).
   */
  registry?: string;
  names: string[];
  /** The hash of each name's value when the pages were rendered. */
  digests: string[];
  targets: string[];
  /** Each group's targets, as positions in `targets`. */
  groups: number[][];
  entries: RecordedEntry[];
  /** How a record read back was stored: each section's parts, in order (readOutputRecord); a record made now has none. */
  stored?: StoredSections;
}

/**
 * The record's lists, each stored a run at a time after the file's head (RecordHead): a run that is what the record
 * before stored in the same place is taken as its part file, not made again (writeRecord).
 */
type Section = 'names' | 'digests' | 'targets' | 'entries';
const SECTIONS: readonly Section[] = ['names', 'digests', 'targets', 'entries'];

/** A part of a record's file as stored: its sha256 and length (a KnownPart, when written again unchanged). */
type PartRef = { sha256: string; length: number };
type StoredSections = Readonly<Record<Section, readonly PartRef[]>>;

/** What the first part of a record's file holds: all but its lists, and their lengths. */
type RecordHead = Omit<BuildRecord, Section | 'stored'> & { counts: Record<Section, number> };

/**
 * A run of a record's entries as kept on disk: by column, their positions
 * packed into one Int32Array each (an entry's run from `readsAt[i]` to
 * `readsAt[i + 1]`). At 100,000 routes the entries hold about 2.8 million
 * reads and 1.9 million links: as arrays of numbers they were about 900 ms
 * of the record's 2.4 s to decode and 200,000 arrays for the collector to
 * trace; packed they are two copies of a buffer.
 */
interface PackedEntries {
  files: string[];
  routes: string[];
  pageDigests: string[];
  stamps: string[];
  facts: Array<RecordedEntry['facts']>;
  group: Int32Array;
  unsafe: string[][];
  readsAt: Int32Array;
  reads: Int32Array;
  internalAt: Int32Array;
  internal: Int32Array;
}

/** Each entry's positions packed one after another, with where each entry's run starts (and, last, where the runs end). */
function pack(entries: readonly RecordedEntry[], of: (entry: RecordedEntry) => Positions): { at: Int32Array; all: Int32Array } {
  const at = new Int32Array(entries.length + 1);
  for (let i = 0; i < entries.length; i++) at[i + 1] = at[i] + of(entries[i]).length;
  const all = new Int32Array(at[entries.length]);
  for (let i = 0; i < entries.length; i++) all.set(of(entries[i]), at[i]);
  return { at, all };
}

function packEntries(entries: readonly RecordedEntry[]): PackedEntries {
  const reads = pack(entries, (e) => e.reads);
  const internal = pack(entries, (e) => e.internal);
  return {
    files: entries.map((e) => e.file),
    routes: entries.map((e) => e.route),
    pageDigests: entries.map((e) => e.digest),
    stamps: entries.map((e) => e.stamp),
    facts: entries.map((e) => e.facts),
    group: Int32Array.from(entries, (e) => e.group),
    unsafe: entries.map((e) => e.unsafe),
    readsAt: reads.at,
    reads: reads.all,
    internalAt: internal.at,
    internal: internal.all,
  };
}

function unpackEntries(packed: PackedEntries): RecordedEntry[] {
  const { files, routes, pageDigests, stamps, facts, group, unsafe, readsAt, reads, internalAt, internal } = packed;
  return files.map((file, i) => ({
    file,
    route: routes[i],
    reads: reads.subarray(readsAt[i], readsAt[i + 1]),
    digest: pageDigests[i],
    stamp: stamps[i],
    facts: facts[i],
    internal: internal.subarray(internalAt[i], internalAt[i + 1]),
    group: group[i],
    unsafe: unsafe[i],
  }));
}

/**
 * What a route contributes to its page: everything but where it was declared (which moves when others are added),
 * with its output file and twin. A route key begins with it (routeKey).
 */
export function routePart(planned: PlannedRoute): string {
  const { declarations: _where, ...route } = planned.route;
  return hash('sha1', JSON.stringify([route, planned.file, planned.twin === true]), 'base64url').slice(0, ROUTE_PART);
}

/** Characters of a route part (base64url: 120 bits). */
const ROUTE_PART = 20;

/** The key a page is recorded under: its route's part (routePart) and its body file's sha1, when it has one. */
export function routeKey(part: string, bodyDigest: string | undefined): string {
  return bodyDigest === undefined ? part : `${part}.${bodyDigest}`;
}

/** The route part of a recorded route key. */
export const routePartOf = (key: string): string => key.slice(0, ROUTE_PART);

let codeDigest: string | undefined;

/** Hash of the tool's own code (every module beside this stage's folder: the templates among them) and React's version. */
function toolCode(): string {
  if (codeDigest !== undefined) return codeDigest;
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const h = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.(js|ts|tsx|mjs|json)$/.test(entry.name)) h.update(`${path.relative(root, file)}\0`).update(readFileSync(file));
    }
  };
  walk(root);
  for (const pkg of ['react', 'react-dom']) {
    try {
      const require = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as { version: string };
      h.update(`${pkg}@${require(fileURLToPath(import.meta.resolve(`${pkg}/package.json`))).version}\0`);
    } catch {
      h.update(`${pkg}@?\0`);
    }
  }
  codeDigest = h.digest('hex');
  return codeDigest;
}

/** Everything every page depends on: the code that renders them (and a substitute render module's file), the bundle, the options. */
export function globalKey(parts: { renderModule: string; assets: unknown; htmlTwins: boolean; origin: string }): string {
  const h = createHash('sha256').update(`${FORMAT}\0${process.version}\0${toolCode()}\0`);
  h.update(JSON.stringify([parts.renderModule, parts.assets, parts.htmlTwins, parts.origin]));
  if (parts.renderModule.startsWith('file:')) {
    try {
      h.update(readFileSync(fileURLToPath(parts.renderModule)));
    } catch {
      h.update(randomBytes(8));
    }
  }
  return h.digest('hex');
}

/** The cache file of `kind` (a folder of the cache) that describes the output folder `outDir`, by its resolved path. */
export function outputCacheFile(cacheDir: string, kind: string, outDir: string): string {
  return path.join(cacheDir, kind, `${createHash('sha1').update(path.resolve(outDir)).digest('hex').slice(0, 20)}.bin`);
}

const recordFile = (cacheDir: string, outDir: string): string => outputCacheFile(cacheDir, 'records', outDir);

/** The record of `outDir`, when there is one for this folder as it is and these code and options; else undefined. */
export function readRecord(cacheDir: string, outDir: string, global: string): BuildRecord | undefined {
  const record = readOutputRecord(cacheDir, outDir);
  return record?.global === global ? record : undefined;
}

/**
 * The record of `outDir` as the folder is, whatever code and options made it: its pages' files, digests and stamps
 * describe the folder either way (incremental/spare.ts); whether its pages can be taken over is readRecord's question.
 */
export function readOutputRecord(cacheDir: string, outDir: string): BuildRecord | undefined {
  const entry = openEntry(recordFile(cacheDir, outDir), FORMAT);
  if (entry === undefined) return undefined;
  try {
    const { counts, ...head } = deserialize(entry.part(0)) as RecordHead;
    if (head.format !== FORMAT || head.folder !== folderIdentity(outDir)) return undefined;
    let next = 1;
    const stored: Record<Section, PartRef[]> = { names: [], digests: [], targets: [], entries: [] };
    const read = <T>(section: Section, values: (part: Buffer) => readonly T[]): T[] => {
      const list: T[] = [];
      for (let at = 0; at < counts[section]; at += PER_PART[section]) {
        const { sha256, length } = entry.stored(next);
        stored[section].push({ sha256, length });
        for (const value of values(entry.part(next++))) list.push(value);
      }
      if (list.length !== counts[section]) throw new Error(`the record's ${section} are not as many as its head says`);
      return list;
    };
    const names = read('names', (part) => deserialize(part) as string[]);
    const digests = read('digests', (part) => deserialize(part) as string[]);
    const targets = read('targets', (part) => deserialize(part) as string[]);
    const entries = read('entries', (part) => unpackEntries(deserialize(part) as PackedEntries));
    if (next !== entry.count) return undefined;
    return { ...head, names, digests, targets, entries, stored };
  } catch {
    return undefined;
  } finally {
    entry.close();
  }
}

/**
 * Entries per part of a record's file: written a part at a time, a record never needs a buffer of its whole size,
 * which at 100,000 routes (89 MB) was the build's peak (docs/PERFORMANCE.md, "The record written a part at a time").
 * Names, their digests and targets, VALUES_PER_PART a part: after one edit most parts are the last record's
 * (docs/PERFORMANCE.md, "The record's unchanged parts kept").
 */
const ENTRIES_PER_PART = 8192;
const VALUES_PER_PART = 32_768;
const PER_PART: Record<Section, number> = { names: VALUES_PER_PART, digests: VALUES_PER_PART, targets: VALUES_PER_PART, entries: ENTRIES_PER_PART };

/** The record files of a cache's records folder (EntryWriteOptions.entries): one per output folder, KEEP of them. */
const RECORD_FILES = { match: (name: string) => /^[0-9a-f]{20}\.bin/.test(name), keep: KEEP };

/**
 * Keeps `record` for `outDir` (now the build's output); never fails the build: without it the next build renders
 * every page. Stored apart (load/cache.ts), each run whose values are those `previous` (the record the build
 * started from) stored in the same place is taken as that part's file, not made again: the same strings, and the
 * same entries (RecordCollector keeps an entry taken over unchanged as the very object), make the same part.
 */
export function writeRecord(cacheDir: string, outDir: string, record: Omit<BuildRecord, 'folder' | 'format'>, previous?: BuildRecord): void {
  const folder = folderIdentity(outDir);
  if (folder === undefined) return;
  const { names, digests, targets, entries, stored: _stored, ...rest } = record;
  const lists: Record<Section, readonly unknown[]> = { names, digests, targets, entries };
  const counts = { names: names.length, digests: digests.length, targets: targets.length, entries: entries.length };
  const head: RecordHead = { format: FORMAT, folder, ...rest, counts };
  const parts: Array<() => Uint8Array | KnownPart> = [() => serialize(head)];
  for (const section of SECTIONS) {
    const list = lists[section];
    for (let at = 0, k = 0; at < list.length; at += PER_PART[section], k++) {
      const end = Math.min(at + PER_PART[section], list.length);
      const make = () => serialize(section === 'entries' ? packEntries(entries.slice(at, end)) : list.slice(at, end));
      parts.push(() => {
        const known = previous === undefined ? undefined : unchangedPart(previous, section, k, list, at, end);
        return known === undefined ? make() : { ...known, make };
      });
    }
  }
  writeEntryParts(recordFile(cacheDir, outDir), FORMAT, parts.length, (i) => parts[i](), { apart: true, entries: RECORD_FILES });
}

/** The part `previous` stored as run `k` of `section`, when it holds exactly the values `list` has from `at` to `end`. */
function unchangedPart(previous: BuildRecord, section: Section, k: number, list: readonly unknown[], at: number, end: number): PartRef | undefined {
  const part = previous.stored?.[section][k];
  const before: readonly unknown[] = previous[section];
  if (part === undefined || Math.min(at + PER_PART[section], before.length) !== end) return undefined;
  for (let i = at; i < end; i++) if (list[i] !== before[i]) return undefined;
  return part;
}

/** A table of strings by position, each listed once; a seeded table starts as the seed, positions and all. */
class Table {
  readonly list: string[];
  /** Made on the first lookup no hint answers: a build that renders a few pages looks up only what they read before. */
  private ids: Map<string, number> | undefined;
  private hints: Map<string, number> | undefined;

  constructor(seed: readonly string[] = []) {
    this.list = [...seed];
  }

  /** Where a seeded value sits, told before it is looked up (its position in the seed); a hint, never a new value. */
  hint(position: number): void {
    if (this.ids === undefined) (this.hints ??= new Map()).set(this.list[position], position);
  }

  id(value: string): number {
    // Each value is listed once, so a hinted position is its only one.
    const hinted = this.ids === undefined ? this.hints?.get(value) : undefined;
    if (hinted !== undefined) return hinted;
    this.hints = undefined;
    this.ids ??= new Map(this.list.map((v, i) => [v, i]));
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.list.push(value) - 1;
      this.ids.set(value, id);
    }
    return id;
  }
}

/** What a collector seeded with the last record may be told besides (RecordCollector). */
export interface CollectorSeed {
  /** The hash of each of the last record's names from this build's model, in its order (the selection's). */
  digests?: readonly string[];
  /** The last record's entry of each page this build renders again, by plan index. */
  again?: ReadonlyMap<number, RecordedEntry>;
}

/** Hints are given while at most one page in this many is rendered again (RecordCollector). */
const HINTED_SHARE = 16;

/**
 * Gathers the new record as the build goes: the pages the render threads
 * recorded (batch by batch) and the ones taken over from the last record.
 *
 * Its tables start as the last record's, so that a page taken over keeps its
 * entry as it is (its positions views into the last record's buffers): at
 * 100,000 pages, copying every page's 30 reads and 20 links into new tables
 * was 1.5 s of a rebuild. Names, targets and groups that no page uses any
 * more stay in the tables until they are a tenth of them; `finish` then
 * leaves them out.
 */
export class RecordCollector {
  private readonly names: Table;
  private readonly targets: Table;
  private readonly groups: Table;
  private readonly groupTargets: number[][];
  private readonly entries: Array<RecordedEntry | undefined>;
  private readonly facts: Array<PageFacts | undefined>;
  private readonly stamps: Array<string | undefined>;

  /** The hashes of the seed's names as of this build, when the caller has them (CollectorSeed.digests). */
  private readonly seedDigests: readonly string[];
  private readonly again: ReadonlyMap<number, RecordedEntry> | undefined;

  constructor(
    private readonly plan: readonly PlannedRoute[],
    private readonly keyOf: (planned: PlannedRoute) => string,
    private readonly previous?: BuildRecord,
    seed: CollectorSeed = {},
  ) {
    this.entries = new Array(plan.length);
    this.facts = new Array(plan.length);
    this.stamps = new Array(plan.length);
    this.names = new Table(previous?.names);
    this.targets = new Table(previous?.targets);
    this.groups = new Table(previous?.groups.map((ids) => ids.join(',')));
    this.groupTargets = previous === undefined ? [] : [...previous.groups];
    this.seedDigests = previous !== undefined && seed.digests?.length === previous.names.length ? seed.digests : [];
    // A few pages rendered again look up what they read before: their old entries say where. Many: one index of
    // each whole table costs less than hints for most of it.
    this.again = seed.again !== undefined && seed.again.size * HINTED_SHARE <= plan.length ? seed.again : undefined;
  }

  /** Tells the tables where what a page read, linked to and shared when it was last rendered sit. */
  private hintFrom(entry: RecordedEntry): void {
    for (let i = 0; i < entry.reads.length; i++) this.names.hint(entry.reads[i]);
    for (let i = 0; i < entry.internal.length; i++) this.targets.hint(entry.internal[i]);
    if (entry.group < 0 || this.previous === undefined) return;
    this.groups.hint(entry.group);
    for (const t of this.previous.groups[entry.group]) this.targets.hint(t);
  }

  private group(targets: readonly string[]): number {
    const ids = targets.map((t) => this.targets.id(t)).sort((a, b) => a - b);
    const id = this.groups.id(ids.join(','));
    if (id === this.groupTargets.length) this.groupTargets.push(ids);
    return id;
  }

  /** The facts a render thread reported for its pages (PageFacts), kept until the batch's record arrives. */
  addFacts(facts: readonly PageFacts[], stamps: ReadonlyArray<readonly [number, string]>): void {
    for (const f of facts) this.facts[f.index] = f;
    for (const [index, stamp] of stamps) this.stamps[index] = stamp;
  }

  addBatch(batch: PageRecords): void {
    if (this.again !== undefined)
      for (const page of batch.pages) {
        const was = this.again.get(page.index);
        if (was !== undefined) this.hintFrom(was);
      }
    const names = batch.names.map((n) => this.names.id(n));
    const groups = batch.groups.map((g) => this.group(g));
    for (const page of batch.pages) {
      const facts = this.facts[page.index];
      const stamp = this.stamps[page.index];
      if (facts === undefined || stamp === undefined) continue;
      const { index: _i, ...rest } = facts;
      this.entries[page.index] = {
        file: this.plan[page.index].file,
        route: this.keyOf(this.plan[page.index]),
        reads: page.reads.map((r) => names[r]),
        digest: page.digest,
        stamp,
        facts: rest,
        internal: page.internal.map((t) => this.targets.id(t)),
        group: page.group < 0 ? -1 : groups[page.group],
        unsafe: page.unsafe,
      };
    }
  }

  /** A page taken over as it was: its entry of the last record (the one this collector started from), with its file's new stamp. */
  keep(index: number, entry: RecordedEntry, stamp: string): void {
    if (this.previous === undefined) throw new Error('a page can be taken over only from the record the collector started from');
    // Unchanged, the very object: writeRecord keeps a run of such entries as the part it was stored in.
    this.entries[index] = stamp === entry.stamp ? entry : extended(entry, { stamp });
  }

  /** Whether every page of the plan has its entry (a page rendered without a record cannot be taken over later). */
  complete(): boolean {
    for (let i = 0; i < this.plan.length; i++) if (this.entries[i] === undefined) return false;
    return true;
  }

  /** The names whose hashes `finish` needs: those beyond the seed whose hashes the collector was given, else all. */
  unhashedNames(): string[] {
    return this.names.list.slice(this.seedDigests.length);
  }

  /** The record, given the hashes of `unhashedNames()`, in their order. */
  finish(global: string, digests: readonly string[]): Omit<BuildRecord, 'folder' | 'format'> {
    const entries = this.entries as RecordedEntry[];
    const record = {
      global,
      names: this.names.list,
      digests: [...this.seedDigests, ...digests],
      targets: this.targets.list,
      groups: this.groupTargets,
      entries,
    };
    const flags = used(record);
    return unusedShare(flags) > UNUSED_SHARE ? compact(record, flags) : record;
  }
}

/** The share of unused names, targets and groups above which a record is compacted (RecordCollector). */
const UNUSED_SHARE = 0.1;

type Tables = Omit<BuildRecord, 'folder' | 'format'>;

type Used = { names: Uint8Array; targets: Uint8Array; groups: Uint8Array };

/** Which names, targets and groups some entry uses, as 1s. */
function used(record: Tables): Used {
  const names = new Uint8Array(record.names.length);
  const targets = new Uint8Array(record.targets.length);
  const groups = new Uint8Array(record.groups.length);
  for (const e of record.entries) {
    for (let i = 0; i < e.reads.length; i++) names[e.reads[i]] = 1;
    for (let i = 0; i < e.internal.length; i++) targets[e.internal[i]] = 1;
    if (e.group >= 0) groups[e.group] = 1;
  }
  for (let g = 0; g < groups.length; g++) if (groups[g] === 1) for (const t of record.groups[g]) targets[t] = 1;
  return { names, targets, groups };
}

/** The largest share of a table that no entry uses. */
function unusedShare(flags: Used): number {
  const share = (f: Uint8Array) => (f.length === 0 ? 0 : 1 - f.reduce((n, x) => n + x, 0) / f.length);
  return Math.max(share(flags.names), share(flags.targets), share(flags.groups));
}

/** The record with only what its entries use (`flags`, see used), in the same order. */
function compact(record: Tables, flags: Used): Tables {
  const renumber = (f: Uint8Array) => {
    const to = new Int32Array(f.length).fill(-1);
    let next = 0;
    for (let i = 0; i < f.length; i++) if (f[i] === 1) to[i] = next++;
    return to;
  };
  const names = renumber(flags.names);
  const targets = renumber(flags.targets);
  const groups = renumber(flags.groups);
  const keep = <T>(list: readonly T[], f: Uint8Array) => list.filter((_, i) => f[i] === 1);
  return {
    global: record.global,
    names: keep(record.names, flags.names),
    digests: keep(record.digests, flags.names),
    targets: keep(record.targets, flags.targets),
    groups: keep(record.groups, flags.groups).map((ids) => ids.map((t) => targets[t])),
    entries: record.entries.map((e) =>
      extended(e, {
        reads: Int32Array.from(e.reads, (r) => names[r]),
        internal: Int32Array.from(e.internal, (t) => targets[t]),
        group: e.group < 0 ? -1 : groups[e.group],
      }),
    ),
  };
}
