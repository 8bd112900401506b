/**
 * Reading `data/` into memory: the file layout and every file's bytes, no
 * parsing. Both validation and the check cache's key work from this one
 * snapshot, so what is validated is exactly what was hashed. No zod here:
 * a cache hit must not pay for importing it.
 */
import { hash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type * as ImageSize from 'image-size';
import { shownSize, URL_SAFE_NAME } from '../core/images.js';
import { extended } from '../core/objects.js';
import { DEFAULT_LIMITS, limitsOf, type DataLimits } from './limits.js';
import { fileStatOf, nowNs, pathStat, sameStat, type FileStat, type KnownFile } from './file-stat.js';
import { isHiddenName } from './hidden.js';

/** The per-entity folders of `data/`, one JSON file per entity. */
export const COLLECTION_DIRS = ['categories', 'products', 'articles', 'news', 'pages'] as const;
export type CollectionName = (typeof COLLECTION_DIRS)[number];

/** The single files of `data/`. */
export const SINGLE_FILES = { site: 'site.json', routes: 'routes.json' } as const;

/**
 * The folder of image files (photographs, diagrams) that content names as
 * `/images/<path>`; the build publishes each at that URL.
 */
export const IMAGES_DIR = 'images';

/** What `data/images/` may hold: the formats browsers show in `<img>`. */
export const IMAGE_EXTENSIONS = ['avif', 'gif', 'jpeg', 'jpg', 'png', 'svg', 'webp'] as const;
const IMAGE_EXTENSION = new RegExp(`\\.(?:${IMAGE_EXTENSIONS.join('|')})$`, 'i');

/** An image file of `data/images/`: not parsed, only hashed and measured. */
export interface DataImageFile {
  /** Relative to the data directory, forward slashes: `images/products/curcumin.jpg`. */
  rel: string;
  /** As diagnostics name it (see DataFile.file). */
  file: string;
  size: number;
  digest: string;
  /** Pixel size read from the file's header, as shown (EXIF orientation applied); absent when the header could not be read. */
  width?: number;
  height?: number;
  /** An SVG with a script, an event handler, a javascript: URL or foreign HTML: opened on its own, it would run on the site's origin. */
  scripted?: true;
  /** The file's stat, taken before its bytes were read (or matched, when `unread`). */
  stat?: FileStat;
  /** Not read: its stat is the one recorded with the digest and measurements above (src/load/file-stat.ts). */
  unread?: true;
}

export interface DataFile {
  /** Relative to the data directory, forward slashes: `products/bulk-curcumin.json`. */
  rel: string;
  /** As diagnostics name it: the data directory as given, then `rel` (`data/products/bulk-curcumin.json`). */
  file: string;
  /** Where the entity goes: `site`, `routes` or a collection. */
  into: 'site' | 'routes' | CollectionName;
  /**
   * The file's bytes, unless they could not be read (`error` says why) or the
   * snapshot was past its budget of bytes held (`keepBytes`): then `bytesOf`
   * reads them again.
   */
  bytes?: Buffer;
  /** The size and sha1 of the bytes read; set whenever the file could be read. */
  size?: number;
  digest?: string;
  error?: NodeJS.ErrnoException;
  /** Set instead of the bytes when the file is over the limit of bytes a data file may have: it was not read. */
  tooLarge?: { size: number; limit: number; field: 'fileBytes' | 'routesBytes' };
  /** The file's stat, taken before its bytes were read (or matched, when `unread`). */
  stat?: FileStat;
  /** Not read: its stat is the one recorded with `size` and `digest` (src/load/file-stat.ts); `bytesOf` reads it when needed. */
  unread?: true;
}

export interface DataSnapshot {
  /** Absolute path of the data directory. */
  root: string;
  /** The data directory as given, forward slashes, no trailing slash (`.` for the current one). */
  base: string;
  /** False when the data directory does not exist (nothing else is then filled in). */
  exists: boolean;
  /** site.json, routes.json, then each collection's files, sorted. */
  files: DataFile[];
  /** Entries the layout does not know, relative to the data directory, sorted. */
  strays: string[];
  /** The files of `data/images/`, sorted; their bytes are not held. */
  images: DataImageFile[];
  /** Symbolic links under data/ that lead out of it, sorted: none of them is read, listed or published. */
  links: OutsideLink[];
  /** The limits site.json sets (see src/load/limits.ts); the defaults when it sets none or is unreadable. */
  limits: DataLimits;
  /** The wall clock (ns) before any file was looked at: how old a stat must be to be trusted later (src/load/file-stat.ts). */
  readAt: bigint;
}

/**
 * A symbolic link under `data/` whose target is outside it (or, dangling,
 * would be). The build reads and publishes only what `data/` holds: followed,
 * such a link would put any file of the machine (~/.npmrc, /etc/passwd) into
 * a page or under /images/. A link that stays inside `data/` adds nothing
 * `data/` does not already hold, so a JSON file through one is read like any
 * other; an image through one is still not published (see imageFilesIn).
 */
export interface OutsideLink {
  /** Relative to the data directory, forward slashes. */
  rel: string;
  /** Where it leads: the target's real path, or for a dangling link where its target would be. */
  target: string;
}

/** sha1 of a file's bytes, hex: how the cache key and a lean catalogue's body references name a file's content. */
export function digestOf(bytes: Uint8Array): string {
  return hash('sha1', bytes, 'hex');
}

/**
 * Bytes a snapshot holds by default: a catalogue of the shipped size is read
 * once; of a stress-size one only the first files stay in memory, and
 * validating the rest reads each again, one at a time (sizes in
 * docs/PERFORMANCE.md, "Check").
 */
export const KEPT_BYTES = 64 * 1024 * 1024;

/** A file's bytes did not match what the snapshot read (an editor or a checkout changed it meanwhile). */
export class ChangedFileError extends Error {
  constructor(readonly file: string) {
    super(`${file} changed while it was being read; run the command again once the data has stopped changing`);
  }
}

/** The bytes of a file the snapshot could read: held, or read again and compared with what was read first. */
export function bytesOf(snapshot: Pick<DataSnapshot, 'root'>, f: DataFile): Buffer {
  if (f.bytes) return f.bytes;
  if (f.digest === undefined) throw f.error ?? new Error(`${f.file} could not be read`);
  const bytes = readFileSync(join(snapshot.root, f.rel));
  if (bytes.length !== f.size || digestOf(bytes) !== f.digest) throw new ChangedFileError(f.file);
  return bytes;
}

/** The data directory's absolute path and its name as diagnostics give it. */
export function dataDirNames(dataDir: string): Pick<DataSnapshot, 'root' | 'base'> {
  return { root: resolve(dataDir), base: dataDir.replace(/\\/g, '/').replace(/\/+$/, '') || '.' };
}

/**
 * Reads `data/`. `known` (by path relative to it) are files whose bytes an
 * earlier run read: one whose stat is still the recorded one is not read
 * again (`unread`), its size and digest taken from the record. site.json is
 * always read: the limits of the other files come from its bytes.
 */
export function readDataDir(dataDir: string, keepBytes = KEPT_BYTES, known?: Pick<ReadonlyMap<string, KnownFile>, 'get'>): DataSnapshot {
  const readAt = nowNs();
  const { root, base } = dataDirNames(dataDir);
  const label = (rel: string) => (base === '.' ? rel : `${base}/${rel}`);
  if (!isDirectory(root)) return { root, base, exists: false, files: [], strays: [], images: [], links: [], limits: { ...DEFAULT_LIMITS }, readAt };
  const unchanged = (rel: string): KnownFile | undefined => {
    const k = known?.get(rel);
    const stat = k && pathStat(join(root, rel));
    return stat && sameStat(stat, k.stat) ? k : undefined;
  };

  const guard = linkGuard(root);
  const top = topEntries(root, guard);
  const listings = COLLECTION_DIRS.filter((dir) => !top.outside.has(dir)).map((dir) => ({ dir, ...jsonFilesIn(root, dir, guard) }));
  // A single file that leads out of data/ is not read; its OutsideLink is the error.
  const singles: Array<Pick<DataFile, 'rel' | 'into'>> = [
    { rel: SINGLE_FILES.site, into: 'site' },
    { rel: SINGLE_FILES.routes, into: 'routes' },
  ];
  const entries = [...singles.filter((e) => !top.outside.has(e.rel)), ...listings.flatMap((l) => l.files.map((rel) => ({ rel, into: l.dir })))];
  // Synchronous reads, one file at a time: for a thousand small files they are
  // ten times faster than fs.promises (four thread-pool round trips per file).
  let held = 0;
  // site.json comes first and sets the limits of the files after it (itself is held to the default one, then to its own).
  let limits = { ...DEFAULT_LIMITS };
  const files = entries.map((e): DataFile => {
    const file = label(e.rel);
    try {
      const field: 'routesBytes' | 'fileBytes' = e.into === 'routes' ? 'routesBytes' : 'fileBytes';
      const k = e.into === 'site' ? undefined : unchanged(e.rel);
      // As if read: the same size decides the same way against the limit.
      if (k)
        return k.size > limits[field]
          ? extended(e, { file, tooLarge: { size: k.size, limit: limits[field], field } })
          : extended(e, { file, size: k.size, digest: k.digest, stat: k.stat, unread: true as const });
      const { read, stat } = readWithin(join(root, e.rel), limits[field]);
      if (e.into === 'site') limits = limitsOf(Buffer.isBuffer(read) ? read : undefined);
      if (!Buffer.isBuffer(read) || read.length > limits[field]) {
        const size = Buffer.isBuffer(read) ? read.length : read.size;
        return extended(e, { file, tooLarge: { size, limit: limits[field], field } });
      }
      const bytes = read;
      held += bytes.length;
      return extended(e, { file, bytes: held <= keepBytes ? bytes : undefined, size: bytes.length, digest: digestOf(bytes), stat });
    } catch (err) {
      return extended(e, { file, error: err as NodeJS.ErrnoException });
    }
  });
  const found = top.outside.has(IMAGES_DIR) ? { files: [], strays: [] } : imageFilesIn(root, guard);
  const images = found.files.flatMap((rel): DataImageFile[] => {
    const k = unchanged(rel);
    if (k) {
      const { size, digest, width, height, scripted, stat } = k;
      return [{ rel, file: label(rel), size, digest, ...(width !== undefined && { width, height }), ...(scripted && { scripted }), stat, unread: true }];
    }
    let bytes: Buffer;
    let stat: FileStat | undefined;
    try {
      const fd = openSync(join(root, rel), 'r');
      try {
        stat = fileStatOf(fd);
        bytes = readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      found.strays.push(rel); // unreadable: reported as a file the build ignores
      return [];
    }
    const scripted = /\.svg$/i.test(rel) && isScriptedSvg(bytes.toString('utf8'));
    return [{ rel, file: label(rel), size: bytes.length, digest: digestOf(bytes), ...pixelSize(bytes), ...(scripted && { scripted }), stat }];
  });
  const strays = [...top.strays, ...listings.flatMap((l) => l.strays), ...found.strays.sort()];
  const links = guard.found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { root, base, exists: true, files, strays, images, links, limits, readAt };
}

/**
 * A file's bytes, or only its size when that is over `limit`: an oversize
 * file is never held in memory. A file that grew past the limit while it was
 * read is returned whole; the caller measures what it got.
 */
function readWithin(path: string, limit: number): { read: Buffer | { size: number }; stat?: FileStat } {
  const fd = openSync(path, 'r');
  try {
    // Taken before the bytes: a write after it moves the change time, so the record never vouches for newer bytes.
    const stat = fileStatOf(fd);
    if (stat && stat.size > BigInt(limit)) return { read: { size: Number(stat.size) } };
    return { read: readFileSync(fd), stat };
  } finally {
    closeSync(fd);
  }
}

/** Decides whether an entry that is a symbolic link leads out of data/, and keeps those that do. */
interface LinkGuard {
  /** True (and the link is recorded) when the symbolic link `rel` leads out of data/. */
  leaves(rel: string): boolean;
  found: OutsideLink[];
}

function linkGuard(root: string): LinkGuard {
  let realRoot: string | undefined;
  const found: OutsideLink[] = [];
  const within = (dir: string, path: string) => {
    const r = relative(dir, path);
    return r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r);
  };
  return {
    found,
    leaves(rel) {
      const path = join(root, rel);
      realRoot ??= realpathSync(root);
      let target: string;
      let inside: boolean;
      try {
        target = realpathSync(path);
        inside = within(realRoot, target);
      } catch {
        // Dangling (or a loop): judged by where it points, as written, from where it is.
        target = resolve(dirname(path), readlinkSync(path));
        inside = within(root, target) || within(realRoot, target);
      }
      if (!inside) found.push({ rel, target });
      return !inside;
    },
  };
}

/** The top level of data/: the names it holds that lead out of it, and the entries the layout does not know (a misspelt folder would otherwise vanish silently). */
function topEntries(root: string, guard: LinkGuard): { outside: Set<string>; strays: string[] } {
  const known = new Set<string>([SINGLE_FILES.site, SINGLE_FILES.routes, ...COLLECTION_DIRS, IMAGES_DIR]);
  const outside = new Set<string>();
  const strays: string[] = [];
  for (const e of readdirSync(root, { withFileTypes: true })) {
    if (isHiddenName(e.name)) continue;
    if (e.isSymbolicLink() && guard.leaves(e.name)) outside.add(e.name);
    else if (!known.has(e.name)) strays.push(e.name);
  }
  return { outside, strays: strays.sort() };
}

/**
 * Image files under `data/images/`, to any depth, sorted; anything else
 * there (another kind of file, a name a URL would have to escape) is a stray.
 */
function imageFilesIn(root: string, guard: LinkGuard): { files: string[]; strays: string[] } {
  const files: string[] = [];
  const strays: string[] = [];
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (dir === IMAGES_DIR && code === 'ENOENT') return;
      if (dir === IMAGES_DIR && code === 'ENOTDIR') return void strays.push(dir);
      throw err;
    }
    for (const e of entries) {
      if (isHiddenName(e.name)) continue;
      const rel = `${dir}/${e.name}`;
      if (e.isSymbolicLink() && guard.leaves(rel)) continue;
      // Each name becomes a segment of the image's URL, which must need no escaping.
      if (e.isDirectory() && URL_SAFE_NAME.test(e.name)) walk(rel);
      // Regular files only: the build publishes these bytes as they are, unchecked. A link out of data/ is an
      // error (OutsideLink); one that stays inside is not published either (a stray), as README promises.
      else if (e.isFile() && URL_SAFE_NAME.test(e.name) && IMAGE_EXTENSION.test(e.name)) files.push(rel);
      else strays.push(rel);
    }
  };
  walk(IMAGES_DIR);
  return { files: files.sort(), strays };
}

