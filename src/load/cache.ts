/**
 * A store for the results of loading and checking `data/`, keyed by content
 * (like eslint --cache, but never by mtime alone): the key hashes every byte
 * the result depends on — each data file's path and content (by sha1; a
 * file's stat only ever vouches for a sha1 read earlier, src/load/file-stat.ts),
 * the layout's stray entries, the links out of data/, the data directory as
 * named in diagnostics, the code of the load, check and core modules, the
 * versions of zod, jsonc-parser and node — so any change anywhere is a miss.
 * A damaged entry is a miss too (its payload carries its own checksum), and
 * entries are written to a temp file and renamed into place, so a reader
 * never sees half of one.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataSnapshot } from './read.js';

/** Bumped whenever the layout of an entry changes. */
const FORMAT = 'site-check-cache/5';

/** The first line of an entry whose parts are stored apart (EntryWriteOptions.apart). */
const FORMAT_APART = `${FORMAT} apart`;

/**
 * The modules whose output is cached, relative to this one: compiled JS when
 * running from build/, TypeScript under vitest. tests/load/cache.test.ts
 * keeps their imports inside these folders and the packages below.
 */
export const CODE_DIRS = ['../load', '../check', '../core'] as const;
export const CODE_PACKAGES = ['zod', 'jsonc-parser', 'image-size'] as const;

/**
 * Catalogues larger than this (several times the shipped one) are not cached:
 * their entry would cost seconds to write and hundreds of megabytes of disk,
 * and such sizes are stress tests (bench/synthetic.ts), not catalogues.
 */
export const MAX_DATA_BYTES = 64 * 1024 * 1024;

/**
 * The same limit for a lean result (see src/load/lean.ts), whose entry holds
 * no body blocks: a fraction of the data's size, so a stress-size catalogue
 * is worth caching too (docs/PERFORMANCE.md, "Check", has the sizes).
 */
export const MAX_LEAN_DATA_BYTES = 1024 * 1024 * 1024;

/** Entries kept per cache folder (one per data directory checked); the least recently written go first. */
const MAX_ENTRIES = 8;

let fingerprint: string | null | undefined;

/**
 * Hash of the code that produces a cached result, read once per process
 * (node keeps the modules it loaded, so later edits on disk do not change
 * what runs); undefined when that code cannot be read (then nothing is
 * cached). `fresh` reads it again: a result is stored only if the code did
 * not change on disk while it was being computed.
 */
export function codeFingerprint(fresh = false): string | undefined {
  if (fresh) {
    try {
      return hashCode();
    } catch {
      return undefined;
    }
  }
  if (fingerprint === undefined) {
    try {
      fingerprint = hashCode();
    } catch {
      fingerprint = null;
    }
  }
  return fingerprint ?? undefined;
}

/**
 * An installed package's version, from the package.json above its entry
 * point: a package whose `exports` leave out `./package.json` (image-size)
 * cannot be asked for it by name.
 */
