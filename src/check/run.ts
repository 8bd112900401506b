/**
 * Load and check in one call: what `site check` runs, and what `site build`
 * runs before rendering anything. Results are cached by content (see
 * src/load/cache.ts): a run on unchanged data and code reads the files,
 * hashes them and deserializes the stored result, and never imports zod or
 * the check rules; any other run loads and checks from scratch.
 */
import { deserialize, serialize } from 'node:v8';
import type { Diagnostic } from '../core/diagnostics.js';
import { codeFingerprint, defaultCacheDir, entryPath, MAX_DATA_BYTES, MAX_LEAN_DATA_BYTES, readEntry, snapshotKey, writeEntry } from '../load/cache.js';
import type { BodyRef, Catalogue } from '../core/catalogue.js';
import { bytesOf, readDataDir, type DataSnapshot } from '../load/read.js';
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
  /** Load the catalogue lean (see ValidateOptions.lean in src/load/index.ts); cached apart from a whole one. */
  lean?: boolean;
}

export async function checkDataDir(dataDir: string, options: CheckDataDirOptions = {}): Promise<CheckResult> {
  const snapshot = readDataDir(dataDir);
  const cacheDir = options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir;
  const lean = options.lean === true;
  const code = codeFingerprint();
  // A lean result's entry holds no bodies, so it is worth keeping for far larger catalogues.
  const key = cacheDir && code !== undefined ? snapshotKey(snapshot, lean ? `${code}\0lean` : code, lean ? MAX_LEAN_DATA_BYTES : MAX_DATA_BYTES) : undefined;
  if (!cacheDir || !key) return loadAndCheck(snapshot, lean);

  const path = entryPath(cacheDir, snapshot, lean ? 'lean' : '');
  const parts = readEntry(path, key);
  const stored = parts && fromEntry(parts);
  if (stored) return Object.assign(stored, { key });
  const result = await loadAndCheck(snapshot, lean);
  // A compile that rewrote the stages while they were loading could leave old and new code mixed: store nothing then.
  if (codeFingerprint(true) !== code) return result;
  writeEntry(path, key, toEntry(result));
  return { ...result, key };
}

/** The stages themselves, imported only on a miss: zod and the rules are most of a cold run's start-up. */
async function loadAndCheck(snapshot: DataSnapshot, lean: boolean): Promise<CheckResult> {
  const [{ validateData }, { checkCatalogue, compareDiagnostics, resolveRoutes }, locate] = await Promise.all([
    import('../load/index.js'),
    import('./index.js'),
    import('../load/locate.js'),
  ]);
  const { catalogue, diagnostics: loadDiagnostics } = validateData(snapshot, { lean });
  if (!catalogue) return { catalogue: null, diagnostics: loadDiagnostics, routes: [], sizes: null };
  const found = withPositions(checkCatalogue(catalogue, { locate: () => undefined }), snapshot, locate);
  // The links of dropped bodies were kept for the rules just run; nothing after the check reads them.
  if (catalogue.bodies) for (const e of [...catalogue.products, ...catalogue.articles, ...catalogue.news]) catalogue.bodies.get(e)!.links = [];
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
  const inSnapshot = new Map(snapshot.files.map((f) => [f.file, f]));
  return locate.withPositions(diagnostics, (file, pointers) => {
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
  /** A lean catalogue's body references, in the order of each collection. */
  bodies?: Partial<Record<(typeof WITH_BODIES)[number], Array<BodyRef | undefined>>>;
}

const WITH_BODIES = ['products', 'articles', 'news'] as const;

/** The collections whose entities `sourceOf` knows, besides `site` and the route array itself. */
const SOURCED = ['routes', 'categories', 'products', 'articles', 'news', 'pages'] as const;

function toEntry({ catalogue, diagnostics, routes, sizes }: CheckResult): Buffer[] {
  const head = serialize({ diagnostics, routes, sizes } satisfies Head);
  if (!catalogue) return [head];
  const { sourceOf, bodies, ...rest } = catalogue;
  const packed: PackedCatalogue = {
    catalogue: rest,
    ...(bodies && { bodies: Object.fromEntries(WITH_BODIES.map((k) => [k, (catalogue[k] as object[]).map((e) => bodies.get(e))])) }),
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
  // Let go of the entry's bytes once unpacked: they are as large as the catalogue itself.
  let packed: Buffer | undefined = parts[1];
  Object.defineProperty(result, 'catalogue', {
    enumerable: true,
    get: () => {
      if (catalogue === undefined) {
        catalogue = unpackCatalogue(deserialize(packed!) as PackedCatalogue);
        packed = undefined;
      }
      return catalogue;
    },
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
  if (p.bodies) {
    const bodies = new WeakMap<object, BodyRef>();
    for (const k of WITH_BODIES) {
      (catalogue[k] as object[]).forEach((e, i) => {
        const ref = p.bodies![k]?.[i];
        if (ref !== undefined) bodies.set(e, ref);
      });
    }
    catalogue.bodies = bodies;
  }
  return catalogue;
}
