/**
 * Load and check in one call: what `site check` runs, and what `site build`
 * can run before rendering anything.
 */
import type { Diagnostic } from '../core/diagnostic.js';
import type { Catalogue } from '../load/catalogue.js';
import { loadCatalogue } from '../load/index.js';
import { checkCatalogue, resolveRoutes, type ResolvedRoute } from './index.js';

export interface CheckResult {
  /** Null when the data could not be loaded (the diagnostics say why). */
  catalogue: Catalogue | null;
  /** Load diagnostics if loading failed, else check diagnostics; sorted. */
  diagnostics: Diagnostic[];
  routes: ResolvedRoute[];
}

export async function checkDataDir(dataDir: string): Promise<CheckResult> {
  const loaded = await loadCatalogue(dataDir);
  if (!loaded.catalogue) return { catalogue: null, diagnostics: loaded.diagnostics, routes: [] };
  return { catalogue: loaded.catalogue, diagnostics: checkCatalogue(loaded.catalogue), routes: resolveRoutes(loaded.catalogue) };
}
