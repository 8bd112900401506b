/**
 * Lookups every check needs, built once per run: entities by id, the route
 * declarations grouped by path, and a diagnostic factory that knows files.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { severityOf, type CheckCode } from '../core/codes.js';
import type { Catalogue } from '../core/catalogue.js';
import type { Article, Category, NewsItem, Page, Product, RouteRecord } from '../core/schema.js';

export interface Declaration {
  route: RouteRecord;
  /** Index in the route registry; the route's pointer is `/<index>`. */
  index: number;
}

export interface CheckContext {
  catalogue: Catalogue;
  routesFile: string;
  siteFile: string;
  fileOf(entity: object, fallback?: string): string;
  /** First entity per id (duplicate ids are reported separately). */
  categories: Map<string, Category>;
  products: Map<string, Product>;
  articles: Map<string, Article>;
  news: Map<string, NewsItem>;
  pages: Map<string, Page>;
  /** Declarations per path, in registry order. */
  byPath: Map<string, Declaration[]>;
  /**
   * One declaration per distinct record: the first of each path, plus any
   * later declaration of that path that differs from it. Identical duplicates
   * are checked once.
   */
  distinct: Declaration[];
}

export function createContext(catalogue: Catalogue): CheckContext {
  const routesFile = catalogue.sourceOf.get(catalogue.routes) ?? 'data/routes.json';
  const byPath = new Map<string, Declaration[]>();
  catalogue.routes.forEach((route, index) => {
    const list = byPath.get(route.path);
    if (list) list.push({ route, index });
    else byPath.set(route.path, [{ route, index }]);
  });
  const distinct: Declaration[] = [];
  for (const decls of byPath.values()) {
    if (decls.length === 1) {
      distinct.push(decls[0]);
      continue;
    }
    const seen = new Set<string>();
    for (const d of decls) {
      const key = canonicalJson(d.route);
      if (!seen.has(key)) {
        seen.add(key);
        distinct.push(d);
      }
    }
  }
  distinct.sort((a, b) => a.index - b.index);

  return {
    catalogue,
    routesFile,
    siteFile: catalogue.sourceOf.get(catalogue.site) ?? 'data/site.json',
    fileOf: (entity, fallback = 'data') => catalogue.sourceOf.get(entity) ?? fallback,
    categories: byId(catalogue.categories),
    products: byId(catalogue.products),
    articles: byId(catalogue.articles),
    news: byId(catalogue.news),
    pages: byId(catalogue.pages),
    byPath,
    distinct,
  };
}

function byId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
  return map;
}

/** JSON with sorted keys, so two declarations compare equal regardless of field order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** A check diagnostic; its severity is the code's (src/core/codes.ts), never chosen ad hoc. */
export function diagnostic(code: CheckCode, file: string, pointer: string, message: string): Diagnostic {
  return { code, severity: severityOf(code), file, pointer, message };
}