function packageVersion(require: NodeJS.Require, pkg: string): string {
  for (let dir = dirname(require.resolve(pkg)); ; dir = dirname(dir)) {
    try {
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version: string };
      if (json.name === pkg) return json.version;
    } catch {
      // no package.json here: a folder inside the package
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the version of ${pkg}`);
  }
}

function hashCode(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const require = createRequire(import.meta.url);
  const h = createHash('sha256').update(`${FORMAT}\0${process.version}\0`);
  for (const pkg of CODE_PACKAGES) {
    h.update(`${pkg}@${packageVersion(require, pkg)}\0`);
  }
  for (const rel of CODE_DIRS) {
    const dir = resolve(here, rel);
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (!statSync(path).isFile()) continue;
      const bytes = readFileSync(path);
      h.update(`${rel}/${name}\0${bytes.length}\0`).update(bytes);
    }
  }
  return h.digest('hex');
}

/**
 * The key of a snapshot of `data/`, or undefined when it cannot be cached
 * (the folder is missing or a file could not be read: the bytes that decide
 * the result are then not all in hand; or it is over `maxBytes`).
 */
export function snapshotKey(snapshot: DataSnapshot, code: string | undefined = codeFingerprint(), maxBytes = MAX_DATA_BYTES): string | undefined {
  if (code === undefined || !snapshot.exists || snapshot.files.some((f) => f.digest === undefined)) return undefined;
  if (snapshot.files.reduce((n, f) => n + f.size!, 0) > maxBytes) return undefined;
  // Every field is length-prefixed or NUL-terminated, so two different snapshots never hash the same input.
  const h = createHash('sha256').update(`${code}\0${snapshot.root}\0${snapshot.base}\0${snapshot.strays.length}\0`);
  for (const s of snapshot.strays) h.update(`${s}\0`);
  h.update(`${snapshot.links.length}\0`);
  for (const l of snapshot.links) h.update(`${l.rel}\0${l.target}\0`);
  // Each file by its sha1 (already made while reading it), not its bytes again.
  for (const f of snapshot.files) h.update(`${f.rel}\0${f.into}\0${f.size!}\0${f.digest!}\0`);
  // Images by content too (the check compares their pixel size with what content declares); their bytes are not held, so they do not count against maxBytes.
  h.update(`${snapshot.images.length}\0`);
  for (const i of snapshot.images) h.update(`${i.rel}\0${i.size}\0${i.digest}\0`);
  return h.digest('hex');
}

/** The entry of one data directory: each directory keeps its own, so checking two catalogues does not thrash. */
export function entryPath(cacheDir: string, snapshot: Pick<DataSnapshot, 'root' | 'base'>, variant = ''): string {
  const id = createHash('sha256')
    .update(`${snapshot.root}\0${snapshot.base}${variant && `\0${variant}`}`)
    .digest('hex')
    .slice(0, 16);
  return join(cacheDir, `check-${id}.bin`);
}

/**
 * `$SITE_CACHE_DIR` when set (a CI job can point it at a folder it keeps
 * between runs), else `node_modules/.cache/site` of the nearest folder up
 * from `cwd` with a package.json (where eslint, babel and Astro keep theirs),
 * else undefined: outside any package nothing is cached.
 */
export function defaultCacheDir(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.SITE_CACHE_DIR) return resolve(cwd, env.SITE_CACHE_DIR);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    try {
      if (statSync(join(dir, 'package.json')).isFile()) return join(dir, 'node_modules', '.cache', 'site');
    } catch {
      // not here; look further up
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * An entry is a header of four lines — format, key, the sha256 of each part,
 * their lengths — then the parts, byte for byte. Parts are stored side by
 * side (not nested) so that neither writing nor reading copies them, and a
 * reader can leave a large part undecoded until it is needed. Each part has a
 * hash of its own so that a part copied from the entry before (most of them,
 * after one edit) is written without being hashed again.
 */
function header(key: string, sha256: readonly string[], lengths: readonly number[], apart = false): Buffer {
  // Lengths at a fixed width, so that the header's size is known before the parts are made (writeEntryParts).
  return Buffer.from(`${apart ? FORMAT_APART : FORMAT}\n${key}\n${sha256.join(',')}\n${lengths.map((n) => String(n).padStart(15, '0')).join(',')}\n`);
}

/**
 * Where the parts of entries stored apart are (EntryWriteOptions.apart): one
 * file a part, named by its sha256, in a folder beside the entries. A part
 * that a new entry shares with the one it replaces is not written again.
 */
export const PARTS_FOLDER = 'entry-parts';

const partFile = (entry: string, sha256: string): string => join(dirname(entry), PARTS_FOLDER, `${sha256}.part`);

const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The header's lines when they are this format's, under `key`, for a file of `size` bytes: where the parts start, their hashes and lengths. */
function parseHeader(head: Buffer, key: string, size: number): { start: number; sha256: string[]; lengths: number[]; apart: boolean } | undefined {
  const lines = head.toString('latin1').split('\n', 4);
  const apart = lines[0] === FORMAT_APART;
  if (
    lines.length < 4 ||
    (lines[0] !== FORMAT && !apart) ||
    lines[1] !== key ||
    !/^\d+(,\d+)*$/.test(lines[3]) ||
    !/^[0-9a-f]{64}(,[0-9a-f]{64})*$/.test(lines[2])
  )
    return undefined;
  const start = lines.reduce((n, l) => n + l.length + 1, 0);
  const lengths = lines[3].split(',').map(Number);
  const sha256 = lines[2].split(',');
  // Stored apart, the entry is its header alone.
  if (sha256.length !== lengths.length || start + (apart ? 0 : lengths.reduce((a, b) => a + b, 0)) !== size) return undefined;
  return { start, sha256, lengths, apart };
}

/** The parts an entry stored apart names (by sha256); none for any other file. Reads the header only: an entry stored whole may be hundreds of megabytes. */
function apartParts(entry: string): string[] {
  let fd: number | undefined;
  try {
    fd = openSync(entry, 'r');
    const head = Buffer.allocUnsafe(Math.min(HEADER_MAX, fstatSync(fd).size));
    const lines = head
      .subarray(0, readSync(fd, head, 0, head.length, 0))
      .toString('latin1')
      .split('\n', 4);
    return lines[0] === FORMAT_APART && lines.length === 4 ? lines[2].split(',') : [];
  } catch {
    return [];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The parts stored under `key`, or undefined: missing, another key, damaged or unreadable are all misses. */
export function readEntry(path: string, key: string): Buffer[] | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch {
    return undefined;
  }
  const head = parseHeader(buf.subarray(0, HEADER_MAX), key, buf.length);
  if (head === undefined) return undefined;
  if (head.apart) {
    const entry = openEntry(path, key);
    if (entry === undefined) return undefined;
    try {
      return Array.from({ length: entry.count }, (_, i) => entry.part(i));
    } catch {
      return undefined;
    } finally {
      entry.close();
    }
  }
  let offset = head.start;
  const parts = head.lengths.map((n) => {
    const part = buf.subarray(offset, offset + n);
    offset += n;
    return part;
  });
  return parts.every((p, i) => sha256Of(p) === head.sha256[i]) ? parts : undefined;
}

/**
 * An entry opened for reading its parts one at a time, each when needed: a
 * large entry is never held whole. Every part is checked against its hash
 * when the entry is opened, reading it in chunks, and the file kept open:
 * writers only ever rename a new file into place, so the open file keeps the
 * bytes that were checked.
 */
export interface EntryReader {
  readonly count: number;
  /** The bytes of part `i`. */
  part(i: number): Buffer;
  /** Part `i` as the entry stores it, with its hash: copied into a new entry, it is not hashed again. */
  stored(i: number): StoredPart;
  close(): void;
}

/**
 * A part as an entry checked it: its sha256 (hex), its length, and its bytes
 * read a chunk at a time (each chunk valid until the next is read), so that
 * copying it into a new entry holds no buffer of its size: at 100,000 routes
 * a check's entry copies some 150 MB of unchanged parts.
 */
export interface StoredPart {
  sha256: string;
  length: number;
  chunks(): Iterable<Uint8Array>;
}

/** How an entry is written (writeEntryParts). */
export interface EntryWriteOptions {
  /**
   * Each part in a file of its own, named by its hash (PARTS_FOLDER), and the
   * entry its header alone: a part the new entry shares with an entry before
   * is neither copied nor written. For an entry most of whose parts outlive
   * each write (the check's, after one edit: 215 MB at 100,000 routes, of
   * which a few change).
   */
  apart?: boolean;
  /**
   * Which files of the entry's folder are entries, and how many of them (the most recently written) the folder
   * keeps: the others are deleted, and so are the part files none of the kept ones names. The check's entries
   * (`check-…`, MAX_ENTRIES) unless told.
   */
  entries?: { match: (name: string) => boolean; keep: number };
}

/**
 * A part an entry before stored, named by its hash and length: stored apart, it is taken as it is when its file is
 * there, and made again (`make`) only when it is not. The caller vouches that `make` gives bytes of the same
 * content; they are hashed afresh, so a part made again is named by its own bytes.
 */
export interface KnownPart {
  sha256: string;
  length: number;
  make(): Uint8Array;
}

/** A part held in memory as a StoredPart, its hash given (as an entry checked it). */
export function storedPart(bytes: Uint8Array, sha256: string): StoredPart {
  return { sha256, length: bytes.length, chunks: () => [bytes] };
}

/** The buffer stored parts are read through (StoredPart.chunks), made on the first copy. */
let copyBuffer: Buffer | undefined;
const COPY_CHUNK = 1024 * 1024;

const CHUNK = 8 * 1024 * 1024;

/** The `length` bytes of `fd` from `at`, read through `buffer` a chunk at a time (each chunk valid until the next is read). */
function* rangeChunks(fd: number, at: number, length: number, buffer: Buffer): Generator<Buffer> {
  for (let done = 0; done < length; ) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, length - done), at + done);
    if (n <= 0) throw new Error('short read');
    done += n;
    yield buffer.subarray(0, n);
  }
}

/** The most a header may take: it grows by 81 bytes a part (a catalogue of 100,000 files has about 100 parts). */
const HEADER_MAX = 1024 * 1024;

/**
 * Opens the entry stored under `key`, or undefined: missing, another key, damaged or unreadable are all misses.
 * Stored apart, each part's file is opened and checked, and kept open as the entry's file is: a part file found
 * damaged is deleted, so that the next write of a part with its hash makes it again.
 */
export function openEntry(path: string, key: string): EntryReader | undefined {
  const fds: number[] = [];
  const closeAll = () => {
    for (const fd of fds) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
  };
  try {
    const fd = openSync(path, 'r');
    fds.push(fd);
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(HEADER_MAX, size));
    readSync(fd, buf, 0, buf.length, 0);
    const head = parseHeader(buf, key, size);
    if (head === undefined) {
      closeAll();
      return undefined;
    }
    const { lengths, sha256, apart } = head;
    // Where each part's bytes are: a file and the offset in it.
    const places: Array<{ fd: number; at: number; file?: string }> = [];
    if (apart) {
      closeSync(fds.pop()!);
      for (const hash of sha256) {
        const file = partFile(path, hash);
        const partFd = openPart(file);
        if (partFd !== undefined) fds.push(partFd);
        places.push({ fd: partFd ?? -1, at: 0, file });
      }
    } else for (let i = 0, at = head.start; i < lengths.length; at += lengths[i++]) places.push({ fd, at });
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, ...lengths)));
    // Every part is checked, and every damaged part file deleted: a write skips the part files that are there.
    let damaged = false;
    for (let i = 0; i < lengths.length; i++) {
      const { fd: partFd, at, file } = places[i];
      const h = createHash('sha256');
      const whole = partFd !== -1 && (file === undefined || fstatSync(partFd).size === lengths[i]);
      if (whole) for (const bytes of rangeChunks(partFd, at, lengths[i], chunk)) h.update(bytes);
      if (!whole || h.digest('hex') !== sha256[i]) {
        damaged = true;
        if (file === undefined) break;
        if (partFd !== -1) unlinkIfThere(file);
      }
    }
    if (damaged) {
      closeAll();
      return undefined;
    }
    let closed = false;
    const part = (i: number): Buffer => {
      if (closed) throw new Error('the cache entry was closed');
      const buf = Buffer.allocUnsafe(lengths[i]);
      for (let done = 0; done < buf.length; ) {
        const n = readSync(places[i].fd, buf, done, buf.length - done, places[i].at + done);
        if (n <= 0) throw new Error('short read');
        done += n;
      }
      return buf;
    };
    return {
      count: lengths.length,
      part,
      stored: (i) => ({
        sha256: sha256[i],
        length: lengths[i],
        *chunks() {
          if (closed) throw new Error('the cache entry was closed');
          yield* rangeChunks(places[i].fd, places[i].at, lengths[i], (copyBuffer ??= Buffer.allocUnsafe(COPY_CHUNK)));
        },
      }),
      close() {
        if (!closed) closeAll();
        closed = true;
      },
    };
  } catch {
    closeAll();
    return undefined;
  }
}

/** The part file opened for reading; undefined when it is missing (or cannot be opened). */
function openPart(file: string): number | undefined {
  try {
    return openSync(file, 'r');
  } catch {
    return undefined;
  }
}

function unlinkIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

/**
 * Stores `parts` under `key`, atomically. Returns false when it could not be
 * written (a read-only checkout, a full disk): the cache only ever saves time,
 * so that is not an error.
 */
export function writeEntry(path: string, key: string, parts: readonly Uint8Array[]): boolean {
  return writeEntryParts(path, key, parts.length, (i) => parts[i]);
}

/**
 * `writeEntry` for parts made one at a time (`make(i)`, in order): each is
 * written and let go before the next is made, so a large entry is never in
 * memory whole. Stored apart (`options.apart`), a part whose file is there
 * already is not made into one again.
 */
export function writeEntryParts(
  path: string,
  key: string,
  count: number,
  make: (i: number) => Uint8Array | StoredPart | KnownPart,
  options: EntryWriteOptions = {},
): boolean {
  try {
    mkdirSync(dirname(path), { recursive: true });
    (options.apart === true ? writeApart : writeWhole)(path, key, count, make);
  } catch {
    return false;
  }
  prune(dirname(path), options.entries ?? CHECK_ENTRIES);
  return true;
}

/** A part as written: bytes hashed now, a known part's bytes made again and hashed, a stored part as it is. */
function toStored(part: Uint8Array | StoredPart | KnownPart): StoredPart {
  if (part instanceof Uint8Array) return storedPart(part, sha256Of(part));
  if (!('make' in part)) return part;
  const bytes = part.make();
  return storedPart(bytes, sha256Of(bytes));
}

/** The check's entries in their folder (EntryWriteOptions.entries). */
const CHECK_ENTRIES = { match: (name: string) => name.startsWith('check-'), keep: MAX_ENTRIES };

/** The entry as one file: its header, then its parts, written to a temp file renamed into place. */
function writeWhole(path: string, key: string, count: number, make: (i: number) => Uint8Array | StoredPart | KnownPart): void {
  const lengths = new Array<number>(count).fill(0);
  const sha256 = new Array<string>(count).fill('0'.repeat(64));
  const tmp = tempName(path);
  try {
    const fd = openSync(tmp, 'w');
    try {
      let at = header(key, sha256, lengths).length;
      for (let i = 0; i < count; i++) {
        const part = toStored(make(i));
        at += writeChunks(fd, part, at);
        sha256[i] = part.sha256;
        lengths[i] = part.length;
      }
      writeChunks(fd, storedPart(header(key, sha256, lengths), ''), 0);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    unlinkIfThere(tmp);
    throw err;
  }
}

/**
 * The entry stored apart: each part's file written when none of its name is there, then the header. A known part
 * whose file is there is not made at all.
 */
function writeApart(path: string, key: string, count: number, make: (i: number) => Uint8Array | StoredPart | KnownPart): void {
  const lengths: number[] = [];
  const sha256: string[] = [];
  mkdirSync(join(dirname(path), PARTS_FOLDER), { recursive: true });
  for (let i = 0; i < count; i++) {
    const given = make(i);
    const known = !(given instanceof Uint8Array) && 'make' in given && existsSync(partFile(path, given.sha256));
    let part: { sha256: string; length: number } | undefined = known ? given : undefined;
    if (part === undefined) {
      const stored = toStored(given);
      const file = partFile(path, stored.sha256);
      if (!existsSync(file)) writeFileOf(file, stored);
      part = stored;
    }
    sha256.push(part.sha256);
    lengths.push(part.length);
  }
  writeFileOf(path, storedPart(header(key, sha256, lengths, true), ''));
}

const tempName = (path: string): string => `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;

/** Writes `part`'s chunks into `fd` from `at`; returns how many bytes (throws when they are not the part's length). */
function writeChunks(fd: number, part: StoredPart, at: number): number {
  let copied = 0;
  for (const bytes of part.chunks()) {
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, at + copied + done);
    copied += bytes.length;
  }
  if (copied !== part.length) throw new Error('a stored part changed length');
  return copied;
}

/** `part` as the file `file`, written to a temp file and renamed into place (throws when it cannot be). */
function writeFileOf(file: string, part: StoredPart): void {
  const tmp = tempName(file);
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeChunks(fd, part, 0);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    unlinkIfThere(tmp);
    throw err;
  }
}

