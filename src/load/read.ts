/**
 * Reading `data/` into memory: the file layout and every file's bytes, no
 * parsing. Both validation and the check cache's key work from this one
 * snapshot, so what is validated is exactly what was hashed. No zod here:
 * a cache hit must not pay for importing it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The per-entity folders of `data/`, one JSON file per entity. */
export const COLLECTION_DIRS = ['categories', 'products', 'articles', 'news', 'pages'] as const;
export type CollectionName = (typeof COLLECTION_DIRS)[number];

/** The single files of `data/`. */
export const SINGLE_FILES = { site: 'site.json', routes: 'routes.json' } as const;

export interface DataFile {
  /** Relative to the data directory, forward slashes: `products/bulk-curcumin.json`. */
  rel: string;
  /** As diagnostics name it: the data directory as given, then `rel` (`data/products/bulk-curcumin.json`). */
  file: string;
  /** Where the entity goes: `site`, `routes` or a collection. */
  into: 'site' | 'routes' | CollectionName;
  /** The file's bytes, or why they could not be read. */
  bytes?: Buffer;
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
}

export function readDataDir(dataDir: string): DataSnapshot {
  const root = resolve(dataDir);
  const base = dataDir.replace(/\\/g, '/').replace(/\/+$/, '') || '.';
  const label = (rel: string) => (base === '.' ? rel : `${base}/${rel}`);
  if (!isDirectory(root)) return { root, base, exists: false, files: [], strays: [] };

  const listings = COLLECTION_DIRS.map((dir) => ({ dir, ...jsonFilesIn(root, dir) }));
  const entries: Array<Pick<DataFile, 'rel' | 'into'>> = [
    { rel: SINGLE_FILES.site, into: 'site' },
    { rel: SINGLE_FILES.routes, into: 'routes' },
    ...listings.flatMap((l) => l.files.map((rel) => ({ rel, into: l.dir }))),
  ];
  // Synchronous reads, one file at a time: for a thousand small files they are
  // ten times faster than fs.promises (four thread-pool round trips per file).
  const files = entries.map((e): DataFile => {
    const file = label(e.rel);
    try {
      return { ...e, file, bytes: readFileSync(join(root, e.rel)) };
    } catch (err) {
      return { ...e, file, error: err as NodeJS.ErrnoException };
    }
  });
  const strays = [...strayEntries(root), ...listings.flatMap((l) => l.strays)];
  return { root, base, exists: true, files, strays };
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
  const known = new Set<string>([SINGLE_FILES.site, SINGLE_FILES.routes, ...COLLECTION_DIRS]);
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
