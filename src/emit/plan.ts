/** The plan phase: resolved routes to the pages this build writes, each with its output file and twin. */
import path from 'node:path';
import type { ResolvedRoute } from '../check/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { planTwins, safeOutputFile, UnsafePathError } from './output/paths.js';
import { twinClashDiagnostic, unsafePathDiagnostic } from './diagnostics.js';
import type { PlannedRoute } from './types.js';

/**
 * Resolved routes → render jobs, refusing (again) any output that could
 * leave the output folder; with `htmlTwins`, each page's twin.
 */
export function planRoutes(resolved: readonly ResolvedRoute[], routesFile: string, htmlTwins = true): { plan: PlannedRoute[]; diagnostics: Diagnostic[] } {
  const plan: PlannedRoute[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const route of resolved) {
    try {
      plan.push({ index: plan.length, route, file: safeOutputFile(route.output) });
    } catch (err) {
      if (!(err instanceof UnsafePathError)) throw err;
      diagnostics.push(unsafePathDiagnostic(route, routesFile, err.message));
    }
  }
  if (htmlTwins) {
    const { twins, clashes } = planTwins(plan.map((p) => p.file));
    for (const p of plan) if (twins.has(p.file)) p.twin = true;
    const byFile = new Map(plan.map((p) => [p.file, p.route]));
    for (const { file, twin } of clashes) {
      diagnostics.push(twinClashDiagnostic(byFile.get(file)!, routesFile, file, twin));
    }
  }
  return { plan, diagnostics };
}

/**
 * Every page's folder, made before rendering. Each page has a folder of its
 * own, and a mkdir is a syscall as dear as the write: made by a worker while
 * the main thread writes the snapshot, it overlaps instead of adding to the
 * rendering. Writers still create a missing folder themselves.
 */
export function pageDirs(plan: readonly PlannedRoute[]): string[] {
  return [...new Set(plan.map((p) => path.posix.dirname(p.file)).filter((d) => d !== '.'))].sort();
}