/**
 * Whether an SVG could run code when opened by its URL (in an `<img>` it
 * never does). Deliberately broad: a false alarm costs an editor a look, a
 * miss a script on the site's origin.
 */
export function isScriptedSvg(text: string): boolean {
  return /<script\b|<foreignObject\b|\son[a-z]+\s*=|javascript:|<!ENTITY|xlink:href\s*=\s*["']?\s*data:|<iframe\b|<embed\b|<object\b/i.test(text);
}

/**
 * image-size, loaded when data/images/ has a file: a catalogue without
 * images must not pay for its import at start-up.
 */
let imageSize: typeof ImageSize.imageSize | undefined;

/** Width and height from an image's header, or nothing when the header is not one image-size reads. */
function pixelSize(bytes: Uint8Array): { width?: number; height?: number } {
  imageSize ??= (createRequire(import.meta.url)('image-size') as typeof ImageSize).imageSize;
  try {
    // Upright, as browsers show it and as the build makes its copies.
    return shownSize(imageSize(bytes)) ?? {};
  } catch {
    return {};
  }
}

/**
 * `<dir>/*.json` relative to root, sorted (directory order depends on the
 * file system; the output must not), and anything else found there. A plain
 * readdir: fast-glob's import alone costs more start-up time than listing
 * these folders takes.
 */
function jsonFilesIn(root: string, dir: string, guard: LinkGuard): { files: string[]; strays: string[] } {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], strays: [] };
    throw err;
  }
  const files: string[] = [];
  const strays: string[] = [];
  for (const e of entries) {
    if (isHiddenName(e.name)) continue;
    if (e.isSymbolicLink() && guard.leaves(`${dir}/${e.name}`)) continue;
    (e.name.endsWith('.json') && (e.isFile() || e.isSymbolicLink()) ? files : strays).push(`${dir}/${e.name}`);
  }
  return { files: files.sort(), strays: strays.sort() };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
