/**
 * The re-check after an edit to entity files that the last check passed
 * without errors: only those files are read and validated (by the load
 * stage's own `validateData`, over a snapshot that holds just them), their
 * entities take the places of the old ones, and the cross-file rules run over
 * the whole catalogue as `checkDataDir` runs them (route resolution reads only
 * routes.json, so its result is the last one). The
 * result is the one a full check would give, minus line and column of
 * warnings. Anything else (site.json, routes.json, images, a file added,
 * removed or renamed, a file with an error) answers null: the caller runs the
 * full check, which also reports any error with its position.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CheckResult } from '../check/run.js';
import type { Catalogue } from '../core/catalogue.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { nowNs } from '../load/file-stat.js';
import { limitsOf } from '../load/limits.js';
import { COLLECTION_DIRS, type CollectionName, type DataFile, type DataSnapshot, digestOf } from '../load/read.js';

/** The last full result this check builds on: no errors, a whole (not lean) catalogue. */
export interface QuickBase {
  result: CheckResult & { catalogue: Catalogue };
  /** The data directory as given to the check (diagnostics name files under it). */
  dataDir: string;
}

const ENTITY_FILE = new RegExp(`^(${COLLECTION_DIRS.join('|')})/[^/]+\\.json$`);

/** The stages, imported on the first quick check (zod and the rules): `warm` does it ahead of time. */
const stages = () => Promise.all([import('../load/index.js'), import('../check/index.js')]);
export const warm = (): Promise<unknown> => stages();

export async function quickCheck(base: QuickBase, changed: readonly string[]): Promise<CheckResult | null> {
  const { result, dataDir } = base;
  const old = result.catalogue;
  const root = path.resolve(dataDir);
  const label = (rel: string) => `${dataDir.replace(/\\/g, '/').replace(/\/+$/, '') || '.'}/${rel}`;
  const sources = new Map<string, { into: CollectionName; index: number }>();
  for (const into of COLLECTION_DIRS) (old[into] as object[]).forEach((e, index) => sources.set(old.sourceOf.get(e) ?? '', { into, index }));

  let limits: ReturnType<typeof limitsOf>;
  const files: Array<DataFile & { into: CollectionName; index: number }> = [];
  try {
    limits = limitsOf(readFileSync(path.join(root, 'site.json')));
    for (const file of new Set(changed)) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      const known = ENTITY_FILE.test(rel) ? sources.get(label(rel)) : undefined;
      if (known === undefined) return null;
      const bytes = readFileSync(file);
      if (bytes.length > limits.fileBytes) return null;
      files.push({ rel, file: label(rel), into: known.into, index: known.index, bytes, size: bytes.length, digest: digestOf(bytes) });
    }
  } catch {
    return null; // removed or unreadable: the full check says so
  }

  const [{ validateData }, { checkCatalogue, compareDiagnostics }] = await stages();
  const snapshot: DataSnapshot = { root, base: dataDir, exists: true, files, strays: [], images: [], links: [], limits, readAt: nowNs() };
  const loaded = validateData(snapshot);
  if (loaded.catalogue === null || loaded.diagnostics.some((d) => d.severity === 'error')) return null;

  const catalogue: Catalogue = { ...old, sourceOf: new WeakMap() };
  for (const into of COLLECTION_DIRS) (catalogue as unknown as Record<CollectionName, unknown[]>)[into] = [...old[into]];
  // validateData lists each collection's entities in the snapshot's order: the n-th of a collection is its n-th file.
  const seen: Partial<Record<CollectionName, number>> = {};
  for (const f of files) {
    const n = seen[f.into] ?? 0;
    seen[f.into] = n + 1;
    (catalogue[f.into] as unknown[])[f.index] = loaded.catalogue[f.into][n];
  }
  // Each entity comes from the file its predecessor at that place came from.
  const setSource = (e: object, was: object) => {
    const source = old.sourceOf.get(was);
    if (source !== undefined) catalogue.sourceOf.set(e, source);
  };
  for (const into of COLLECTION_DIRS) (catalogue[into] as object[]).forEach((e, i) => setSource(e, (old[into] as object[])[i]));
  for (const e of [old.site, old.routes, ...old.routes] as object[]) setSource(e, e);

  const replaced = new Set(files.map((f) => f.file));
  // The load stage's findings about the other files stand; the rules see the whole new catalogue.
  const kept = result.diagnostics.filter((d) => d.code.startsWith('load/') && !replaced.has(d.file));
  const checked = checkCatalogue(catalogue, { locate: () => undefined });
  const diagnostics: Diagnostic[] = [...kept, ...loaded.diagnostics, ...checked].sort(compareDiagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) return null;
  // The route registry is the last one's (routes.json did not change): its resolution is the same array, which
  // the caller may recognise (its plan is kept by it).
  return {
    catalogue,
    diagnostics,
    routes: result.routes,
    sizes: result.sizes,
    validated: files.length,
    reused: Math.max(0, result.validated + result.reused - files.length),
    read: files.length,
  };
}
