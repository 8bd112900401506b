/**
 * Load and check in one call: what `site check` runs, and what `site build`
 * runs before rendering anything. Results are cached by content (see
 * src/load/cache.ts): a run on unchanged data and code reads the files,
 * hashes them and deserializes the stored result, and never imports zod or
 * the check rules; any other run loads and checks from scratch.
 */
import { deserialize, serialize } from 'node:v8';
import type { Diagnostic } from '../core/diagnostic.js';
import { codeFingerprint, defaultCacheDir, entryPath, readEntry, snapshotKey, writeEntry } from '../load/cache.js';
import type { Catalogue } from '../load/catalogue.js';
import { readDataDir, type DataSnapshot } from '../load/read.js';
import type { ResolvedRoute } from './index.js';
import { sizesOf, type CatalogueSizes } from './report.js';

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
}

export interface CheckDataDirOptions {
  /**
   * Folder of the result cache; false to load and check from scratch and
   * store nothing. Default: `node_modules/.cache/site` of the nearest package.
   */
  cacheDir?: string | false;
}

export async function checkDataDir(dataDir: string, options: CheckDataDirOptions = {}): Promise<CheckResult> {
  const snapshot = readDataDir(dataDir);
  const cacheDir = options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir;
  const code = codeFingerprint();
  const key = cacheDir ? snapshotKey(snapshot, code) : undefined;
  if (!cacheDir || !key) return loadAndCheck(snapshot);

  const path = entryPath(cacheDir, snapshot);
  const parts = readEntry(path, key);
  const stored = parts && fromEntry(parts);
  if (stored) return Object.assign(stored, { key });
  const result = await loadAndCheck(snapshot);
  // A compile that rewrote the stages while they were loading could leave old and new code mixed: store nothing then.
  if (codeFingerprint(true) !== code) return result;
  writeEntry(path, key, toEntry(result));
  return { ...result, key };
}

/** The stages themselves, imported only on a miss: zod and the rules are most of a cold run's start-up. */
async function loadAndCheck(snapshot: DataSnapshot): Promise<CheckResult> {
  const [{ validateData }, { checkCatalogue, compareDiagnostics, resolveRoutes }, locate] = await Promise.all([
    import('../load/index.js'),
    import('./index.js'),
    import('../load/locate.js'),
  ]);
  const { catalogue, diagnostics: loadDiagnostics } = validateData(snapshot);
  if (!catalogue) return { catalogue: null, diagnostics: loadDiagnostics, routes: [], sizes: null };
  const found = withPositions(checkCatalogue(catalogue, { locate: () => undefined }), snapshot, locate);
  // The load stage's warnings (stray files) belong in the same report.
  const diagnostics = [...loadDiagnostics, ...found].sort(compareDiagnostics);
  return { catalogue, diagnostics, routes: resolveRoutes(catalogue), sizes: sizesOf(catalogue) };
}

/**
 * Line and column from the bytes that were checked, not from the files as
 * they are on disk by now (an editor may have saved one meanwhile): a cached
 * result must follow from its key's bytes alone. Files outside the snapshot
 * are located on disk as usual.
 */
function withPositions(diagnostics: readonly Diagnostic[], snapshot: DataSnapshot, locate: typeof import('../load/locate.js')): Diagnostic[] {
  const bytesOf = new Map(snapshot.files.map((f) => [f.file, f.bytes]));
  return locate.withPositions(diagnostics, (file, pointers) => {
    const bytes = bytesOf.get(file);
    try {
      return bytes ? locate.createLocator(locate.stripBom(bytes.toString('utf8'))).locateMany(pointers) : locate.locateMany(file, pointers);
    } catch {
      return pointers.map(() => ({ line: 1, column: 1 })); // as locateMany does for a file that is not JSON
    }
  });
}

/**
 * A check result as the cache stores it: the report's part, then the
 * catalogue on its own, deserialized only when someone reads it — it is most
 * of the entry, and `site check` reports from the diagnostics, routes and
 * sizes alone.
 */
interface Head {
  diagnostics: Diagnostic[];
  routes: ResolvedRoute[];
  sizes: CatalogueSizes | null;
}

/** `sourceOf` is a WeakMap, which does not serialize: each entity's file is stored beside it, in order. */
interface PackedCatalogue {
  catalogue: Omit<Catalogue, 'sourceOf'>;
  site?: string;
  routeList?: string;
  lists: Partial<Record<(typeof SOURCED)[number], Array<string | undefined>>>;
}

/** The collections whose entities `sourceOf` knows, besides `site` and the route array itself. */
const SOURCED = ['routes', 'categories', 'products', 'articles', 'news', 'pages'] as const;

function toEntry({ catalogue, diagnostics, routes, sizes }: CheckResult): Buffer[] {
  const head = serialize({ diagnostics, routes, sizes } satisfies Head);
  if (!catalogue) return [head];
  const { sourceOf, ...rest } = catalogue;
  const packed: PackedCatalogue = {
    catalogue: rest,
    site: sourceOf.get(catalogue.site),
    routeList: sourceOf.get(catalogue.routes),
    lists: Object.fromEntries(SOURCED.map((k) => [k, (catalogue[k] as object[]).map((e) => sourceOf.get(e))])),
  };
  return [head, serialize(packed)];
}

/** Undoes `toEntry`; undefined for anything else (an entry of an older layout). */
function fromEntry(parts: readonly Buffer[]): CheckResult | undefined {
  let head: Head;
  try {
    head = deserialize(parts[0]) as Head;
  } catch {
    return undefined;
  }
  if (!head || typeof head !== 'object' || !Array.isArray(head.diagnostics) || !Array.isArray(head.routes)) return undefined;
  const { diagnostics, routes, sizes } = head;
  if (parts.length === 1 && sizes === null) return { catalogue: null, diagnostics, routes, sizes };
  if (parts.length !== 2 || !sizes) return undefined;
  let catalogue: Catalogue | undefined;
  const result = { diagnostics, routes, sizes } as CheckResult;
  Object.defineProperty(result, 'catalogue', {
    enumerable: true,
    get: () => (catalogue ??= unpackCatalogue(deserialize(parts[1]) as PackedCatalogue)),
  });
  return result;
}

function unpackCatalogue(p: PackedCatalogue): Catalogue {
  const sourceOf = new WeakMap<object, string>();
  const set = (entity: unknown, file: string | undefined) => {
    if (file !== undefined) sourceOf.set(entity as object, file);
  };
  const catalogue = { ...p.catalogue, sourceOf } as Catalogue;
  set(catalogue.site, p.site);
  set(catalogue.routes, p.routeList);
  for (const k of SOURCED) (catalogue[k] as object[]).forEach((e, i) => set(e, p.lists[k]?.[i]));
  return catalogue;
}
