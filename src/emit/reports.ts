/**
 * The reports phase: reports/links.json and reports/build-routes.json,
 * beside the output and never published. Written whatever the verdict: a
 * failed build's links.json is how an editor finds the broken link.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { shown } from './diagnostics.js';
import type { LinkCheck } from './links/check.js';
import type { PageFacts } from './threads/protocol.js';
import type { PlannedRoute } from './types.js';

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** Writes both reports; returns their paths. */
export async function writeReports(
  reportsDir: string,
  check: LinkCheck,
  plan: readonly PlannedRoute[],
  facts: readonly PageFacts[],
  checkDiagnostics: readonly Diagnostic[],
  outDir: string,
): Promise<string[]> {
  const dir = path.resolve(reportsDir);
  await mkdir(dir, { recursive: true });
  const links = path.join(dir, 'links.json');
  const routes = path.join(dir, 'build-routes.json');
  await writeFile(links, json({ ...check.links, brokenLinks: check.broken, unsafeLinks: check.unsafe }));
  await writeFile(routes, json(buildRoutesReport(plan, facts, checkDiagnostics, outDir)));
  return [links, routes];
}

/** reports/build-routes.json (contract in CONTRACTS.md): what was built from which route, and the check codes about it. */
function buildRoutesReport(plan: readonly PlannedRoute[], facts: readonly PageFacts[], diagnostics: readonly Diagnostic[], outDir: string) {
  const codesAt = new Map<string, Set<string>>();
  for (const d of diagnostics) {
    if (!d.file.endsWith('routes.json')) continue;
    // `/12/meta/title` belongs to the declaration `/12`.
    const declaration = /^\/\d+/.exec(d.pointer)?.[0];
    if (declaration === undefined) continue;
    const set = codesAt.get(declaration) ?? new Set<string>();
    set.add(d.code);
    codesAt.set(declaration, set);
  }
  const outName = shown(outDir);
  return {
    routes: plan.map((p) => ({
      path: p.route.path,
      screen: p.route.screen,
      output: `${outName}/${p.file}`,
      indexable: facts[p.index].indexable,
      metaFallback: facts[p.index].metaFallback,
      warnings: [...new Set(p.route.declarations.flatMap((decl) => [...(codesAt.get(decl) ?? [])]))].sort(),
    })),
  };
}
