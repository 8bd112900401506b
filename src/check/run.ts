/**
 * Load and check in one call: what `site check` runs, and what `site build`
 * can run before rendering anything.
 */
import type { Diagnostic } from '../core/diagnostic.js';
import type { Catalogue } from '../load/catalogue.js';
import { loadCatalogue } from '../load/index.js';
import { checkCatalogue, compareDiagnostics, resolveRoutes, type ResolvedRoute } from './index.js';

export interface CheckResult {
  /** Null when the data could not be loaded (the diagnostics say why). */
  catalogue: Catalogue | null;
  /** Load diagnostics, and check diagnostics when the catalogue loaded; sorted. */
  diagnostics: Diagnostic[];
  routes: ResolvedRoute[];
}

export async function checkDataDir(dataDir: string): Promise<CheckResult> {
  const loaded = await loadCatalogue(dataDir);
  if (!loaded.catalogue) return { catalogue: null, diagnostics: loaded.diagnostics, routes: [] };
  // The load stage's warnings (stray files) belong in the same report.
  const diagnostics = [...loaded.diagnostics, ...checkCatalogue(loaded.catalogue)].sort(compareDiagnostics);
  return { catalogue: loaded.catalogue, diagnostics, routes: resolveRoutes(loaded.catalogue) };
}
