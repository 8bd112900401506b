/**
 * The check stage: cross-file consistency of a loaded catalogue. Every rule is
 * a pure function of the catalogue; positions (line, column) are added last,
 * and only for the diagnostics there are.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { pointer } from '../core/diagnostics.js';
import type { Catalogue } from '../core/catalogue.js';
import { extended } from '../core/objects.js';
import { withPositions, type Position } from '../load/locate.js';
import { compareDiagnostics } from '../load/order.js';
import type { RouteRecord } from '../core/schema.js';
import { createContext } from './context.js';
import { checkCoverage } from './coverage.js';
import { isSafePath, outputFileOf } from './paths.js';
import { checkImages } from './images.js';
import { checkReferences } from './references.js';
import { checkRoutes } from './routes.js';

export interface CheckOptions {
  /** How to find a diagnostic's line and column; defaults to reading the file. Tests may pass a stub. */
  locate?: (file: string, pointer: string) => Position | undefined;
}

/** Every cross-file problem of the catalogue, sorted by file, pointer and code. */
export function checkCatalogue(catalogue: Catalogue, options: CheckOptions = {}): Diagnostic[] {
  const ctx = createContext(catalogue);
  const found = [...checkRoutes(ctx), ...checkCoverage(ctx), ...checkReferences(ctx), ...checkImages(ctx)];
  const located = options.locate ? found.map((d) => extended(d, options.locate!(d.file, d.pointer) ?? {})) : withPositions(found);
  return located.sort(compareDiagnostics);
}

/** A route as the build writes it: the first declaration of its path, plus where it goes. */
export interface ResolvedRoute extends RouteRecord {
  /** The output file relative to `dist/`, forward slashes: `index.html` for `/`, `herb-extract/index.html`. */
  output: string;
  /** JSON pointers (into the route registry) of every declaration of this path, the built one first. */
  declarations: string[];
}

/**
 * The routes to build: one per path (identical re-declarations are built
 * once; of conflicting ones the first wins, and check reports the conflict),
 * in registry order. Paths that could escape `dist/` are left out whatever
 * the caller does with check's verdict.
 */
export function resolveRoutes(catalogue: Catalogue): ResolvedRoute[] {
  const byPath = new Map<string, ResolvedRoute>();
  const taken = new Set<string>();
  catalogue.routes.forEach((route, index) => {
    const existing = byPath.get(route.path);
    if (existing) {
      existing.declarations.push(pointer(index));
      return;
    }
    if (!isSafePath(route.path)) return;
    const output = outputFileOf(route.path);
    // `/a` and `/a/` write one file: build the first, check reports the clash.
    if (taken.has(output)) return;
    taken.add(output);
    byPath.set(route.path, extended(route, { output, declarations: [pointer(index)] }));
  });
  return [...byPath.values()];
}

export { compareDiagnostics } from '../load/order.js';
export { listedProducts, pageCount } from './coverage.js';
export { isSafePath, outputFileOf, pathProblems } from './paths.js';
export { expectedNames } from './routes.js';