/** Keeps the newest entries (EntryWriteOptions.entries) and the parts they name, and drops temp files a killed process left behind. */
function prune(cacheDir: string, which: NonNullable<EntryWriteOptions['entries']>): void {
  try {
    const now = Date.now();
    const entries = readdirSync(cacheDir)
      .filter(which.match)
      .map((name) => ({ name, mtimeMs: statSync(join(cacheDir, name)).mtimeMs }));
    const stale = entries.filter((e) => e.name.endsWith('.tmp') && now - e.mtimeMs > 10 * 60_000);
    const kept = entries.filter((e) => e.name.endsWith('.bin')).sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const e of [...stale, ...kept.slice(which.keep)]) unlinkSync(join(cacheDir, e.name));
    pruneParts(
      cacheDir,
      kept.slice(0, which.keep).map((e) => join(cacheDir, e.name)),
      now,
    );
  } catch {
    // another process pruned first, or the folder went away: nothing to do
  }
}

/**
 * A part file is kept this long after it was written even when no entry names it: it may be one of another
 * process's entry, not renamed into place yet.
 */
const PART_GRACE_MS = 60_000;

/** Deletes the part files (and a killed writer's temp files) that none of `entries` names, once past their grace. */
function pruneParts(cacheDir: string, entries: readonly string[], now: number): void {
  const dir = join(cacheDir, PARTS_FOLDER);
  if (!existsSync(dir)) return;
  const named = new Set(entries.flatMap(apartParts));
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.part') && named.has(name.slice(0, -'.part'.length))) continue;
    const file = join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > PART_GRACE_MS) unlinkSync(file);
    } catch {
      // gone already
    }
  }
}
