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

export interface CheckResult {
  /** Null when the data could not be loaded (the diagnostics say why). */
  catalogue: Catalogue | null;
  /** Load diagnostics, and check diagnostics when the catalogue loaded; sorted. */
  diagnostics: Diagnostic[];
  routes: ResolvedRoute[];
  /** How many entities each part of the catalogue has (null with it): a report can count without touching the catalogue. */
  sizes: CatalogueSizes | null;
}

export interface CatalogueSizes {
  /** Entries of the route registry (a path declared twice counts twice). */
  declarations: number;
  categories: number;
  products: number;
  articles: number;
  news: number;
  pages: number;
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
  const key = cacheDir ? snapshotKey(snapshot, codeFingerprint()) : undefined;
  if (!cacheDir || !key) return loadAndCheck(snapshot);

  const path = entryPath(cacheDir, snapshot);
  const stored = fromEntry(readEntry(path, key));
  if (stored) return stored;
  const result = await loadAndCheck(snapshot);
  writeEntry(path, key, toEntry(result));
  return result;
}

/** The stages themselves, imported only on a miss: zod and the rules are most of a cold run's start-up. */
async function loadAndCheck(snapshot: DataSnapshot): Promise<CheckResult> {
  const [{ validateData }, { checkCatalogue, compareDiagnostics, resolveRoutes }] = await Promise.all([
    import('../load/index.js'),
    import('./index.js'),
  ]);
  const { catalogue, diagnostics: loadDiagnostics } = validateData(snapshot);
  if (!catalogue) return { catalogue: null, diagnostics: loadDiagnostics, routes: [], sizes: null };
  // The load stage's warnings (stray files) belong in the same report.
  const diagnostics = [...loadDiagnostics, ...checkCatalogue(catalogue)].sort(compareDiagnostics);
  return { catalogue, diagnostics, routes: resolveRoutes(catalogue), sizes: sizesOf(catalogue) };
}

function sizesOf(c: Catalogue): CatalogueSizes {
  return {
    declarations: c.routes.length,
    categories: c.categories.length,
    products: c.products.length,
    articles: c.articles.length,
    news: c.news.length,
    pages: c.pages.length,
  };
}

/**
 * A check result as the cache stores it. The catalogue is serialized on its
 * own and deserialized only when someone reads it: it is most of the entry,
 * and `site check` reports from the diagnostics, routes and sizes alone.
 */
interface Entry {
  diagnostics: Diagnostic[];
  routes: ResolvedRoute[];
  sizes: CatalogueSizes | null;
  /** v8-serialized `PackedCatalogue`; null with the catalogue. */
  catalogue: Uint8Array | null;
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

function toEntry({ catalogue, diagnostics, routes, sizes }: CheckResult): Entry {
  if (!catalogue) return { diagnostics, routes, sizes, catalogue: null };
  const { sourceOf, ...rest } = catalogue;
  const packed: PackedCatalogue = {
    catalogue: rest,
    site: sourceOf.get(catalogue.site),
    routeList: sourceOf.get(catalogue.routes),
    lists: Object.fromEntries(SOURCED.map((k) => [k, (catalogue[k] as object[]).map((e) => sourceOf.get(e))])),
  };
  return { diagnostics, routes, sizes, catalogue: serialize(packed) };
}

/** Undoes `toEntry`; undefined for anything that is not an entry (one of an older layout). */
function fromEntry(value: unknown): CheckResult | undefined {
  const e = value as Entry | undefined;
  if (!e || typeof e !== 'object' || !Array.isArray(e.diagnostics) || !Array.isArray(e.routes)) return undefined;
  if (!e.catalogue || !e.sizes) return { catalogue: null, diagnostics: e.diagnostics, routes: e.routes, sizes: null };
  const bytes = e.catalogue;
  let catalogue: Catalogue | undefined;
  const result = { diagnostics: e.diagnostics, routes: e.routes, sizes: e.sizes } as CheckResult;
  Object.defineProperty(result, 'catalogue', {
    enumerable: true,
    get: () => (catalogue ??= unpackCatalogue(deserialize(bytes) as PackedCatalogue)),
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
