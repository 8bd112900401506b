/**
 * Reading `data/` into memory: the file layout and every file's bytes, no
 * parsing. Both validation and the check cache's key work from this one
 * snapshot, so what is validated is exactly what was hashed. No zod here:
 * a cache hit must not pay for importing it.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as ImageSize from 'image-size';
import { shownSize, URL_SAFE_NAME } from '../core/images.js';

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
}

/** sha1 of a file's bytes, hex: how the cache key and a lean catalogue's body references name a file's content. */
export function digestOf(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

/**
 * Bytes a snapshot holds by default: the shipped catalogue (5 MB) is read
 * once; of a 100,000-route one (400 MB) only the first files stay in memory,
 * and validating the rest reads each again, one at a time.
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

export function readDataDir(dataDir: string, keepBytes = KEPT_BYTES): DataSnapshot {
  const root = resolve(dataDir);
  const base = dataDir.replace(/\\/g, '/').replace(/\/+$/, '') || '.';
  const label = (rel: string) => (base === '.' ? rel : `${base}/${rel}`);
  if (!isDirectory(root)) return { root, base, exists: false, files: [], strays: [], images: [] };

  const listings = COLLECTION_DIRS.map((dir) => ({ dir, ...jsonFilesIn(root, dir) }));
  const entries: Array<Pick<DataFile, 'rel' | 'into'>> = [
    { rel: SINGLE_FILES.site, into: 'site' },
    { rel: SINGLE_FILES.routes, into: 'routes' },
    ...listings.flatMap((l) => l.files.map((rel) => ({ rel, into: l.dir }))),
  ];
  // Synchronous reads, one file at a time: for a thousand small files they are
  // ten times faster than fs.promises (four thread-pool round trips per file).
  let held = 0;
  const files = entries.map((e): DataFile => {
    const file = label(e.rel);
    try {
      const bytes = readFileSync(join(root, e.rel));
      held += bytes.length;
      return { ...e, file, bytes: held <= keepBytes ? bytes : undefined, size: bytes.length, digest: digestOf(bytes) };
    } catch (err) {
      return { ...e, file, error: err as NodeJS.ErrnoException };
    }
  });
  const found = imageFilesIn(root);
  const images = found.files.flatMap((rel): DataImageFile[] => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, rel));
    } catch {
      found.strays.push(rel); // unreadable: reported as a file the build ignores
      return [];
    }
    const scripted = /\.svg$/i.test(rel) && isScriptedSvg(bytes.toString('utf8'));
    return [{ rel, file: label(rel), size: bytes.length, digest: digestOf(bytes), ...pixelSize(bytes), ...(scripted && { scripted }) }];
  });
  const strays = [...strayEntries(root), ...listings.flatMap((l) => l.strays), ...found.strays.sort()];
  return { root, base, exists: true, files, strays, images };
}

/**
 * Image files under `data/images/`, to any depth, sorted; anything else
 * there (another kind of file, a name a URL would have to escape) is a stray.
 */
function imageFilesIn(root: string): { files: string[]; strays: string[] } {
  const files: string[] = [];
  const strays: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (dir === IMAGES_DIR && code === 'ENOENT') return;
      if (dir === IMAGES_DIR && code === 'ENOTDIR') return void strays.push(dir);
      throw err;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const rel = `${dir}/${e.name}`;
      // Each name becomes a segment of the image's URL, which must need no escaping.
      if (e.isDirectory() && URL_SAFE_NAME.test(e.name)) walk(rel);
      // Regular files only: the build publishes these bytes as they are, and a link (to ~/.npmrc, say) would
      // publish whatever it points at. A JSON link is safe by comparison: it has to pass a schema.
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
function jsonFilesIn(root: string, dir: string): { files: string[]; strays: string[] } {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], strays: [] };
    throw err;
  }
  const files: string[] = [];
  const strays: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue; // editors' and systems' hidden files
    (e.name.endsWith('.json') && (e.isFile() || e.isSymbolicLink()) ? files : strays).push(`${dir}/${e.name}`);
  }
  return { files: files.sort(), strays: strays.sort() };
}

/** Top-level entries of data/ that the layout does not know (a misspelt folder would otherwise vanish silently). */
function strayEntries(root: string): string[] {
  const known = new Set<string>([SINGLE_FILES.site, SINGLE_FILES.routes, ...COLLECTION_DIRS, IMAGES_DIR]);
  return readdirSync(root)
    .filter((name) => !name.startsWith('.') && !known.has(name))
    .sort();
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
